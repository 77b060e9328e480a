/// The UIViewPropertyAnimator behind one block animation, replayed from its commands
/// (docs/rules.md "Animations", "Commands", "Interaction"; rules 1, 8, 13–19).
///
/// The animator keeps a time fraction f from the start values (0) to the end values (1) in both
/// directions, and a progress p that the animation's channels show (value = from + Δ · p for a
/// `to`; a keyframe track evaluated at p). The rules, each with the UIKit documentation it rests on:
///
/// - States `inactive`, `running` (`active` and running), `paused` (`active`, not running) and
///   `stopped`, with the commands each accepts (rule 13). "The animator must be in the
///   UIViewAnimatingState.stopped state" to `finishAnimation(at:)`; `stopAnimation(_:)` on an
///   inactive animator is a programmer error; `continueAnimation` is "only valid while paused"
///   (UIViewImplicitlyAnimating). `start` while running and `pause` while paused change nothing.
/// - Running, f changes at ±1 / duration and p = timing(f), so reversing retraces the curve
///   (rule 14; `isReversed`: "the animator runs … in the reverse direction, returning the
///   animations to their initial state").
/// - Scrubbed while paused (`fraction`, an interaction's percent), p = f with `scrubsLinearly`
///   ("the animator uses linear interpolation … while scrubbing"), else timing(f); a `pause`
///   keeps the presented timing(f). On resume after a linear scrub the value continues from
///   timing(f) and the jump is reported (rule 14).
/// - `continue` "uses the new timing parameters to finish" from the presented values; without
///   timing the own curve resumes at f at speed 1 / durationFactor (rule 15).
/// - `addAnimations(_:delayFactor:)`: "the delay factor … multiplied by the remaining duration";
///   the block ends with the animator (rule 16).
/// - `stop(true)`: "the animator moves to the inactive state" with values left where they are and
///   no completion; `stop(false)` waits in `stopped` for `finish` (rule 17). `pausesOnCompletion`:
///   "the animator … does not transition to the inactive state" — reaching the end pauses.
/// - A start delay: running at fraction 0 contributing nothing; `pause` freezes what is left of
///   it; `fraction`, `stop`, `reverse` and `finish` cancel it (rule 8).
/// - At one instant: commands in order, then completions, then interaction releases (rule 1).
///
/// Time is an input: `init` replays the commands once into segments, pure in its inputs.
struct PropertyAnimator: Sendable {
    typealias State = AnimatorState

    enum Operation: Sendable {
        /// A command of the scene. Blocks `addAnimations` adds are numbered from 0 in the order
        /// they are added (their targets are the compiler's); the physics ops (`retarget`,
        /// `drag`) are allowed in no state, so they are refused naming it (rule 13).
        case command(SceneSpec.Operation)
        /// Interaction (rule 19): the percent the gesture or updates set; no event.
        case interactionUpdate(percent: Double)
        /// Interaction release: run to the end (finish) or back to the start (cancel) along
        /// `curve` at `speed`.
        case interactionRelease(finish: Bool, curve: TimingCurve, speed: Double)

        /// The command name used in `allowed` lists.
        var name: String {
            switch self {
            case .command(let operation): operation.name
            case .interactionUpdate, .interactionRelease: "interaction"
            }
        }
    }

    public struct Command: Sendable {
        public var at: Double
        /// The index in `commands`; nil for interaction steps.
        public var index: Int?
        public var operation: Operation

        public init(at: Double, index: Int?, operation: Operation) {
            self.at = at
            self.index = index
            self.operation = operation
        }
    }

    /// A command UIKit would reject in the animator's state (rule 13).
    public struct Rejection: Error, Sendable {
        public var command: Int
        public var operation: String
        public var state: State
        public var allowed: [String]
    }

    /// A resume that jumps from a linear scrub to the curve (rule 14).
    public struct Jump: Sendable {
        public var t: Double
        public var command: Int?
        public var from: Double, to: Double
    }

    /// What the channels show at an instant.
    public struct Sample: Sendable {
        /// Seconds into the run at speed 1 (τ = fraction · duration; the only measure of an
        /// unbounded repeat, whose fraction stays 0).
        var position: Double
        public var fraction: Double
        /// Progress along the animation (0 = from, 1 = to); `shown` overrides it when held at an end.
        public var progress: Double
        /// d(progress)/dt, per second.
        public var rate: Double
        public var shown: Shown
        /// Held by a linear scrub (`scrubsLinearly`): added blocks show their window linearly too.
        var linearScrub = false
    }

    public enum Shown: Sendable, Equatable {
        case progress
        /// Completed at the end: the model value exactly, also after repeats and autoreverses.
        case end
        /// Completed at the start (reversed, finished at start, or cancelled).
        case start
    }

    // MARK: Segments

    enum Course: Sendable {
        /// Still at run position τ (seconds at speed 1) showing `progress`.
        case held(position: Double, progress: Double, shown: Shown)
        /// Still after a linear scrub: progress = fraction (rule 14).
        case scrubbed(position: Double)
        /// τ = τ0 + speed · (t − t0), p = timing(τ); speed is ±1 / durationFactor.
        case running(position: Double, speed: Double)
        case gliding(Glide)
    }

    /// A run from the presented progress to an end along a handed-over curve (rule 15, 19).
    /// Plain numbers (the curve is an index into `curves`), so segments copy as bits.
    struct Glide: Sendable {
        var f0: Double, f1: Double, p0: Double, p1: Double
        var curve: Int
        var window: Double
        /// Seconds of the glide already run at the segment's start (a resumed glide).
        var elapsed: Double
        /// It left a linear scrub: added blocks glide on from their linear progress.
        var fromLinearScrub = false
    }

    struct Segment: Sendable {
        var t0: Double
        var state: State
        var reversed: Bool
        var contributing: Bool
        var course: Course
    }

    /// The animation's curve over its whole run, repeats included (rule 14's "timing").
    public let timing: ActiveTiming
    public let scrubsLinearly: Bool
    public let pausesOnCompletion: Bool
    private(set) var segments: [Segment] = []
    /// The curves glides follow.
    private(set) var curves: [TimingCurve] = []
    public private(set) var events: [AnimatorEvent] = []
    public private(set) var jumps: [Jump] = []
    /// A block added by `addAnimations`: when, the fraction its window starts at, and the run
    /// of the animator it belongs to.
    struct Block: Sendable {
        var addedAt: Double
        var delayFactor: Double
        /// Where its window starts: f + delayFactor · (1 − f) at the fraction f the animator moves
        /// from — at once on a running animator, else when it next moves (nil until then).
        var fromFraction: Double?
        var run: Int
    }

    private(set) var blocks: [Block] = []
    /// When each block first shows (see `blockStart`), worked out once.
    private var blockStarts: [Double?] = []
    /// When each run of the animator concluded (completion, `finish`, `stop(true)`): its blocks
    /// are done then and hold what they showed — UIKit removes an animator's animations when it
    /// returns to inactive; a later start runs only blocks added since, from fraction 0.
    private(set) var runEnds: [RunEnd] = []

    /// The end of a run: when, and what its blocks show from then on (nil when the animation
    /// never showed in that run).
    struct RunEnd: Sendable {
        var t: Double
        var last: Sample?
    }

    /// Seconds the whole run lasts at speed 1.
    var length: Double { timing.activeDuration }

    /// Replays `commands` (sorted by `at`, ties in order; validated by the caller) from the
    /// animator's first state: running from `autostart` after `delay`, paused at 0 when an
    /// interaction drives it (`interactive`), else inactive.
    public init(timing: ActiveTiming, delay: Double, autostart: Bool, interactive: Bool, scrubsLinearly: Bool,
                pausesOnCompletion: Bool, commands: [Command]) throws(Rejection) {
        self.timing = timing
        self.scrubsLinearly = scrubsLinearly
        self.pausesOnCompletion = pausesOnCompletion
        var machine = Machine(animator: self)
        if interactive {
            machine.pauseAt(0, command: nil)
        } else if autostart {
            machine.start(at: 0, delay: delay, command: nil)
        } else {
            machine.record(0)
        }
        for command in commands {
            try machine.apply(command)
        }
        machine.advance(to: .infinity, inclusive: true)
        segments = machine.segments
        curves = machine.curves
        events = machine.events
        jumps = machine.jumps
        blocks = machine.blocks
        runEnds = machine.runEnds
        blockStarts = blocks.indices.map(findBlockStart)
    }

    // MARK: Reading the timeline

    private func segmentIndex(at t: Double) -> Int {
        // The last segment starting at or before t (right-hand: a change at t counts).
        var low = 0, high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].t0 <= t { low = middle } else { high = middle - 1 }
        }
        return low
    }

    public func state(at t: Double) -> State { segments[segmentIndex(at: t)].state }
    public func reversed(at t: Double) -> Bool { segments[segmentIndex(at: t)].reversed }
    public func fraction(at t: Double) -> Double { sample(segments[segmentIndex(at: t)], at: t).fraction }

    /// When the animator stops changing (rule 2): the start of its last segment, or ∞ when it
    /// runs forever.
    public var settles: Double {
        guard let last = segments.last else { return 0 }
        switch last.course {
        case .held, .scrubbed: return last.t0
        case .running, .gliding: return .infinity
        }
    }

    /// The run when it is one forward pass that nothing interrupts — no repeat or autoreverse, no
    /// command, no added block, its curve not ignored: running at speed 1 from τ = 0 at `start`
    /// and held at its end from `start` + duration on (a delay before it shows nothing of the
    /// animation). nil for any other run.
    public var singlePass: (start: Double, end: Double)? {
        guard blocks.isEmpty, jumps.isEmpty, timing.repeatCount == 1, !timing.autoreverses, !timing.ignoresCurve else {
            return nil
        }
        let shown = segments.drop { !$0.contributing }
        guard shown.count == 2, let run = shown.first, let end = shown.last, !run.reversed, end.contributing,
              case .running(let tau0, let speed) = run.course, tau0 == 0, speed == 1,
              case .held(_, _, .end) = end.course, end.t0 == run.t0 + timing.duration else { return nil }
        return (run.t0, end.t0)
    }

    /// When the animation's own `to` first shows (its effective start); nil if it never does.
    public var contributionStart: Double? { segments.first(where: \.contributing)?.t0 }

    /// The main block's sample at t; nil before it contributes.
    public func sample(at t: Double) -> Sample? { sample(at: t, run: 0) }

    /// The animator's sample at t for a block of run `run`: frozen where that run concluded.
    func sample(at t: Double, run: Int) -> Sample? {
        if run < runEnds.count, t >= runEnds[run].t { return runEnds[run].last }
        let segment = segments[segmentIndex(at: t)]
        guard segment.contributing else { return nil }
        return sample(segment, at: t)
    }

    func sample(_ segment: Segment, at t: Double) -> Sample {
        Self.sample(segment, at: t, timing: timing, curves: curves)
    }

    static func sample(_ segment: Segment, at t: Double, timing: ActiveTiming, curves: [TimingCurve]) -> Sample {
        let length = timing.activeDuration
        // The time fraction at run position τ; 0 for an unbounded repeat (or a run of no length).
        func fraction(_ tau: Double) -> Double { length.isFinite && length > 0 ? tau / length : 0 }
        switch segment.course {
        case .held(let tau, let p, let shown):
            // An end shows its fraction exactly (also for a run of no length).
            let f = shown == .end ? 1 : (shown == .start ? 0 : fraction(tau))
            return Sample(position: tau, fraction: f, progress: p, rate: 0, shown: shown)
        case .scrubbed(let tau):
            let f = fraction(tau)
            return Sample(position: tau, fraction: f, progress: f, rate: 0, shown: .progress, linearScrub: true)
        case .running(let tau0, let speed):
            let tau = tau0 + speed * (t - segment.t0)
            let s = timing.sample(at: tau)
            return Sample(position: tau, fraction: fraction(tau), progress: s.progress, rate: s.velocity * speed, shown: .progress)
        case .gliding(let glide):
            let elapsed = glide.elapsed + (t - segment.t0)
            // An empty window (already at its end) has arrived.
            let s = glide.window > 0 ? curves[glide.curve].sample(at: elapsed, duration: glide.window)
                                     : (progress: 1.0, velocity: 0.0)
            let f = glide.f0 + (glide.f1 - glide.f0) * (glide.window > 0 ? min(1, elapsed / glide.window) : 1)
            return Sample(position: f * length, fraction: f, progress: glide.p0 + (glide.p1 - glide.p0) * s.progress,
                          rate: (glide.p1 - glide.p0) * s.velocity, shown: .progress)
        }
    }

    // MARK: Added blocks (rule 16)

    /// When added block `block` first shows: the first instant from its addition at which the
    /// animator's fraction reaches the block's window start; nil if it never does.
    public func blockStart(_ block: Int) -> Double? {
        blockStarts.indices.contains(block) ? blockStarts[block] : nil
    }

    private func findBlockStart(_ block: Int) -> Double? {
        let addedAt = blocks[block].addedAt, fs = blocks[block].fromFraction ?? .infinity
        // Within the block's run: a run that ended at an end shows the block's end from then.
        let end = blocks[block].run < runEnds.count ? runEnds[blocks[block].run] : nil
        var i = segmentIndex(at: addedAt)
        while i < segments.count, segments[i].t0 < end?.t ?? .infinity {
            let segment = segments[i]
            let from = max(segment.t0, addedAt)
            let to = i + 1 < segments.count ? segments[i + 1].t0 : Double.infinity
            if segment.contributing {
                switch segment.course {
                case .held(_, _, let shown):
                    // Completed: the block shows its end at once; paused or stopped: it waits
                    // for the animator to move (rule 16: the window begins when it resumes).
                    if shown != .progress { return from }
                    i += 1
                    continue
                case .scrubbed:
                    i += 1
                    continue
                case .running, .gliding:
                    break
                }
                let f = sample(segment, at: from).fraction
                if f >= fs { return from }
                switch segment.course {
                case .running(let tau0, let speed) where speed > 0:
                    let reach = segment.t0 + (fs * length - tau0) / speed
                    if reach < to { return max(from, reach) }
                case .gliding(let glide) where glide.f1 > glide.f0 && glide.window > 0:
                    let reach = segment.t0 + (fs - glide.f0) / (glide.f1 - glide.f0) * glide.window - glide.elapsed
                    if reach < to { return max(from, reach) }
                default:
                    break
                }
            }
            i += 1
        }
        guard let end, let shown = end.last?.shown, shown != .progress else { return nil }
        return max(end.t, addedAt)
    }

    /// Added block `block` at t: its progress follows the animator's curve over its own window of
    /// the fraction, [fs, 1] — linearly while the animator is scrubbed linearly (rule 14); in a
    /// glide (`continue` with timing, an interaction release) a block whose window had begun
    /// glides from what it showed to its end along the glide's curve, as the animation does
    /// (rule 15); held ends show the block's ends.
    public func blockSample(_ block: Int, at t: Double) -> Sample? {
        guard blocks.indices.contains(block), let main = sample(at: t, run: blocks[block].run) else { return nil }
        guard main.shown == .progress else { return main }
        let fs = blocks[block].fromFraction ?? 1
        let run = blocks[block].run
        let span = 1 - fs
        guard span > 0 else { return Sample(position: main.position, fraction: main.fraction, progress: 0, rate: 0, shown: .progress) }
        let ended = run < runEnds.count && t >= runEnds[run].t
        let segment = segments[segmentIndex(at: t)]
        func curve(_ x: Double) -> (progress: Double, velocity: Double) {
            timing.curve.sample(at: x * timing.duration, duration: timing.duration)
        }
        if !ended, case .gliding(let glide) = segment.course, glide.f0 >= fs {
            let x0 = (glide.f0 - fs) / span
            let q0 = glide.fromLinearScrub ? x0 : curve(x0).progress, q1 = glide.f1
            let elapsed = glide.elapsed + (t - segment.t0)
            let c = glide.window > 0 ? curves[glide.curve].sample(at: elapsed, duration: glide.window) : (progress: 1.0, velocity: 0.0)
            return Sample(position: main.position, fraction: main.fraction, progress: q0 + (q1 - q0) * c.progress,
                          rate: (q1 - q0) * c.velocity, shown: .progress)
        }
        let x = max(0, (main.fraction - fs) / span)
        let s = main.linearScrub ? (progress: x, velocity: 0.0) : curve(x)
        // d(fraction)/dt from the main block's course (0 once the block's run has ended).
        var fractionRate = 0.0
        switch segment.course {
        case _ where ended: break
        case .running(_, let speed): fractionRate = speed / length
        case .gliding(let glide) where glide.window > 0 && (t - segment.t0 + glide.elapsed) < glide.window:
            fractionRate = (glide.f1 - glide.f0) / glide.window
        default: break
        }
        // Right-hand: at the window's start a forward-moving animator already moves the block.
        let inside = main.fraction > fs || (main.fraction == fs && fractionRate > 0)
        let rate = inside ? s.velocity * timing.duration * fractionRate / span : 0
        return Sample(position: main.position, fraction: main.fraction, progress: s.progress, rate: rate, shown: .progress)
    }
}

// MARK: - The state machine

extension PropertyAnimator {
    /// The replay: the current state and course, appended to as commands arrive in time order.
    struct Machine {
        let timing: ActiveTiming
        let length: Double
        let scrubsLinearly: Bool
        let pausesOnCompletion: Bool

        var segments: [Segment] = []
        var curves: [TimingCurve] = []
        var events: [AnimatorEvent] = []
        var jumps: [Jump] = []
        var blocks: [Block] = []
        var runEnds: [RunEnd] = []
        /// The current run concluded: the next start, pause, scrub or added block opens a new one.
        var concluded = false
        /// Stopped or concluded once: an interaction no longer drives the animator.
        var letGo = false

        var state = State.inactive
        var reversed = false
        var contributing = false
        var course = Course.held(position: 0, progress: 0, shown: .progress)
        var courseStart = 0.0
        /// Running in a start delay until this time…
        var delayUntil: Double?
        /// …asked for by this command (nil for the autostart).
        var delayCommand: Int?
        /// Paused in a start delay with this much of it left.
        var delayLeft: Double?
        /// A `continue` handed the animator over to this curve (rule 15).
        var handedOver: (timing: ContinueTiming, factor: Double)?
        /// Speed factor of the own curve after a timing-less `continue`.
        var factor = 1.0
        /// The glide a plain `pause` interrupted, to resume as it was.
        var pausedGlide: Glide?

        init(animator: PropertyAnimator) {
            timing = animator.timing
            length = animator.timing.activeDuration
            scrubsLinearly = animator.scrubsLinearly
            pausesOnCompletion = animator.pausesOnCompletion
        }

        func now(_ t: Double) -> Sample {
            PropertyAnimator.sample(Segment(t0: courseStart, state: state, reversed: reversed, contributing: true, course: course),
                                    at: t, timing: timing, curves: curves)
        }

        mutating func record(_ t: Double) {
            courseStart = t
            let segment = Segment(t0: t, state: state, reversed: reversed, contributing: contributing, course: course)
            if let last = segments.last, last.t0 == t { segments[segments.count - 1] = segment } else { segments.append(segment) }
        }

        /// Records a state change; one at t = ∞ (the completion of an undamped spring's run)
        /// never happens and is not recorded.
        mutating func emit(_ t: Double, _ kind: AnimatorEvent.Kind, _ command: Int?, position: AnimatorEvent.Position? = nil,
                           withoutFinishing: Bool? = nil, reversed: Bool? = nil) {
            guard t.isFinite else { return }
            events.append(AnimatorEvent(t: t, kind: kind, command: command, position: position,
                                        withoutFinishing: withoutFinishing, reversed: reversed))
        }

        /// Holds what shows at t.
        mutating func hold(_ t: Double) {
            let s = now(t)
            course = s.linearScrub ? .scrubbed(position: s.position)
                                   : .held(position: s.position, progress: s.progress, shown: s.shown)
        }

        // MARK: Time passing

        /// Runs the clock to T: delays end and runs complete, strictly before T unless `inclusive`.
        mutating func advance(to T: Double, inclusive: Bool) {
            while state == .running {
                if let until = delayUntil {
                    guard until < T || (inclusive && until <= T) else { return }
                    delayUntil = nil
                    contributing = true
                    beginMotion(until, command: delayCommand)
                    continue
                }
                guard let end = motionEnd, end < T || (inclusive && end <= T) else { return }
                complete(at: end)
            }
        }

        /// When the current run or glide reaches its end; nil when it never does.
        var motionEnd: Double? {
            switch course {
            case .held, .scrubbed: return nil
            case .running(let tau0, let speed):
                let remaining = speed > 0 ? length - tau0 : tau0
                return courseStart + remaining / abs(speed)
            case .gliding(let glide):
                return courseStart + max(0, glide.window - glide.elapsed)
            }
        }

        mutating func complete(at t: Double) {
            let atEnd = !reversed
            if pausesOnCompletion {
                state = .paused
                course = .held(position: atEnd ? length : 0, progress: atEnd ? 1 : 0, shown: atEnd ? .end : .start)
                emit(t, .pause, nil)
            } else {
                state = .inactive
                course = .held(position: atEnd ? length : 0, progress: atEnd ? 1 : 0, shown: atEnd ? .end : .start)
                emit(t, .completion, nil, position: atEnd ? .end : .start)
                conclude(t)
            }
            record(t)
        }

        /// The run's animations are done (rule 17's inactive state): they hold from t on.
        mutating func conclude(_ t: Double) {
            runEnds.append(RunEnd(t: t, last: contributing ? now(t) : nil))
            letGo = true
            concluded = true
        }

        /// A concluded animator opened again starts a new run at fraction 0 (UIKit: an inactive
        /// animator's new animations run from the beginning).
        @discardableResult
        mutating func reopen(_ t: Double) -> Bool {
            guard concluded else { return false }
            concluded = false
            course = .held(position: 0, progress: 0, shown: .progress)
            courseStart = t
            return true
        }

        /// Sets the animator moving from what shows now: the own curve (after a linear scrub,
        /// jumping to the curve) or a glide along a handed-over curve.
        mutating func beginMotion(_ t: Double, command: Int?) {
            let s = now(t)
            let f = s.fraction
            if let (handed, handedFactor) = handedOver {
                if let glide = pausedGlide, glide.f1 == (reversed ? 0 : 1) {
                    course = .gliding(glide)  // a plain pause: the same glide resumes where it stopped
                } else {
                    course = .gliding(glide(from: s, toEnd: !reversed, timing: handed, factor: handedFactor))
                }
            } else {
                let curved = timing.sample(at: s.position).progress
                if s.shown == .progress, s.progress != curved, f > 0, f < 1 {
                    jumps.append(Jump(t: t, command: command, from: s.progress, to: curved))
                }
                course = .running(position: s.position, speed: (reversed ? -1 : 1) / factor)
            }
            placeWindows(from: f)
            record(t)
        }

        /// Places the windows of blocks added while the animator stood still, now that it moves
        /// from fraction f (rule 16).
        mutating func placeWindows(from f: Double) {
            for i in blocks.indices where blocks[i].fromFraction == nil && blocks[i].run == runEnds.count {
                blocks[i].fromFraction = f + blocks[i].delayFactor * (1 - f)
            }
        }

        /// A glide from what shows now to an end along a handed-over curve (rule 15).
        mutating func glide(from s: Sample, toEnd: Bool, timing handed: ContinueTiming, factor: Double) -> Glide {
            let remaining = toEnd ? 1 - s.fraction : s.fraction
            let window = remaining * length * factor
            let p1 = toEnd ? 1.0 : 0.0
            let curve: TimingCurve
            let span: Double
            switch handed {
            case .curve(let fractionCurve):
                curve = fractionCurve
                span = window
            case .durationSpring(let ratio, let given):
                // The current velocity divided by the remaining distance (rule 15).
                let distance = p1 - s.progress
                let v = given ?? (distance != 0 ? s.rate / distance : 0)
                let spring = Spring.uikit(dampingRatio: ratio, duration: window, initialVelocity: v).spring
                curve = .durationSpring(spring, duration: window)
                span = window
            case .spring(let spring):
                curve = .spring(spring)
                span = spring.settlingDuration
            }
            curves.append(curve)
            return Glide(f0: s.fraction, f1: p1, p0: s.progress, p1: p1, curve: curves.count - 1, window: span, elapsed: 0,
                         fromLinearScrub: s.linearScrub)
        }

        // MARK: Commands

        static func allowed(_ state: State) -> [String] {
            switch state {
            case .inactive: ["start", "pause", "fraction", "reverse", "addAnimations"]
            case .running: ["start", "pause", "stop", "reverse", "fraction", "addAnimations"]
            case .paused: ["start", "pause", "stop", "reverse", "fraction", "continue", "addAnimations"]
            case .stopped: ["finish"]
            }
        }

        /// One command or interaction step at its time, after what happened before it (rule 1);
        /// a command the state does not allow is refused (rule 13).
        mutating func apply(_ command: Command) throws(Rejection) {
            let t = command.at
            let i = command.index
            if case .interactionRelease = command.operation {
                advance(to: t, inclusive: true)  // releases come after completions (rule 1)
            } else {
                advance(to: t, inclusive: false)
            }
            if let i, !Self.allowed(state).contains(command.operation.name) {
                throw Rejection(command: i, operation: command.operation.name, state: state, allowed: Self.allowed(state))
            }
            switch command.operation {
            case .command(let operation):
                apply(operation, at: t, command: i)
            case .interactionUpdate(let percent):
                // The interaction drives a live animator; once stopped or concluded it lets go.
                guard !letGo else { return }
                setFraction(percent, at: t, command: nil)
            case .interactionRelease(let finish, let curve, let speed):
                guard !letGo else { return }
                release(finishing: finish, curve: curve, speed: speed, at: t)
            }
        }

        /// A command the state allows.
        mutating func apply(_ operation: SceneSpec.Operation, at t: Double, command i: Int?) {
            switch operation {
            case .start(let delay):
                guard state != .running else { return }
                reopen(t)
                start(at: t, delay: delay, command: i)
            case .pause:
                guard state != .paused else { return }
                reopen(t)
                pauseAt(t, command: i)
            case .stop(let withoutFinishing):
                stop(withoutFinishing: withoutFinishing, at: t, command: i)
            case .finish(let position):
                finish(at: position, time: t, command: i)
            case .reverse(let flag):
                guard flag != reversed else { return }
                reverse(to: flag, at: t, command: i)
            case .fraction(let value):
                reopen(t)
                setFraction(value, at: t, command: i)
            case .continue(let handed, let durationFactor):
                continueAnimation(handed, durationFactor: durationFactor, at: t, command: i)
            case .addAnimations(let delayFactor, _):
                addBlock(delayFactor: delayFactor, at: t, command: i)
            case .retarget, .drag:
                break  // refused before: no state allows them
            }
        }

        /// `stopAnimation(_:)` (rule 17): values stay; inactive without a completion, or stopped
        /// awaiting `finish`.
        mutating func stop(withoutFinishing: Bool, at t: Double, command i: Int?) {
            cancelDelay()
            pausedGlide = nil
            hold(t)
            state = withoutFinishing ? .inactive : .stopped
            letGo = true
            emit(t, .stop, i, withoutFinishing: withoutFinishing)
            if withoutFinishing { conclude(t) }
            record(t)
        }

        /// `finishAnimation(at:)`: the values jump to the position and the run completes.
        mutating func finish(at position: AnimatorEvent.Position, time t: Double, command i: Int?) {
            pausedGlide = nil
            switch position {
            case .end: course = .held(position: length, progress: 1, shown: .end)
            case .start: course = .held(position: 0, progress: 0, shown: .start)
            case .current: hold(t)
            }
            contributing = true
            state = .inactive
            emit(t, .completion, i, position: position)
            conclude(t)
            record(t)
        }

        /// `isReversed` (rule 14): a running animator retraces its curve from where it is.
        mutating func reverse(to flag: Bool, at t: Double, command i: Int?) {
            let wasDelayed = delayUntil != nil
            cancelDelay()
            reversed = flag
            pausedGlide = nil
            emit(t, .reverse, i, reversed: flag)
            if state == .running {
                if wasDelayed { contributing = true }
                beginMotion(t, command: i)
            } else {
                record(t)
            }
        }

        /// `continueAnimation(withTimingParameters:durationFactor:)` (rule 15).
        mutating func continueAnimation(_ handed: ContinueTiming?, durationFactor: Double, at t: Double, command i: Int?) {
            cancelDelay()
            pausedGlide = nil
            contributing = true
            state = .running
            factor = durationFactor
            emit(t, .continue, i)
            guard let handed else {
                handedOver = nil
                beginMotion(t, command: i)
                return
            }
            handedOver = (handed, durationFactor)
            let s = now(t)
            course = .gliding(glide(from: s, toEnd: !reversed, timing: handed, factor: durationFactor))
            placeWindows(from: s.fraction)
            record(t)
        }

        /// `addAnimations(_:delayFactor:)` (rule 16): on a moving animator the window is placed
        /// now; otherwise when it next moves ("the window begins when the animator resumes").
        mutating func addBlock(delayFactor: Double, at t: Double, command i: Int?) {
            if reopen(t) { record(t) }
            let moving = state == .running && delayUntil == nil
            let f = now(t).fraction
            blocks.append(Block(addedAt: t, delayFactor: delayFactor, fromFraction: moving ? f + delayFactor * (1 - f) : nil,
                                run: runEnds.count))
            emit(t, .addAnimations, i)
        }

        /// The interaction's release (rule 19): to the end or back to the start along `curve`, in
        /// the remaining share of the duration over `speed`.
        mutating func release(finishing finish: Bool, curve: TimingCurve, speed: Double, at t: Double) {
            cancelDelay()
            contributing = true
            state = .running
            reversed = !finish
            emit(t, finish ? .interactionFinish : .interactionCancel, nil)
            let s = now(t)
            let remaining = finish ? 1 - s.fraction : s.fraction
            let p1 = finish ? 1.0 : 0.0
            curves.append(curve)
            course = .gliding(Glide(f0: s.fraction, f1: p1, p0: s.progress, p1: p1, curve: curves.count - 1,
                                    window: remaining * length / speed, elapsed: 0, fromLinearScrub: s.linearScrub))
            placeWindows(from: s.fraction)
            record(t)
        }

        mutating func start(at t: Double, delay: Double, command: Int?) {
            let left = (delayLeft ?? 0) + delay
            delayLeft = nil
            state = .running
            emit(t, .start, command)
            if left > 0 {
                delayUntil = t + left
                delayCommand = command
                record(t)
            } else {
                contributing = true
                beginMotion(t, command: command)
            }
        }

        mutating func pauseAt(_ t: Double, command: Int?) {
            if let until = delayUntil {
                delayLeft = until - t
                delayUntil = nil
            } else {
                contributing = true
                if case .gliding(var glide) = course {
                    glide.elapsed += t - courseStart
                    pausedGlide = glide
                }
                hold(t)
            }
            state = .paused
            emit(t, .pause, command)
            record(t)
        }

        mutating func cancelDelay() {
            delayUntil = nil
            delayLeft = nil
        }

        mutating func setFraction(_ value: Double, at t: Double, command: Int?) {
            pausedGlide = nil
            if state != .paused {
                cancelDelay()
                state = .paused
                emit(t, .pause, command)
            }
            cancelDelay()
            contributing = true
            let curved = timing.sample(at: value * length).progress
            course = scrubsLinearly ? .scrubbed(position: value * length)
                                    : .held(position: value * length, progress: curved, shown: .progress)
            record(t)
        }
    }
}
