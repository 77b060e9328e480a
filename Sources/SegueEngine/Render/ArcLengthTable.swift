/// Arc length along the cubic spline of cubicPaced (docs/keyframes.md "cubicPaced"): the spline
/// traversed at constant speed, the point at time fraction t being the one whose arc length from
/// the start is t · L.
///
/// **Built once per track.** Each segment is cut into steps whose lengths are exact to the
/// quadrature tolerance, and whose speed |P′| is smooth inside:
/// 1. nodes at u = j/`uniformSteps` and at the speed's extrema (`SplineSpeed.extrema`, the roots of
///    d|P′|²/du: every zero of the speed and, in one dimension, every kink of |P′| is a node);
/// 2. each step is measured by 8-point Gauss–Legendre on its two halves; it is kept when the
///    4-point rule of the samples agrees with that on each half within `sampleRuleTolerance` ·
///    (its width) · (the segment's length) — else it is halved and both halves are tested again
///    (near a point where the speed almost vanishes, the steps shrink geometrically towards it),
///    at most `maxRefinements` times per segment;
/// 3. the table keeps each step's cumulative lengths (the halves' sum), its end speeds and a
///    bound of |s″| on it (`SplineSpeed.bend` at its ends).
///
/// **Per sample** (`locate`): the step holding s = t · L by binary search on the cumulative
/// lengths; a first guess where the cubic Hermite interpolant of s on the step (its end lengths and
/// speeds) reaches s; then Newton's method on s(u) − t · L with s′(u) = |P′(u)| inside the step as
/// bracket (bisection when a step would leave it), s(u) measured by one 4-point panel from the
/// step's nearer node. After a Newton step of Δu the residual is at most ½ · bend · Δu², so the
/// search stops as soon as that is within `newtonTolerance` · L — usually after one panel and one
/// speed.
///
/// **Error bound** (`tolerance`, tested in ArcLengthTableTests): the returned u has
/// |s(u) − t · L| ≤ 1e-12 · L, s being the exact arc length: the table's lengths are within
/// `sampleRuleTolerance` · L in all (each step within its share; the 8-point rule is in fact far
/// closer, its error being about the square of the 4-point rule's), the sample's local panel within
/// its step's share of `sampleRuleTolerance` · L, the Newton residual within `newtonTolerance` · L,
/// with room for rounding (measured: within about 1e-14 · L). The bound needs a segment not to use
/// up its `maxRefinements`, which only a segment whose speed nearly vanishes at three or more
/// points could; it then holds to about 1e-8.
///
/// Edge cases: no segments (fewer than two values) or a spline of no length (all values equal)
/// locate everything at (0, 0); t is clamped to [0, 1]; a segment of no length (equal values
/// with zero tangents) has steps of no length, which the search passes over (the later step
/// wins at equal lengths), except at the very end, where its start is returned (the same point);
/// two values make one straight segment of constant speed, where the guess is already exact; a
/// zero of the speed (a cusp, or a key with tension 1) is a node, and where Newton would divide by
/// a speed of 0 the bracket's bisection takes over.
struct ArcLengthTable: Sendable {
    /// A stretch [u0, u1] of one segment on which the speed is smooth.
    struct Step: Sendable, Equatable {
        var segment: Int
        var u0: Double, u1: Double
        /// Arc length from the spline's start to u0 and to u1.
        var s0: Double, s1: Double
        /// |P′| at u0 and u1.
        var v0: Double, v1: Double
        /// A bound of |s″| = |d|P′|/du| on the step: the larger |P″| of its ends.
        var bend: Double
    }

    /// Evenly spaced nodes per segment, before the extrema and the refinement.
    static let uniformSteps = 24
    /// Halvings allowed per segment: a point where the speed comes within 1e-7 of its scale takes
    /// about 60 (the steps shrink by halves on both sides until they are as short as the speed is
    /// small), so the cap allows two.
    static let maxRefinements = 128
    /// A half step's 4-point length against its 8-point one, relative to the step's width times
    /// the segment's length.
    static let sampleRuleTolerance = 1e-13
    /// Accepted |s(u) − t · L| of the search, relative to L.
    static let newtonTolerance = 1e-14
    /// The bound the samples keep: |s(u) − t · L| ≤ `tolerance` · L for the exact arc length s.
    static let tolerance = 1e-12
    /// Newton steps of the Hermite guess (a polynomial, no quadrature).
    static let guessIterations = 2
    /// Newton/bisection steps of one search: bisection alone reaches the last bit of u in fewer.
    static let maxIterations = 64

    let spline: [[SIMD4<Double>]]
    let steps: [Step]
    /// `steps[k].s0`, for the binary search.
    let starts: [Double]
    /// L.
    let total: Double

    init(_ spline: [[SIMD4<Double>]]) {
        var steps: [Step] = []
        var total = 0.0
        for (i, segment) in spline.enumerated() {
            // Each node's speed and bend, once: a step starts where the one before it ends.
            var end = (u: -1.0, speed: 0.0, bend: 0.0)
            for (u0, u1, length) in Self.measure(segment) {
                let start = end.u == u0 ? end : Self.node(segment, u0)
                end = Self.node(segment, u1)
                steps.append(
                    Step(
                        segment: i, u0: u0, u1: u1, s0: total, s1: total + length, v0: start.speed, v1: end.speed,
                        bend: max(start.bend, end.bend)))
                total += length
            }
        }
        self.spline = spline
        self.steps = steps
        self.starts = steps.map(\.s0)
        self.total = total
    }

    static func node(_ segment: [SIMD4<Double>], _ u: Double) -> (u: Double, speed: Double, bend: Double) {
        (u, SplineSpeed.speed(segment, u), SplineSpeed.bend(segment, u))
    }

    /// One segment's steps (u0, u1, length), in order, covering [0, 1]. A step's length is the
    /// 8-point rule on each half; the step is kept when the 4-point rule agrees with it on both
    /// halves within `sampleRuleTolerance` · (its width) · (the segment's length) — an embedded
    /// pair: the 8-point rule's error is then far smaller still — else it is halved.
    static func measure(_ segment: [SIMD4<Double>]) -> [(Double, Double, Double)] {
        let grid = (0...uniformSteps).map { Double($0) / Double(uniformSteps) }
        let nodes = Set(grid + SplineSpeed.extrema(segment)).sorted()
        // Pending steps, the next on top, each with its halves' 8-point lengths.
        var pending = zip(nodes, nodes.dropFirst()).reversed().map { halves(segment, $0, $1) }
        let scale = pending.reduce(0) { $0 + $1.left + $1.right }
        var measured: [(Double, Double, Double)] = []
        var refinements = 0
        while let (a, b, left, right) = pending.popLast() {
            let middle = 0.5 * (a + b)
            let allowed = sampleRuleTolerance * (b - a) * scale
            let exact =
                abs(SplineSpeed.integral(segment, a, middle, SplineSpeed.fourPoint) - left) <= allowed
                && abs(SplineSpeed.integral(segment, middle, b, SplineSpeed.fourPoint) - right) <= allowed
            if exact || refinements == maxRefinements || middle <= a || middle >= b {
                measured.append((a, b, left + right))
            } else {
                refinements += 1
                pending.append(halves(segment, middle, b))
                pending.append(halves(segment, a, middle))
            }
        }
        return measured
    }

    /// [a, b] with the 8-point lengths of its two halves.
    static func halves(_ segment: [SIMD4<Double>], _ a: Double, _ b: Double)
        -> (a: Double, b: Double, left: Double, right: Double)
    {
        let middle = 0.5 * (a + b)
        return (
            a, b, SplineSpeed.integral(segment, a, middle, SplineSpeed.eightPoint),
            SplineSpeed.integral(segment, middle, b, SplineSpeed.eightPoint)
        )
    }

    /// The segment and its parameter u at arc length t · L (t clamped to [0, 1]); (0, 0) without
    /// a length.
    func locate(_ t: Double) -> (segment: Int, u: Double) {
        guard total > 0, !steps.isEmpty else { return (0, 0) }
        let target = min(max(t, 0), 1) * total
        let step = steps[KeyframeTrack.lastIndex(in: starts, upTo: steps.count - 1, atOrBefore: target)]
        guard step.s1 > step.s0 else { return (step.segment, step.u0) }
        let segment = spline[step.segment]
        let accepted = Self.newtonTolerance * total
        var low = step.u0, high = step.u1
        var u = low + (high - low) * Self.hermiteGuess(step, target)
        for _ in 0..<Self.maxIterations {
            let error = Self.length(at: u, on: step, segment) - target
            if abs(error) <= accepted { break }
            if error < 0 { low = u } else { high = u }
            let delta = -error / SplineSpeed.speed(segment, u)
            if u + delta > low && u + delta < high {
                u += delta
                // s(u + Δ) − t·L = ½ s″(ξ) Δ² (Taylor), |s″| ≤ bend on the step.
                if 0.5 * step.bend * delta * delta <= accepted { break }
            } else {
                let middle = 0.5 * (low + high)
                if middle <= low || middle >= high { break }
                u = middle
            }
        }
        return (step.segment, u)
    }

    /// s(u) for u in the step: its nearer node's length plus or minus one 4-point panel.
    static func length(at u: Double, on step: Step, _ segment: [SIMD4<Double>]) -> Double {
        if u - step.u0 <= step.u1 - u {
            return step.s0 + SplineSpeed.integral(segment, step.u0, u, SplineSpeed.fourPoint)
        }
        return step.s1 - SplineSpeed.integral(segment, u, step.u1, SplineSpeed.fourPoint)
    }

    /// The fraction x ∈ [0, 1] of the step where the cubic Hermite interpolant of s — the end
    /// lengths s0, s1 and slopes h·v0, h·v1 over the step's width h — reaches `target`, by a few
    /// Newton steps on that cubic from the chord's answer (kept if the cubic is not increasing).
    static func hermiteGuess(_ step: Step, _ target: Double) -> Double {
        let width = step.u1 - step.u0, rise = step.s1 - step.s0
        let a = width * step.v0, b = width * step.v1
        // S(x) − s0 = (a + b − 2·rise)x³ + (3·rise − 2a − b)x² + a·x
        let c3 = a + b - 2 * rise, c2 = 3 * rise - 2 * a - b
        let goal = target - step.s0
        var x = goal / rise
        for _ in 0..<guessIterations {
            let slope = (3 * c3 * x + 2 * c2) * x + a
            guard slope > 0 else { break }
            x = min(max(x - (((c3 * x + c2) * x + a) * x - goal) / slope, 0), 1)
        }
        return x
    }
}
