import SegueEngine

/// Fits Lottie property groups to a render (docs/rules.md rules 26 and 29): each `LottieTarget`
/// becomes the keyframes `KeyframeFit` finds over the window [0, end], keyframe times in frames
/// (`unitsPerSecond` = fps, fractional frames allowed: lottie-spec "Keyframes", `t` a number),
/// with the scene's event times as breakpoints and Bézier-timed block animations as exact pieces
/// (`LottieExactPieces`). The error unit of each compared component is
/// max(1, range), the range taken over the render's frames.
struct LottieFitter: Sendable {
    /// Even steps of `grid` over the window: as many as a CSS export of the render uses.
    let gridIntervals: Int

    let scene: Scene
    let frames: [Double]
    /// The window's end: the scene's end or the last frame, whichever is later.
    let end: Double
    let fps: Double
    let tolerance: Double
    /// Event times inside the window.
    let breakpoints: [Double]
    /// Even steps over the window plus the breakpoints: where a constant is confirmed and a
    /// rotation unwrapped.
    let grid: [Double]
    /// The frames' times, sorted and distinct: where the rotation of a transform one block alone
    /// moves is unwrapped (its fit checks it there, `soleBlock`).
    var frameGrid: [Double] {
        var times: [Double] = []
        for t in frames.sorted() where times.last.map({ t > $0 }) ?? true { times.append(t) }
        return times
    }
    /// The request's: stops every fit once raised (503).
    let cancellation: WorkCancellation?
    /// The progress stops of each spring block (rule 41's `linear()`, written as keyframes).
    private(set) var blockEasings = BlockEasings()

    enum Fit: Sendable {
        /// The parameters never change.
        case constant([Double])
        case keyframes([Keyframe])
    }

    init(_ request: RenderRequest, tolerance: Double, fps: Double) {
        scene = request.scene
        frames = request.times
        end = max(request.scene.end, request.times.last ?? 0)
        self.fps = fps
        self.tolerance = tolerance
        gridIntervals = RenderExport.gridIntervals(frames: request.times.count)
        let window = end
        let inside = request.scene.events.map(\.event.t).filter { $0 > 0 && $0 < window }
        breakpoints = inside
        grid = window > 0 ? KeyframeFit.grid(start: 0, end: window, intervals: gridIntervals, breakpoints: inside) : [0]
        cancellation = request.cancellation
    }

    /// The keyframes of `target`, or its constant parameters when they never change on the grid.
    /// Keyframe parameters that are not finite (a value that overflowed between frames) are the
    /// problem the JSON response gives for such a value (`RenderResponse.problem`).
    mutating func fit(_ target: LottieTarget, tolerance: Double? = nil) throws(Problem) -> Fit {
        if let sole = soleBlock(target, tolerance: tolerance ?? self.tolerance) { return .keyframes(sole.keyframes) }
        let first = target.sample(grid[0]).parameters
        if grid.allSatisfy({ target.sample($0).parameters == first }) { return .constant(first) }
        let fitTarget = self.fitTarget(target)
        let channels = target.channels.map { scene.channels[$0] }
        let pieces = LottieExactPieces.pieces(channels)
        let jumps = Array(Set(channels.flatMap(\.jumpTimes).filter { $0 > 0 && $0 < end })).sorted()
        let fit = try KeyframeFit(fitTarget, start: 0, end: end, tolerance: tolerance ?? self.tolerance, unitsPerSecond: fps,
                              breakpoints: breakpoints, exactPieces: pieces, gridIntervals: gridIntervals, jumps: jumps,
                              cancellation: cancellation).checked("a Lottie property")
        if let bad = fit.keyframes.first(where: { !$0.parameters.allSatisfy(\.isFinite) }) {
            throw problem(target, at: bad.time)
        }
        return .keyframes(fit.keyframes)
    }

    /// A target whose channels one block alone moves (`Scene.soleBlock(of:)`): the block's
    /// keyframes with their error bound (`KeyframeFit.init(soleBlock:…)`, docs/exports.md "A view
    /// one block alone moves"), a spring's `linear()` written as a keyframe per stop; nil for any
    /// other target, an easing Lottie cannot write (`steps()`), or a bound the keyframes miss.
    mutating func soleBlock(_ target: LottieTarget, tolerance: Double) -> KeyframeFit? {
        guard var piece = scene.soleBlock(of: target.channels) else { return nil }
        if case .curve(.steps) = piece.easing { return nil }
        let outputs = frames.map { target.sample($0).output }
        let fitTarget = self.fitTarget(target, outputs: outputs)
        guard let written = blockEasings.written(piece, ratio: BlockEasings.ratio(piece, fitTarget), tolerance: tolerance,
                                                 cancellation: cancellation) else { return nil }
        piece.written = written.easing
        let checks = zip(frames, outputs).map { (time: $0, output: $1) }
        return KeyframeFit(soleBlock: piece, target: fitTarget, start: 0, end: end, tolerance: tolerance, unitsPerSecond: fps,
                           easingError: written.error, checks: checks, expandsLinear: true)
    }

    /// The target as a fit sees it: its components' error scales over the frames (`outputs`, its
    /// compared components there, when the caller has them).
    func fitTarget(_ target: LottieTarget, outputs: [[Double]]? = nil) -> FitTarget {
        let scale = errorScale(outputs ?? frames.map { target.sample($0).output })
        var fitTarget = FitTarget(sample: target.sample, interpolate: target.interpolate, scale: scale,
                                  parameterTolerance: target.parameterTolerance(scale))
        fitTarget.mixSlope = target.mixSlope
        return fitTarget
    }

    /// The fill colour's keyframes, every component within [0, 1] as lottie-spec "Color" requires.
    /// Keyframes may sit off the curve by up to the tolerance (`KeyframeFit`, step 3), so a colour
    /// that nears 0 or 1 can come out just beyond; it is then fitted again, drawn inwards by ε =
    /// tolerance / 2 (`LottieTargets.color`) within tolerance / 2: its keyframes stay in [0, 1]
    /// and the colour shown is within ε + tolerance / 2 = tolerance of Segue's, as rule 26 asks.
    /// (The colour's error unit is 1: its components lie in [0, 1], so their range is at most 1.)
    mutating func fitColor(_ channel: Int) throws(Problem) -> Fit {
        let fitted = try fit(LottieTargets.color(channel, scene))
        guard case .keyframes(let keyframes) = fitted,
              keyframes.contains(where: { $0.parameters.contains { !(0...1).contains($0) } }) else { return fitted }
        return try fit(LottieTargets.color(channel, scene, inset: tolerance / 2), tolerance: tolerance / 2)
    }

    /// Per compared component: max(1, max − min over the frames) (docs/rules.md rule 26), from
    /// the compared components at the frames.
    func errorScale(_ outputs: [[Double]]) -> [Double] {
        let count = outputs.first?.count ?? 0
        return (0..<count).map { c in
            guard let low = outputs.map({ $0[c] }).min(), let high = outputs.map({ $0[c] }).max() else { return 1 }
            return max(1, high - low)
        }
    }

    /// The 422 for a value of `target`'s channels that is not finite at t.
    func problem(_ target: LottieTarget, at t: Double) -> Problem {
        let ids = scene.animators.map(\.id)
        for channel in target.channels {
            do throws(SceneError) {
                _ = try scene.finiteValue(channel, at: t)
            } catch {
                return Problem(error, ids: ids)
            }
        }
        let channel = scene.channels[target.channels.first ?? 0]
        return Problem(SceneError.nonFinite(view: channel.view, channel: channel.name, t: t), ids: ids)
    }
}

/// The composition's size and the origin of its coordinates (docs/rules.md rule 29): the preset's
/// `container` [x, y, w, h] when the request has one, else the union of every placed view's
/// rectangle (centre ± size / 2, the transform left out) over the frames; w and h are whole
/// numbers (lottie-spec "Animation": integers), rounded up, at least 1. Layer positions are
/// relative to (x, y).
struct LottieCanvas: Sendable {
    var x: Double, y: Double
    var w: Int, h: Int

    init(_ request: RenderRequest, views: [ViewChannels]) {
        if let container = request.container {
            (x, y) = (container.x, container.y)
            (w, h) = (Self.whole(container.w), Self.whole(container.h))
            return
        }
        var low = (x: Double.infinity, y: Double.infinity), high = (x: -Double.infinity, y: -Double.infinity)
        for view in views where view.isPlaced {
            for t in request.times {
                let c = view.centre(request.scene, at: t), s = view.size(request.scene, at: t)
                low = (min(low.x, c.x - abs(s.w) / 2), min(low.y, c.y - abs(s.h) / 2))
                high = (max(high.x, c.x + abs(s.w) / 2), max(high.y, c.y + abs(s.h) / 2))
            }
        }
        guard low.x <= high.x, low.y <= high.y else {
            (x, y, w, h) = (0, 0, 1, 1)
            return
        }
        (x, y) = (low.x, low.y)
        (w, h) = (Self.whole(high.x - low.x), Self.whole(high.y - low.y))
    }

    static func whole(_ length: Double) -> Int {
        Int(max(1, min(length.rounded(.up), 1e15)))
    }
}
