/// The continuous check of a keyframe fit (docs/exports.md "Fitting", step 4): the largest error
/// between two keyframes over continuous time, and the splitting that brings every piece under a
/// bound.
///
/// The error of the piece from keyframe a to keyframe b at time t is
/// max over components c of |interpolate(a, b, E((t − t_a)/(t_b − t_a)))_c − truth(t)_c| / scale_c,
/// E being a's easing: the value the target shows against Segue's, in units of the error rule.
/// Its maximum over (t_a, t_b) is found by a scan of `scanDensity` points per grid interval (at
/// least `minimumScan`), then a golden-section search of `refinementSteps` steps on the two scan
/// intervals around the largest scanned error. A piece with no smooth maximum inside a scan
/// interval (a jump) is caught by the scan itself.
struct SegmentError: Sendable {
    /// Scan points per grid interval of the fit.
    static let scanDensity = 1.0
    static let minimumScan = 16
    static let maximumScan = 4096
    static let refinementSteps = 40
    /// Keyframes at most, per grid interval: a pathological truth (noise) stops the splitting
    /// at 2 × the grid's intervals.
    static let keyframesPerInterval = 2
    var keyframeLimit: Int { Self.keyframesPerInterval * gridIntervals + 64 }

    let target: FitTarget
    let tolerance: Double
    let window: Double
    let gridIntervals: Int
    /// The truth at the scan points of each piece checked so far (`ScanMemo`).
    let memo = ScanMemo()
    /// Once raised, every piece measures 0 without being scanned, so that the splitting and the
    /// rounding end at once; the fit then reports itself cancelled (`KeyframeFit.wasCancelled`).
    let cancellation: WorkCancellation?
    /// Known jump times, sorted (`KeyframeFit`'s `jumps`).
    let jumps: [Double]

    init(target: FitTarget, tolerance: Double, window: Double, gridIntervals: Int, jumps: [Double] = [],
         cancellation: WorkCancellation? = nil) {
        self.target = target
        self.tolerance = tolerance
        self.window = window
        self.gridIntervals = gridIntervals
        self.jumps = jumps.sorted()
        self.cancellation = cancellation
    }

    /// Whether t is one of the known jump times.
    func isJump(_ t: Double) -> Bool {
        var low = 0, high = jumps.count
        while low < high {
            let middle = (low + high) / 2
            if jumps[middle] < t { low = middle + 1 } else { high = middle }
        }
        return low < jumps.count && jumps[low] == t
    }

    /// The error at t of the piece from a to b, in units of `scale` (not of the tolerance).
    func error(_ a: Keyframe, _ b: Keyframe, at t: Double) -> Double {
        if let scalar = target.scalar { return scalarError(a, b, at: t, truth: scalar.value(t), linear: a.easing.isLinear) }
        return error(a, b, at: t, truth: target.sample(t).output[...], linear: a.easing.isLinear)
    }

    /// The error at t given the truth there; `linear` tells whether a's easing is linear (read
    /// once per piece: the easing's enum is large to copy at every point).
    func error(_ a: Keyframe, _ b: Keyframe, at t: Double, truth: ArraySlice<Double>, linear: Bool) -> Double {
        if target.scalar != nil { return scalarError(a, b, at: t, truth: truth[truth.startIndex], linear: linear) }
        let u = (t - a.time) / (b.time - a.time)
        let shown = target.interpolate(a.parameters, b.parameters, linear ? u : a.easing.progress(u))
        var worst = 0.0
        for (c, component) in truth.enumerated() where c < shown.count {
            let e = abs(shown[c] - component) / target.scale[c]
            if !(e <= worst) { worst = e.isNaN ? .infinity : e }
        }
        return worst
    }

    /// `error` of a scalar target (`FitTarget.scalar`): its one component mixed linearly, the
    /// same arithmetic as `FitTarget.linear`'s mix without its arrays.
    private func scalarError(_ a: Keyframe, _ b: Keyframe, at t: Double, truth: Double, linear: Bool) -> Double {
        let u = (t - a.time) / (b.time - a.time)
        let from = a.parameters[0]
        let shown = from + (b.parameters[0] - from) * (linear ? u : a.easing.progress(u))
        let e = abs(shown - truth) / target.scale[0]
        return e.isNaN ? .infinity : e
    }

    /// The reported components at each of `times`, one time's after another.
    func truths(at times: [Double]) -> [Double] {
        if let scalar = target.scalar { return scalar.column(times) }
        var truths: [Double] = []
        for t in times { truths += target.sample(t).output }
        return truths
    }

    /// The largest error of the piece a → b over (t_a, t_b), and where: measured once per piece
    /// (the rounding checks a piece again whenever a neighbour's digits change).
    func worst(_ a: Keyframe, _ b: Keyframe) -> (t: Double, error: Double) {
        if cancellation?.isCancelled == true { return (a.time, 0) }
        return memo.worst(a, b) { measured(a, b) }
    }

    /// `worst`, measured.
    private func measured(_ a: Keyframe, _ b: Keyframe) -> (t: Double, error: Double) {
        let width = b.time - a.time
        guard width > 0 else { return (a.time, 0) }
        let intervals = width / window * Double(gridIntervals) * Self.scanDensity
        let n = min(Self.maximumScan, max(Self.minimumScan, Int(intervals.rounded(.up))))
        var best = (t: a.time, error: 0.0), bestIndex = 0
        let truths = memo.truths(from: a.time, to: b.time, points: n, truths)
        let stride = truths.count / (n - 1), linear = a.easing.isLinear
        for k in 1..<n {
            let t = a.time + width * Double(k) / Double(n)
            let e = error(a, b, at: t, truth: truths[stride * (k - 1) ..< stride * k], linear: linear)
            if e > best.error { best = (t, e); bestIndex = k }
        }
        guard bestIndex > 0 else { return best }
        // Golden-section search for the maximum on the two scan intervals around the best point.
        var low = a.time + width * Double(bestIndex - 1) / Double(n)
        var high = a.time + width * Double(bestIndex + 1) / Double(n)
        let ratio = (5.0.squareRoot() - 1) / 2
        var x1 = high - ratio * (high - low), x2 = low + ratio * (high - low)
        var e1 = error(a, b, at: x1), e2 = error(a, b, at: x2)
        for _ in 0..<Self.refinementSteps {
            if e1 > e2 {
                high = x2; x2 = x1; e2 = e1
                x1 = high - ratio * (high - low); e1 = error(a, b, at: x1)
            } else {
                low = x1; x1 = x2; e1 = e2
                x2 = low + ratio * (high - low); e2 = error(a, b, at: x2)
            }
        }
        if e1 > best.error { best = (x1, e1) }
        if e2 > best.error { best = (x2, e2) }
        return best
    }

    /// The largest error of the whole fit.
    func maxError(_ knots: [Keyframe]) -> Double {
        var worstError = 0.0
        for k in knots.indices.dropLast() { worstError = max(worstError, worst(knots[k], knots[k + 1]).error) }
        return worstError
    }

    /// Whether the whole fit stays within `bound`, stopping at the first piece over it.
    func holds(_ knots: [Keyframe], within bound: Double) -> Bool {
        knots.indices.dropLast().allSatisfy { worst(knots[$0], knots[$0 + 1]).error <= bound }
    }

    /// Splits every piece whose largest error is over `bound` × tolerance at its worst point; a
    /// piece narrower than `KeyframeFit.jumpWidth` of the window that is still over it holds a
    /// jump: its first keyframe moves onto its end, so two keyframes share that time, holding the value
    /// before the jump and the value after it.
    func refined(_ knots: [Keyframe], bound: Double) -> [Keyframe] {
        var result: [Keyframe] = [knots[0]]
        var pending = Array(knots.dropFirst().reversed())
        let limit = bound * tolerance
        while let next = pending.last {
            let previous = result[result.count - 1]
            let found = worst(previous, next)
            guard found.error > limit, result.count + pending.count < keyframeLimit else {
                result.append(pending.removeLast())
                continue
            }
            if next.time - previous.time <= KeyframeFit.jumpWidth * window {
                // The previous keyframe moves onto the jump, holding the value before it (the
                // window's first keyframe stays, and a copy moves).
                result[result.count - 1].easing = .linear
                if result.count == 1 { result.append(previous) }
                result[result.count - 1].time = next.time
                // The keyframe after the jump holds the value there: one the greedy pass set off
                // the curve could carry an error of its own that no split removes.
                var after = pending.removeLast()
                after.parameters = target.sample(after.time).parameters
                result.append(after)
                continue
            }
            result[result.count - 1].easing = .linear
            // A piece that ends at a known jump splits just before it, leaving a piece narrow enough to
            // become the jump pair on the next step; any other piece splits at its worst point.
            let narrow = KeyframeFit.jumpWidth * window / 2
            let split = isJump(next.time) && next.time - narrow > previous.time ? next.time - narrow : found.t
            pending.append(Keyframe(time: split, parameters: target.sample(split).parameters))
        }
        return result
    }
}

/// What the checks of one fit have measured, kept per piece. The rounding (`KeyframeRounding`)
/// checks the same pieces many times: a piece whose ends and easing did not change has the same
/// largest error, and one whose ends kept their times but not their values has the same truth at
/// its scan points. A fit and its checker run on one thread; the memo is never shared between
/// fits.
final class ScanMemo: @unchecked Sendable {
    private struct Piece: Hashable {
        var start: Double, end: Double, points: Int
    }

    /// Per piece, the truth at its scan points, one point's components after another.
    private var truths: [Piece: [Double]] = [:]

    /// A piece's ends: what its error depends on besides the easing.
    private struct Ends: Hashable {
        var start: Double, end: Double
        var from: [Double], to: [Double]
    }

    /// The largest errors found, by ends; the easings that gave them beside.
    private var worst: [Ends: [(easing: KeyframeEasing, result: (t: Double, error: Double))]] = [:]

    /// The largest error of the piece a → b, measured by `measure` the first time it is asked for.
    func worst(_ a: Keyframe, _ b: Keyframe, measure: () -> (t: Double, error: Double)) -> (t: Double, error: Double) {
        let key = Ends(start: a.time, end: b.time, from: a.parameters, to: b.parameters)
        if let known = worst[key]?.first(where: { $0.easing == a.easing }) { return known.result }
        let result = measure()
        worst[key, default: []].append((a.easing, result))
        return result
    }

    /// The truth at start + (end − start) · k / points for k = 1 … points − 1, read by `read`
    /// once per piece.
    func truths(from start: Double, to end: Double, points: Int, _ read: ([Double]) -> [Double]) -> [Double] {
        let key = Piece(start: start, end: end, points: points)
        if let known = truths[key] { return known }
        let span = end - start
        let values = read((1..<points).map { start + span * Double($0) / Double(points) })
        truths[key] = values
        return values
    }
}
