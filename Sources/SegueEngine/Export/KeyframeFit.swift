/// The fewest keyframes that a web target (a CSS `linear()` easing, CSS or Web Animations
/// keyframes, Lottie keyframes) needs to follow a Segue value within a stated error over
/// continuous time (docs/exports.md "The error rule" and "Fitting").
///
/// The problem is given as a `FitTarget`: what Segue reports at t (the truth), the keyframe
/// parameters at t (what a keyframe at t would hold: a transform's decomposed functions, a
/// colour's components, a plain number), and how the target interpolates two keyframes (a linear
/// mix of parameters turned into the reported components).
///
/// The fit runs in five steps:
/// 1. a grid: `gridIntervals` even steps over the window, plus every breakpoint the caller knows
///    (events, keyframe times, the ends of exact pieces);
/// 2. exact pieces: an interval over which the truth is `from + (to − from) · E(u)` for a block's
///    easing E (a Bézier, steps, `linear()`, a spring) is kept as one keyframe pair with the
///    easing the target writes for E, when the grid confirms E to `exactPieceSlack`;
/// 3. the greedy furthest reach (`SlopeWindow`) over the grid in parameter space, each piece
///    as long as every grid point between its ends stays within its parameter tolerance;
/// 4. the continuous check (`SegmentError`): each piece's largest error between its ends is found
///    by a dense scan and a golden-section refinement, and a piece over the bound is split at its
///    worst point — down to a jump, where two keyframes share one time;
/// 5. the fewest digits (`KeyframeRounding`): times and parameters rounded to the fewest decimals
///    for which the check of step 4 still holds.
///
/// Edge cases: an empty or reversed window gives one keyframe; a constant value two; values are
/// right-hand (a keyframe at a jump time holds the value after the jump, preceded by one holding
/// the value before it).
public struct KeyframeFit: Sendable {
    /// Grid steps over the window for the greedy pass, unless the caller gives its own (a
    /// breakpoint adds a grid point).
    public static let gridIntervals = 16384
    /// Share of the bound the greedy pass and the splitting aim for, leaving the rest to rounding.
    static let fitShare = 0.97
    /// Share of that the greedy pass gives to the grid points, leaving the rest to the error
    /// between them.
    static let gridShare = 0.95
    /// Relative agreement, on every grid point, that makes an interval an exact piece.
    static let exactPieceSlack = 1e-9
    /// A piece narrower than this share of the window that is still over the bound is a jump.
    static let jumpWidth = 1e-12

    public let keyframes: [Keyframe]
    /// The largest error found over continuous time, in units of `FitTarget.scale` per component
    /// (so comparable with the tolerance).
    public let maxError: Double
    public let tolerance: Double
    /// Whether the bound holds: false only when the truth moves faster than the grid resolves
    /// (a keyframe at every other grid point) or than `SegmentError.keyframeLimit` keyframes
    /// can follow — an oscillation of megahertz.
    public var meetsBound: Bool { maxError <= tolerance }
    /// Whether the caller's cancellation was raised during the fit: its keyframes are then
    /// unchecked and must not be used.
    public private(set) var wasCancelled = false
    /// Decimals of the keyframe positions (in the target's time unit) and of each parameter.
    public let timeDecimals: Int
    public let parameterDecimals: [Int]

    /// Fits `target` over [start, end] within `tolerance` × scale per component.
    /// - unitsPerSecond: the target's time unit (100 / window for CSS percentages, fps for Lottie
    ///   frames), in which keyframe positions are rounded.
    /// - endValue: parameters the last keyframe must hold (a `linear()` ending exactly at 1).
    /// - gridIntervals: the grid's even steps; more find fewer keyframes, at a cost linear in them.
    /// - jumps: times where the value may jump with no event there (a tick integrator's ticks):
    ///   grid points, and a piece over the bound that ends at one becomes a jump pair at once
    ///   instead of being halved down to it (`SegmentError.refined`).
    /// - cancellation: looked at before each piece is checked; once raised the fit ends at once
    ///   (`wasCancelled`).
    public init(_ target: FitTarget, start: Double, end: Double, tolerance: Double, unitsPerSecond: Double,
                breakpoints: [Double] = [], exactPieces: [ExactPiece] = [], endValue: [Double]? = nil,
                gridIntervals: Int = KeyframeFit.gridIntervals, jumps: [Double] = [], cancellation: WorkCancellation? = nil) {
        self.tolerance = tolerance
        defer { wasCancelled = cancellation?.isCancelled == true }
        guard end > start else {
            keyframes = [Keyframe(time: start, parameters: target.sample(start).parameters)]
            maxError = 0
            timeDecimals = 0
            parameterDecimals = Array(repeating: 0, count: keyframes[0].parameters.count)
            return
        }
        let grid = Self.grid(start: start, end: end, intervals: gridIntervals,
                             breakpoints: breakpoints + jumps + exactPieces.flatMap { [$0.start, $0.end] })
        let samples = GridSamples(target, at: grid)
        if samples.isConstant {
            // Constant on the grid: two keyframes, checked like any fit (a blip between grid
            // points still shows in the check).
            let checker = SegmentError(target: target, tolerance: tolerance, window: end - start, gridIntervals: gridIntervals,
                                       jumps: jumps, cancellation: cancellation)
            let ends = [Keyframe(time: start, parameters: samples.row(0)), Keyframe(time: end, parameters: samples.row(0))]
            let knots = checker.refined(ends, bound: 1)
            keyframes = knots.map { var k = $0; k.position = KeyframeRounding.round(($0.time - start) * unitsPerSecond, decimals: KeyframeRounding.endDecimals); return k }
            maxError = checker.maxError(keyframes)
            timeDecimals = 0
            parameterDecimals = Array(repeating: KeyframeRounding.maximumDecimals + 1, count: samples.width)
            return
        }
        let pieces = Self.confirmed(exactPieces, target: target, grid: grid, samples: samples)
        var knots = SlopeWindow.knots(grid: grid, samples: samples, fixed: pieces,
                                      tolerance: target.parameterTolerance.map { $0 * tolerance * Self.fitShare * Self.gridShare })
        if let endValue { knots[knots.count - 1].parameters = endValue }
        let checker = SegmentError(target: target, tolerance: tolerance, window: end - start, gridIntervals: gridIntervals,
                                   jumps: jumps, cancellation: cancellation)
        guard knots.count <= gridIntervals / 2 else {
            // A keyframe at every other grid point: the value moves faster than the grid resolves,
            // and no split will follow it. The fit stands as it is, its error measured.
            keyframes = knots
            maxError = max(checker.maxError(knots), tolerance.nextUp)
            timeDecimals = KeyframeRounding.maximumDecimals + 1
            parameterDecimals = Array(repeating: timeDecimals, count: knots[0].parameters.count)
            return
        }
        knots = checker.refined(knots, bound: Self.fitShare)
        let rounding = KeyframeRounding(target: target, checker: checker, start: start, end: end,
                                        unitsPerSecond: unitsPerSecond)
        let rounded = rounding.fewestDigits(knots)
        keyframes = rounded.keyframes
        timeDecimals = rounded.timeDecimals
        parameterDecimals = rounded.parameterDecimals
        maxError = checker.maxError(keyframes)
    }

    /// A fit whose keyframes and error are known without the steps above (`init(soleBlock:…)`).
    init(keyframes: [Keyframe], maxError: Double, tolerance: Double, timeDecimals: Int, parameterDecimals: [Int]) {
        self.keyframes = keyframes
        self.maxError = maxError
        self.tolerance = tolerance
        self.timeDecimals = timeDecimals
        self.parameterDecimals = parameterDecimals
    }

    /// The keyframes of the greedy pass alone at the full tolerance on a grid `minimumRefinement`
    /// times finer, with nothing held back for rounding or for the error between grid points: a
    /// count no fit that meets the bound can beat by much, the yardstick of docs/exports.md
    /// ("How few keyframes").
    public static func greedyMinimum(_ target: FitTarget, start: Double, end: Double, tolerance: Double) -> Int {
        let n = Self.gridIntervals * minimumRefinement
        let grid = (0...n).map { start + (end - start) * Double($0) / Double(n) }
        return SlopeWindow.knots(grid: grid, samples: GridSamples(target, at: grid), fixed: [],
                                 tolerance: target.parameterTolerance.map { $0 * tolerance }).count
    }

    static let minimumRefinement = 4

    /// Sorted, distinct grid times: even steps plus the breakpoints inside the window.
    public static func grid(start: Double, end: Double, intervals: Int, breakpoints: [Double]) -> [Double] {
        var times = (0...intervals).map { start + (end - start) * Double($0) / Double(intervals) }
        times[intervals] = end
        times += breakpoints.filter { $0 > start && $0 < end }
        times.sort()
        // Times closer than `jumpWidth` of the window are one grid point: a breakpoint one ulp off
        // an even step would make a piece too narrow to check.
        let closest = jumpWidth * (end - start)
        var distinct: [Double] = []
        distinct.reserveCapacity(times.count)
        for t in times where distinct.last.map({ t - $0 > closest }) ?? true { distinct.append(t) }
        if let last = distinct.last, last != end { distinct[distinct.count - 1] = end }
        return distinct
    }

    /// The exact pieces the grid confirms: every grid point inside agrees with the eased mix of
    /// the values at the piece's ends to `exactPieceSlack` × scale; overlapping pieces are dropped.
    static func confirmed(_ pieces: [ExactPiece], target: FitTarget, grid: [Double], samples: GridSamples) -> [ExactPiece] {
        var kept: [ExactPiece] = []
        for piece in pieces.sorted(by: { $0.start < $1.start }) where piece.end > piece.start {
            if let last = kept.last, piece.start < last.end { continue }
            // The eased mix runs to the value at the end (steps jump there at u = 1).
            let from = target.sample(piece.start).parameters, to = target.sample(piece.end).parameters
            let agrees = grid.indices.allSatisfy { k in
                let t = grid[k]
                guard t > piece.start && t < piece.end else { return true }
                let mixed = target.interpolate(from, to, piece.easing.progress((t - piece.start) / (piece.end - piece.start)))
                let truth = samples.output(k)
                return mixed.indices.allSatisfy { abs(mixed[$0] - truth[$0]) <= exactPieceSlack * target.scale[$0] }
            }
            if agrees { kept.append(piece) }
        }
        return kept
    }
}

/// One keyframe: a time (seconds), the parameters the target stores, and the easing from it to the
/// next keyframe (linear unless an exact piece starts here).
public struct Keyframe: Sendable, Equatable {
    public var time: Double
    /// The time in the target's unit from the window's start, as it is to be printed (set by the
    /// rounding: the rounded decimal, or the exact conversion for a jump and the window's ends).
    public var position: Double = 0
    public var parameters: [Double]
    public var easing: KeyframeEasing

    public init(time: Double, parameters: [Double], easing: KeyframeEasing = .linear) {
        self.time = time
        self.parameters = parameters
        self.easing = easing
    }
}

/// The easing between two keyframes: linear, or a curve CSS can write exactly.
public enum KeyframeEasing: Sendable, Equatable {
    case linear
    /// A curve over the unit interval: a Bézier, steps, `linear()` — what CSS writes.
    case curve(TimingCurve)
    /// A curve that runs in seconds (a spring) played over `duration` seconds: at fraction u, its
    /// progress at u · duration. No web target writes it as it is; an export writes an
    /// approximation in its place (`ExactPiece.written`).
    case timed(TimingCurve, duration: Double)

    public var isLinear: Bool {
        if case .linear = self { return true }
        return false
    }

    /// Eased fraction of an interval at fraction u in [0, 1].
    public func progress(_ u: Double) -> Double {
        switch self {
        case .linear: u
        case .curve(let curve): curve.sample(at: u, duration: 1).progress
        case .timed(let curve, let duration): curve.sample(at: u * duration, duration: duration).progress
        }
    }
}

/// An interval over which Segue's value is `from + (to − from) · easing((t − start)/(end − start))`:
/// a block animation with a CSS-expressible timing and nothing else moving the channel.
///
/// `easing` is the block's own timing, which the values confirm; `written` is what the target
/// plays over the piece — the same where the target has an exact form, else an approximation of
/// it (a spring's `linear()`), whose error the fit's continuous check measures like any other.
public struct ExactPiece: Sendable, Equatable {
    public var start: Double, end: Double
    public var easing: KeyframeEasing
    public var written: KeyframeEasing

    public init(start: Double, end: Double, easing: KeyframeEasing, written: KeyframeEasing? = nil) {
        self.start = start
        self.end = end
        self.easing = easing
        self.written = written ?? easing
    }
}

/// What a fit approximates, and how the target reads keyframes.
public struct FitTarget: Sendable {
    /// At time t (right-hand): the keyframe parameters and Segue's reported components.
    public var sample: @Sendable (Double) -> (parameters: [Double], output: [Double])
    /// The target's reported components between keyframes holding `a` and `b`, at eased fraction u.
    public var interpolate: @Sendable ([Double], [Double], Double) -> [Double]
    /// Per reported component: the unit of the error, max(1, range) (docs/exports.md "The error rule").
    public var scale: [Double]
    /// Per parameter: its greedy tolerance per unit of `tolerance` (for parameters that are the
    /// reported components, their `scale`).
    public var parameterTolerance: [Double]
    /// Per reported component, when the target knows it in closed form: the largest
    /// |d/dq interpolate(a, b, q)| over every q — |b − a| where the mix is linear (clamping only
    /// lowers it). nil for a mix that bends (a transform's angle), whose slope is read numerically
    /// (`KeyframeFit.slopeBound`).
    public var mixSlope: (@Sendable ([Double], [Double]) -> [Double])?
    /// For a target of one component that is its own parameter, mixed linearly (a `linear()`
    /// easing's progress): how to read it as numbers (`scalar(scale:_:column:)`).
    public var scalar: ScalarForm?

    /// A one-component target read as numbers: its value at t, the same one `sample` gives, and
    /// its values at many times at once. The fit's grid and its continuous check read the truth
    /// through them without building arrays per time.
    public struct ScalarForm: Sendable {
        public var value: @Sendable (Double) -> Double
        public var column: @Sendable ([Double]) -> [Double]
    }

    public init(sample: @escaping @Sendable (Double) -> (parameters: [Double], output: [Double]),
                interpolate: @escaping @Sendable ([Double], [Double], Double) -> [Double],
                scale: [Double], parameterTolerance: [Double]) {
        self.sample = sample
        self.interpolate = interpolate
        self.scale = scale
        self.parameterTolerance = parameterTolerance
    }

    /// Parameters that are the reported components, mixed linearly (numbers, lengths, a `linear()`
    /// easing's progress).
    public static func linear(scale: [Double], _ value: @escaping @Sendable (Double) -> [Double]) -> FitTarget {
        var target = FitTarget(sample: { t in let v = value(t); return (v, v) },
                               interpolate: { a, b, u in zip(a, b).map { $0 + ($1 - $0) * u } },
                               scale: scale, parameterTolerance: scale)
        target.mixSlope = { a, b in zip(a, b).map { abs($1 - $0) } }
        return target
    }

    /// One number mixed linearly, its error in units of `scale`: `linear(scale:_:)` of that one
    /// component, with its scalar form; `column` reads it at many times at once (by default
    /// `value` at each).
    public static func scalar(scale: Double, _ value: @escaping @Sendable (Double) -> Double,
                              column: (@Sendable ([Double]) -> [Double])? = nil) -> FitTarget {
        var target = linear(scale: [scale]) { [value($0)] }
        target.scalar = ScalarForm(value: value, column: column ?? { $0.map(value) })
        return target
    }
}
