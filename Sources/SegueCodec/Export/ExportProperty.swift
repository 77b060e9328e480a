import SegueEngine

/// One CSS property of one view in a render export, before fitting (docs/exports.md "Renders"):
/// its names, the function it follows, how its keyframe parameters read as CSS, and the pieces
/// it may follow exactly.
struct ExportProperty: Sendable {
    /// The CSS name (`left`, `background-color`, `--glow`) and the Web Animations key
    /// (`left`, `backgroundColor`, `--glow`).
    var css: String
    var waapi: String
    var target: FitTarget
    var text: @Sendable ([Double]) -> String
    var exactPieces: [ExactPiece] = []
    /// For a custom property: the `@property` rule's initial value.
    var registered: Double?
}

/// The rule 28 mapping from a view's channels to CSS properties.
struct ExportMapping {
    let scene: Scene
    /// Per channel: every frame's values (`SceneSamples.values`, finite), for the ranges.
    let frames: [SceneSamples.Column]
    /// When the transform's angle is read continuously: the grid of the fit, sorted.
    let grid: [Double]
    /// The channels of the view being exported, sampled once on `grid` (docs/exports.md "Cost"):
    /// every property that reads a channel, and every pass of its fit, reads a grid time from here.
    var columns: [Int: SceneSamples.Column] = [:]

    init(scene: Scene, frames: [SceneSamples.Column], grid: [Double]) {
        self.scene = scene
        self.frames = frames
        self.grid = grid
    }

    /// This mapping with `channels` sampled on the grid (and no others).
    func sampling(_ channels: [Int]) -> ExportMapping {
        var mapping = self
        mapping.columns = [:]
        for channel in channels {
            let c = scene.channels[channel]
            var numbers: [Double] = []
            numbers.reserveCapacity(grid.count * c.kind.width)
            for t in grid { numbers += c.value(at: t).numbers }
            mapping.columns[channel] = SceneSamples.Column(width: c.kind.width, numbers: numbers)
        }
        return mapping
    }

    /// This mapping reading `channels` from the frames, its grid the frames' times (which must
    /// be `grid`, sorted): nothing is sampled beyond the render's own frames.
    func readingFrames(_ channels: [Int]) -> ExportMapping {
        var mapping = self
        mapping.columns = [:]
        for channel in channels { mapping.columns[channel] = frames[channel] }
        return mapping
    }

    /// max(1, max − min) of component `k` of `channel` over the frames.
    func scale(_ channel: Int, _ k: Int) -> Double {
        let column = frames[channel]
        let values = stride(from: k, to: column.numbers.count, by: column.width).lazy.map { column.numbers[$0] }
        guard let low = values.min(), let high = values.max() else { return 1 }
        return max(1, high - low)
    }

    /// The channel's value at t: from its column at a grid time, else evaluated.
    func value(_ channel: Int) -> @Sendable (Double) -> [Double] {
        let c = scene.channels[channel]
        guard let column = columns[channel] else { return { c.value(at: $0).numbers } }
        let grid = self.grid
        return { t in
            // The grid point at or before t, by bisection; t itself when it is one.
            var low = 0, high = grid.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if grid[middle] <= t { low = middle } else { high = middle - 1 }
            }
            return grid[low] == t ? Array(column.frame(low)) : c.value(at: t).numbers
        }
    }

    /// A plain number of one channel component (`left`, `opacity`, `--glow`), optionally clamped
    /// to the range CSS keeps it in, written by `text` (a bare number by default).
    func scalar(_ channel: Int, _ k: Int, css: String, waapi: String, clamp: ClosedRange<Double>? = nil,
                text: @escaping @Sendable (Double) -> String = { CSSText.number($0) }) -> ExportProperty {
        let read = value(channel)
        let f: @Sendable (Double) -> [Double] = { t in
            let v = read(t)[k]
            return [clamp.map { min(max(v, $0.lowerBound), $0.upperBound) } ?? v]
        }
        var target = FitTarget.linear(scale: [scale(channel, k)], f)
        if let clamp {
            // CSS clamps the interpolated value too, so an eased overshoot shows clamped (which
            // keeps `mixSlope`: clamping moves no value faster).
            target.interpolate = { a, b, u in [min(max(a[0] + (b[0] - a[0]) * u, clamp.lowerBound), clamp.upperBound)] }
        }
        return ExportProperty(css: css, waapi: waapi, target: target,
                              text: { text($0[0]) }, exactPieces: scene.channels[channel].exactPieceCandidates)
    }

    /// `left`/`top` from `center` and `bounds`: c − size/2.
    func corner(center: Int, bounds: Int, _ k: Int, css: String, lengths: ExportLengths) -> ExportProperty {
        let c = value(center), b = value(bounds)
        let range = max(scale(center, k), scale(bounds, k + 2))
        return ExportProperty(css: css, waapi: css, target: .linear(scale: [range]) { t in [c(t)[k] - b(t)[k + 2] / 2] },
                              text: { lengths.position($0[0], axis: k) })
    }

    /// `background-color`: parameters r, g, b in 0–255 and alpha, as `rgb(r g b / a)`. CSS mixes
    /// colours premultiplied by alpha (CSS Color 4 §12.3) and clamps them to their range; the
    /// components compared are the premultiplied ones, what is drawn (docs/exports.md "Colours"),
    /// so a hue under zero alpha, which CSS does not keep, counts for nothing.
    func color(_ channel: Int) -> ExportProperty {
        let read = value(channel)
        var target = FitTarget(
            sample: { t in
                let v = read(t).map { min(max($0, 0), 1) }
                return ([v[0] * 255, v[1] * 255, v[2] * 255, v[3]], [v[0] * v[3], v[1] * v[3], v[2] * v[3], v[3]])
            },
            interpolate: { a, b, u in ExportMapping.premultipliedMix(a, b, u) },
            // A drawn component is c · a: an error in c and one in a add up, so each gets half.
            scale: [1, 1, 1, 1], parameterTolerance: [127.5, 127.5, 127.5, 0.5])
        // The premultiplied mix is linear in u: its slope is the difference of its ends.
        target.mixSlope = { a, b in zip(ExportMapping.premultipliedMix(a, b, 0), ExportMapping.premultipliedMix(a, b, 1)).map { abs($1 - $0) } }
        return ExportProperty(css: "background-color", waapi: "backgroundColor", target: target,
                              text: { p in "rgb(\(CSSText.number(p[0])) \(CSSText.number(p[1])) \(CSSText.number(p[2])) / \(CSSText.number(p[3])))" },
                              exactPieces: [])
    }

    /// CSS Color 4 §12.3: each component premultiplied by alpha, then mixed linearly — the
    /// premultiplied components of the mix, in 0–1 (parameters clamped to their range as CSS does).
    static func premultipliedMix(_ a: [Double], _ b: [Double], _ u: Double) -> [Double] {
        let alphaA = min(max(a[3], 0), 1), alphaB = min(max(b[3], 0), 1)
        var out = [Double](repeating: 0, count: 4)
        for k in 0..<3 {
            let ca = min(max(a[k], 0), 255) / 255 * alphaA, cb = min(max(b[k], 0), 255) / 255 * alphaB
            out[k] = ca + (cb - ca) * u
        }
        out[3] = alphaA + (alphaB - alphaA) * u
        return out
    }

    /// `transform` as `translate() rotate() [skewX()] scale()` (`TransformFunctions`), the angle
    /// read continuously along the grid.
    func transform(_ channel: Int) -> ExportProperty {
        let read = value(channel)
        let path = TransformPath(grid: grid) { AffineTransform(read($0)) }
        let showsSkew = path.isSkewed
        let scales = (0..<6).map { scale(channel, $0) }
        let linear = scales[0...3].min() ?? 1
        let size = max(1, path.largestScale)
        let target = FitTarget(
            sample: { t in
                let m = read(t)
                return (path.parameters(AffineTransform(m), at: t), m)
            },
            interpolate: { a, b, u in TransformFunctions.matrix(zip(a, b).map { $0 + ($1 - $0) * u }) },
            scale: scales, parameterTolerance: [scales[4], scales[5], linear / size, linear / size, linear, linear])
        return ExportProperty(css: "transform", waapi: "transform", target: target, text: { p in
            "translate(\(CSSText.number(p[0]))px, \(CSSText.number(p[1]))px) rotate(\(CSSText.number(p[2]))rad)"
                + (showsSkew ? " skewX(\(CSSText.number(p[3]))rad)" : "") + " scale(\(CSSText.number(p[4])), \(CSSText.number(p[5])))"
        }, exactPieces: scene.channels[channel].exactPieceCandidates)
    }
}
