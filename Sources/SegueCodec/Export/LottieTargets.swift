#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import SegueEngine

/// The channels of one view by what they are, as indices into `Scene.channels`: what the render
/// exports read (docs/exports.md "Renders", rule 29). `custom` holds every other channel — Lottie
/// has nothing to show it with and names it in `warnings`; CSS writes it as a custom property.
struct ViewChannels: Sendable {
    let name: String
    var frame: Int?, center: Int?, bounds: Int?
    var alpha: Int?, transform: Int?, color: Int?, cornerRadius: Int?
    var custom: [Int] = []
    /// Every channel of the view, in the scene's order.
    var all: [Int] = []

    init(_ name: String) {
        self.name = name
    }

    /// Every view's channels, in one pass over the scene's (a view without any is absent).
    static func byView(_ scene: Scene) -> [String: ViewChannels] {
        var views: [String: ViewChannels] = [:]
        for (i, channel) in scene.channels.enumerated() {
            views[channel.view, default: ViewChannels(channel.view)].add(i, named: channel.name)
        }
        return views
    }

    private mutating func add(_ index: Int, named name: String) {
        all.append(index)
        switch name {
        case "frame": frame = index
        case "center": center = index
        case "bounds": bounds = index
        case "alpha": alpha = index
        case "transform": transform = index
        case "backgroundColor": color = index
        case "cornerRadius": cornerRadius = index
        default: custom.append(index)
        }
    }

    /// Whether the view is placed (`frame` or `center`); unplaced, its centre is UIKit's default (0, 0).
    var isPlaced: Bool { frame != nil || center != nil }
    /// Whether the view has a size (`frame` or `bounds`); without one its rectangle is 0 × 0.
    var isSized: Bool { frame != nil || bounds != nil }

    /// The channels the layer's geometry reads.
    var geometry: [Int] { [frame, center, bounds].compactMap { $0 } }

    /// The centre of the view's rectangle in its superview: the middle of `frame`, or `center`.
    func centre(_ scene: Scene, at t: Double) -> (x: Double, y: Double) {
        if let frame {
            let f = scene.channels[frame].value(at: t).numbers
            return (f[0] + f[2] / 2, f[1] + f[3] / 2)
        }
        if let center {
            let c = scene.channels[center].value(at: t).numbers
            return (c[0], c[1])
        }
        return (0, 0)
    }

    /// The rectangle's width and height: those of `frame`, or of `bounds` (whose origin moves only
    /// the view's subviews).
    func size(_ scene: Scene, at t: Double) -> (w: Double, h: Double) {
        guard let channel = frame ?? bounds else { return (0, 0) }
        let f = scene.channels[channel].value(at: t).numbers
        return (f[2], f[3])
    }

    /// The `transform` matrix, the identity when the view has none.
    func matrix(_ scene: Scene, at t: Double) -> AffineTransform {
        guard let transform else { return .identity }
        return AffineTransform(scene.channels[transform].value(at: t).numbers)
    }

    /// The first number of a scalar channel.
    static func scalar(_ scene: Scene, _ channel: Int, at t: Double) -> Double {
        scene.channels[channel].value(at: t).numbers.first ?? 0
    }
}

/// A layer's rotation and scale as Lottie's transform holds them: `r` the angle θ in degrees
/// (clockwise on screen, as UIKit's positive angles with y pointing down: lottie-spec "Transform",
/// "Rotation in degrees, clockwise") and `s` the factors (sx, sy) in percent, with the linear part
/// M = R(θ) · diag(sx, sy) — the CSS decomposition of docs/transforms.md "Decomposition" without
/// its residual skew, which Lottie's `r` and `s` cannot carry (`skewed`).
struct RotationScale: Sendable, Equatable {
    var theta: Double, sx: Double, sy: Double
    var skewed: Bool

    /// The residual's distance from the identity above which a transform counts as skewed.
    static let skewSlack = 1e-9

    init(_ m: AffineTransform) {
        if let parts = DecomposedTransform(m) {
            (theta, sx, sy) = (parts.rotation, parts.scale.x, parts.scale.y)
            let q = parts.residual
            skewed = abs(q.a - 1) + abs(q.b) + abs(q.c) + abs(q.d - 1) > Self.skewSlack
        } else {
            // Singular (rule 6): the rotation is that of the column that is not zero; two
            // parallel non-zero columns are no R · S at all.
            sx = (m.a * m.a + m.b * m.b).squareRoot()
            sy = (m.c * m.c + m.d * m.d).squareRoot()
            theta = sx > 0 ? atan2(m.b, m.a) : (sy > 0 ? atan2(-m.c, m.d) : 0)
            skewed = sx > 0 && sy > 0
        }
    }

    /// This value moved to follow `previous` continuously: the flip rule of docs/rules.md rule 6
    /// (a reflection that moved from one axis to the other becomes both scales negated and θ ± π,
    /// the same matrix), then θ moved by whole turns to within π of the previous angle.
    func aligned(after previous: RotationScale) -> RotationScale {
        var next = self
        if (previous.sx < 0 && next.sy < 0) || (previous.sy < 0 && next.sx < 0) {
            next.sx = -next.sx
            next.sy = -next.sy
            next.theta += next.theta < 0 ? .pi : -.pi
        }
        next.theta -= ((next.theta - previous.theta) / (2 * .pi)).rounded() * 2 * .pi
        return next
    }

    /// The matrix entries [a, b, c, d] of R(θ) · diag(sx, sy) (docs/rules.md "Transforms").
    var entries: [Double] {
        let cosine = cos(theta), sine = sin(theta)
        return [sx * cosine, sx * sine, -sy * sine, sy * cosine]
    }

    /// Lottie's parameters: [r in degrees, sx in percent, sy in percent].
    var parameters: [Double] { [theta * 180 / .pi, sx * 100, sy * 100] }

    /// From Lottie's parameters.
    init(parameters p: [Double]) {
        (theta, sx, sy, skewed) = (p[0] * .pi / 180, p[1] / 100, p[2] / 100, false)
    }
}

/// Rotation and scale unwrapped over time: at every point of a dense grid, the value aligned
/// (`RotationScale.aligned`) after the value at the point before, so that a whole turn is written
/// as 360° and not as a jump back to 0°. Between grid points a value is aligned after the grid
/// point at or before it.
struct UnwrappedRotation: Sendable {
    let times: [Double]
    let values: [RotationScale]

    init(grid: [Double], _ raw: (Double) -> RotationScale) {
        var values: [RotationScale] = []
        values.reserveCapacity(grid.count)
        for t in grid {
            let value = raw(t)
            values.append(values.last.map { value.aligned(after: $0) } ?? value)
        }
        times = grid
        self.values = values
    }

    func value(at t: Double, raw: RotationScale) -> RotationScale {
        guard let first = times.first, t > first else { return values.first.map { raw.aligned(after: $0) } ?? raw }
        var low = 0, high = times.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if times[middle] <= t { low = middle } else { high = middle - 1 }
        }
        return raw.aligned(after: values[low])
    }
}

/// One Lottie property group before fitting (docs/rules.md rules 26 and 29): at time t Lottie's
/// parameters and the components of Segue's value they show, and how a Lottie player turns two
/// keyframes' parameters mixed linearly (at eased fraction u) into those components.
///
/// The compared components are Segue's values as the layer shows them: the layer position is the
/// centre of the view's rectangle moved by the transform's translation, (x + w/2 + tx, y + h/2 + ty)
/// for a `frame` and (cx + tx, cy + ty) for `center`; rotation and scale are compared as the
/// matrix entries (a, b, c, d) they make; opacities as `alpha` and the colour's alpha; the
/// rectangle's size as w and h; the roundness as `cornerRadius`; the colour as r, g, b in [0, 1].
struct LottieTarget: Sendable {
    var sample: @Sendable (Double) -> (parameters: [Double], output: [Double])
    var interpolate: @Sendable ([Double], [Double], Double) -> [Double]
    /// Each parameter's greedy tolerance per unit of `tolerance`, from the components' error
    /// scales max(1, range).
    var parameterTolerance: @Sendable ([Double]) -> [Double]
    /// The channels read, for the problem of a value that is not finite.
    var channels: [Int]
    /// `FitTarget.mixSlope`: for parameters mixed linearly into the compared components.
    var mixSlope: (@Sendable ([Double], [Double]) -> [Double])? = nil

    /// Parameters that are the compared components, mixed linearly as Lottie mixes every
    /// keyframed number.
    static func linear(_ channels: [Int], _ value: @escaping @Sendable (Double) -> [Double]) -> LottieTarget {
        LottieTarget(sample: { t in let v = value(t); return (v, v) },
                     interpolate: { a, b, u in zip(a, b).map { $0 + ($1 - $0) * u } },
                     parameterTolerance: { $0 }, channels: channels, mixSlope: { a, b in zip(a, b).map { abs($1 - $0) } })
    }

    /// Parameters that are the compared components times `factor` (percentages: `o` = 100 · alpha).
    static func scaled(_ channels: [Int], by factor: Double, _ value: @escaping @Sendable (Double) -> [Double]) -> LottieTarget {
        LottieTarget(sample: { t in let v = value(t); return (v.map { $0 * factor }, v) },
                     interpolate: { a, b, u in zip(a, b).map { ($0 + ($1 - $0) * u) / factor } },
                     parameterTolerance: { $0.map { $0 * factor } }, channels: channels,
                     mixSlope: { a, b in zip(a, b).map { abs($1 - $0) / factor } })
    }
}

/// The targets of a view's layer (docs/rules.md rule 29). `origin` is the canvas's top-left corner
/// in the views' coordinates.
enum LottieTargets {
    /// The layer's `p`: the rectangle's centre moved by the transform's translation, in canvas
    /// coordinates (the transform applies about the centre, UIKit's default anchor point).
    static func position(_ view: ViewChannels, _ scene: Scene, origin: (x: Double, y: Double)) -> LottieTarget {
        .linear(view.geometry + [view.transform].compactMap { $0 }) { t in
            let c = view.centre(scene, at: t), m = view.matrix(scene, at: t)
            return [c.x + m.tx - origin.x, c.y + m.ty - origin.y]
        }
    }

    /// The layer's `r` and `s` together (one fit, keyframes at the same times): parameters
    /// [degrees, sx %, sy %] unwrapped over `grid`, compared as the matrix entries (a, b, c, d).
    static func rotationScale(_ channel: Int, _ scene: Scene, grid: [Double]) -> LottieTarget {
        let raw: @Sendable (Double) -> RotationScale = { t in
            RotationScale(AffineTransform(scene.channels[channel].value(at: t).numbers))
        }
        let unwrapped = UnwrappedRotation(grid: grid, raw)
        let largestScale = grid.reduce(0.0) { largest, t in
            let value = raw(t)
            return max(largest, abs(value.sx), abs(value.sy))
        }
        return LottieTarget(
            sample: { t in
                let value = unwrapped.value(at: t, raw: raw(t))
                return (value.parameters, value.entries)
            },
            interpolate: { a, b, u in RotationScale(parameters: zip(a, b).map { $0 + ($1 - $0) * u }).entries },
            parameterTolerance: { scale in
                // An angle step δ moves an entry by at most |s| · δ; a scale step by itself.
                let unit = scale.min() ?? 1
                return [unit / max(largestScale, 1e-6) * 180 / .pi, unit * 100, unit * 100]
            },
            channels: [channel])
    }

    /// The layer's `o`: 100 · alpha.
    static func opacity(_ channel: Int, _ scene: Scene) -> LottieTarget {
        .scaled([channel], by: 100) { t in [ViewChannels.scalar(scene, channel, at: t)] }
    }

    /// The rectangle's `s`: [w, h].
    static func size(_ view: ViewChannels, _ scene: Scene) -> LottieTarget {
        .linear(view.geometry) { t in
            let size = view.size(scene, at: t)
            return [size.w, size.h]
        }
    }

    /// The rectangle's `r`: `cornerRadius`.
    static func roundness(_ channel: Int, _ scene: Scene) -> LottieTarget {
        .linear([channel]) { t in [ViewChannels.scalar(scene, channel, at: t)] }
    }

    /// The fill's `c`: the background colour's r, g, b, each kept within [0, 1] (lottie-spec
    /// "Color": values in [0, 1]; an overshoot beyond them is clamped and warned about).
    ///
    /// With `inset` ε > 0 the parameters are the components drawn towards the middle,
    /// ε + (1 − 2ε) · c, which differ from c by at most ε: a fit of them within ε keeps every
    /// keyframe inside [0, 1] (keyframes sit within the tolerance of their samples: `KeyframeFit`,
    /// step 3, and its rounding keeps those offsets) and shows c within 2ε (`LottieFitter.fitColor`).
    static func color(_ channel: Int, _ scene: Scene, inset: Double = 0) -> LottieTarget {
        .linear([channel]) { t in
            scene.channels[channel].value(at: t).numbers.prefix(3).map { inset + (1 - 2 * inset) * min(max($0, 0), 1) }
        }
    }

    /// The fill's `o`: 100 · the background colour's alpha.
    static func fillOpacity(_ channel: Int, _ scene: Scene) -> LottieTarget {
        .scaled([channel], by: 100) { t in [scene.channels[channel].value(at: t).numbers[3]] }
    }
}
