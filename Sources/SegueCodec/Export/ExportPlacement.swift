import SegueEngine

/// Rule 42's `geometry=transform` for one view (docs/exports.md "Geometry on the compositor"): the
/// element is laid out once — its box the view's first frame — and everything the view's frame,
/// centre, bounds and transform do afterwards becomes one CSS transform about the box's centre.
///
/// UIKit draws a point q of the view (relative to its bounds' centre) at c(t) + T(t)·q, c the
/// centre, T the view's transform about the anchor point (the centre). The element's box has the
/// first frame's centre c₀ and a reference size (w₀, h₀); CSS draws its point q′ at c₀ + M·q′
/// (`transform-origin: 50% 50%`). With q = S·q′, S = diag(w/w₀, h/h₀):
///
///     M = translate(c − c₀) · T · S
///       = [a·sx, b·sx, c·sy, d·sy, tx + dx, ty + dy]      (a…ty the view's transform)
///
/// written as the function list `translate() rotate() [skewX()] scale()` (`TransformFunctions`).
/// The error is measured on what is drawn, in points: the images of the box's edges (M's columns
/// times w₀ and h₀) and the translation, each in units of max(1, its range) as rule 26 asks.
///
/// Edge cases, before the code:
/// - no size (a `center` without `bounds`): S is the identity and the box has no size;
/// - a first frame of width or height 0 (a view that grows from nothing): the reference size is the
///   largest over the frames, so S is 0 at the start and never divides by 0; 1 if it is always 0;
/// - no position (`bounds` alone): the centre stays UIKit's default (0, 0).
struct ExportPlacement: Sendable {
    /// The channels the view's geometry comes from.
    var frame: Int?, center: Int?, bounds: Int?, transform: Int?
    /// The box: first centre and reference size.
    var centre0: (x: Double, y: Double)
    var size0: (w: Double, h: Double)
    let hasSize: Bool

    init(_ view: ViewChannels, frames: [SceneSamples.Column]) {
        (frame, center, bounds, transform) = (view.frame, view.center, view.bounds, view.transform)
        hasSize = frame != nil || bounds != nil
        centre0 = (0, 0)
        size0 = (1, 1)
        let first = Self.geometry(frame: frame, center: center, bounds: bounds) { channel in
            Array(frames[channel].numbers.prefix(frames[channel].width))
        }
        centre0 = first.centre
        if hasSize {
            // The largest size over the frames, for a first size of 0.
            var widest = (w: 0.0, h: 0.0)
            if let sized = frame ?? bounds {
                let column = frames[sized]
                for start in stride(from: 0, to: column.numbers.count, by: column.width) {
                    widest = (max(widest.w, abs(column.numbers[start + 2])), max(widest.h, abs(column.numbers[start + 3])))
                }
            }
            size0 = (first.size.w != 0 ? first.size.w : (widest.w > 0 ? widest.w : 1),
                     first.size.h != 0 ? first.size.h : (widest.h > 0 ? widest.h : 1))
        }
    }

    /// Whether the view's width or height differs between frames.
    func sizeChanges(_ frames: [SceneSamples.Column]) -> Bool {
        guard let sized = frame ?? bounds else { return false }
        let column = frames[sized]
        guard column.numbers.count >= column.width else { return false }
        let first = column.frame(0)
        return stride(from: 0, to: column.numbers.count, by: column.width).contains { start in
            column.numbers[start + 2] != first[first.startIndex + 2] || column.numbers[start + 3] != first[first.startIndex + 3]
        }
    }

    /// Whether any geometry channel moves the view.
    var isPlaced: Bool { frame != nil || center != nil || bounds != nil || transform != nil }

    /// The centre and size the channels give (a channel's value read by `read`).
    static func geometry(frame: Int?, center: Int?, bounds: Int?,
                         _ read: (Int) -> [Double]) -> (centre: (x: Double, y: Double), size: (w: Double, h: Double)) {
        if let frame {
            let f = read(frame)
            return ((f[0] + f[2] / 2, f[1] + f[3] / 2), (f[2], f[3]))
        }
        let c = center.map(read) ?? [0, 0]
        let b = bounds.map(read) ?? [0, 0, 0, 0]
        return ((c[0], c[1]), (b[2], b[3]))
    }

    /// M at the channels' values given by `read`.
    func matrix(_ read: (Int) -> [Double]) -> AffineTransform {
        let now = Self.geometry(frame: frame, center: center, bounds: bounds, read)
        let t = transform.map { AffineTransform(read($0)) } ?? .identity
        let sx = hasSize ? now.size.w / size0.w : 1, sy = hasSize ? now.size.h / size0.h : 1
        return AffineTransform(a: t.a * sx, b: t.b * sx, c: t.c * sy, d: t.d * sy,
                               tx: t.tx + now.centre.x - centre0.x, ty: t.ty + now.centre.y - centre0.y)
    }

    /// What is drawn, in points: the box's edge vectors M·(w₀, 0) and M·(0, h₀), and the translation.
    func drawn(_ m: [Double]) -> [Double] {
        [m[0] * size0.w, m[1] * size0.w, m[2] * size0.h, m[3] * size0.h, m[4], m[5]]
    }

    /// The channels whose block animations may give exact pieces.
    var channels: [Int] { [frame, center, bounds, transform].compactMap { $0 } }
}

extension ExportMapping {
    /// The `transform` of `geometry=transform` (rule 42): `placement`'s M as
    /// `translate() rotate() [skewX()] scale()`, the angle read continuously along the grid, the
    /// translation written by `length`.
    func placedTransform(_ placement: ExportPlacement, length: @escaping @Sendable (Double, Int) -> String) -> ExportProperty {
        let readers = Dictionary(placement.channels.map { ($0, value($0)) }) { first, _ in first }
        let channels = scene.channels
        let read: @Sendable (Double) -> AffineTransform = { t in
            placement.matrix { channel in readers[channel].map { $0(t) } ?? channels[channel].value(at: t).numbers }
        }
        let path = TransformPath(grid: grid, read)
        let showsSkew = path.isSkewed
        // max(1, range) of each drawn component over the frames.
        var low = [Double](repeating: .infinity, count: 6), high = [Double](repeating: -.infinity, count: 6)
        let count = placement.channels.first.map { frames[$0].numbers.count / frames[$0].width } ?? 0
        for i in 0..<count {
            let m = placement.matrix { Array(frames[$0].frame(i)) }
            for (k, v) in placement.drawn(m.array).enumerated() { (low[k], high[k]) = (min(low[k], v), max(high[k], v)) }
        }
        let scales = (0..<6).map { max(1, high[$0] - low[$0]) }
        // A parameter's share: the scale factors in units of the box's size.
        let linear = min(scales[0] / placement.size0.w, scales[1] / placement.size0.w,
                         scales[2] / placement.size0.h, scales[3] / placement.size0.h)
        let size = max(1, path.largestScale)
        let target = FitTarget(
            sample: { t in
                let m = read(t)
                return (path.parameters(m, at: t), placement.drawn(m.array))
            },
            interpolate: { a, b, u in placement.drawn(TransformFunctions.matrix(zip(a, b).map { $0 + ($1 - $0) * u })) },
            scale: scales, parameterTolerance: [scales[4], scales[5], linear / size, linear / size, linear, linear])
        let pieces = placement.channels.flatMap { scene.channels[$0].exactPieceCandidates }
        return ExportProperty(css: "transform", waapi: "transform", target: target, text: { p in
            "translate(\(length(p[0], 0)), \(length(p[1], 1))) rotate(\(CSSText.number(p[2]))rad)"
                + (showsSkew ? " skewX(\(CSSText.number(p[3]))rad)" : "") + " scale(\(CSSText.number(p[4])), \(CSSText.number(p[5])))"
        }, exactPieces: pieces)
    }
}
