/// The work a request costs, in work units, estimated from its structure before the expensive
/// part runs (docs/cost.md). A unit is about one nanosecond of one core of the reference machine
/// in a release build; the weights below were measured with `segue-bench cost` (docs/cost.md
/// "Calibration") and rounded up, so an estimate is an upper bound of the time, not an average.
///
/// What is counted:
/// - building keyframe tracks (a cubicPaced arc-length table is by far the dearest), before they
///   are built: `keyframeTrackBuild` for `values`, `keyframeBuild(_:)` for UIView keyframes;
/// - the physics the compile simulated (`Scene.simulationWork`, bounded by `maxSimulationSteps`);
/// - sampling: per frame, every channel's layers — the timing curve of each (a Bézier solve, a
///   spring, steps, `linear()`) and its motion (a lerp per component, a transform
///   decomposition, a keyframe lookup, a cubicPaced arc-length inversion per component, a
///   physics state) — its velocity when asked (exact for lerps and physics, else three
///   more evaluations of the channel: the numeric difference), the animators' three reports,
///   and the printing of every number — once each: a render is sampled into `SceneSamples`
///   before it is written;
/// - the curve route: samples × (the curve's evaluation + three numbers printed).
///
/// Pure and cheap: O(channels + layers), no sampling.
public enum SceneCost {
    // MARK: Weights, work units (≈ ns, measured by `segue-bench cost`)

    /// Printing one number (shortest round-trip digits) with its separator.
    static let numberWritten = 60.0
    /// One channel evaluation's fixed part: finding the started layers, the result array.
    static let channelEvaluation = 250.0
    /// One layer's fixed part: its animator's segment search and sample.
    static let layerEvaluation = 40.0
    /// One animator report (fraction, state or reversed) besides its curve.
    static let animatorReport = 40.0
    /// A cubic Bézier solve: up to 8 Newton and 64 bisection steps.
    static let bezierSolve = 250.0
    /// A spring sample: one exponential and a sine/cosine (or cosh/sinh) pair.
    static let springSample = 80.0
    /// A steps() lookup.
    static let stepsSample = 15.0
    /// A linear() lookup, per halving of its binary search.
    static let searchStep = 12.0
    /// One component of a lerp.
    static let lerpComponent = 2.0
    /// A transform interpolation: recomposing a matrix from interpolated parts (sin, cos).
    static let transformInterpolation = 150.0
    /// Recomposing a matrix from keyframed components.
    static let transformRecomposition = 120.0
    /// One component of a cubic Hermite segment (Horner).
    static let splineComponent = 3.0
    /// One component of the arc-length speed |P′(u)| (a quadrature node).
    static let speedComponent = 2.0
    /// One component of a physics state (a closed form, or a stored tick).
    static let physicsComponent = 40.0
    /// One unit of `Scene.simulationWork` (a rest test, a tick, an RK4 step, per component).
    static let simulationStep = 80.0

    /// Newton/bisection steps counted per arc-length inversion, each one 4-point panel and one
    /// speed. `ArcLengthTable.maxIterations` (64) is only a cap: a sample usually takes one, and
    /// measured means are 1.00–1.14 per track, where the speed vanishes at every key and near
    /// cusps too (docs/cost.md "Calibration"); 3 keeps a margin.
    static let locateIterations = 3.0

    /// Components of the vector a transform keyframe becomes (`DecomposedTransform.components`).
    public static let transformVectorWidth = 9

    // MARK: Curves

    /// One evaluation of a timing curve.
    public static func evaluation(of curve: TimingCurve) -> Double {
        switch curve {
        case .cubicBezier: bezierSolve
        case .steps: stepsSample
        case .piecewiseLinear(let curve): searchStep * log2(curve.points.count) + lerpComponent
        case .spring, .durationSpring: springSample
        }
    }

    /// `POST /v1/curve`: every sample's evaluation and its three numbers.
    public static func curve(_ curve: TimingCurve, samples: Int) -> Double {
        Double(samples) * (evaluation(of: curve) + 3 * numberWritten)
    }

    /// A curve's CSS or Web Animations export (docs/cost.md "Exports"): a curve CSS writes exactly
    /// costs its text, and a `linear()` its fallback Bézier's search; a fitted one (a spring) also
    /// its fit — the grid sampled once, each check pass over it (`checkPasses`), and per keyframe
    /// the refinement of its piece in each pass.
    public static func curveExport(_ curve: TimingCurve, fitted: Bool, gridPoints: Int, keyframes: Double) -> Double {
        let isLinear: Bool
        if case .piecewiseLinear = curve { isLinear = true } else { isLinear = false }
        guard fitted || isLinear else { return exactCurveExport }
        let fallback = fallbackBezier(curve)
        guard fitted else { return fallback }
        return fallback + linearFit(curve, gridPoints: gridPoints, keyframes: keyframes)
    }

    /// A fitted curve's `linear()` alone (a render's spring block writes no fallback): the grid
    /// sampled once, each check pass over it, and per keyframe the refinement of its piece in each
    /// pass.
    static func linearFit(_ curve: TimingCurve, gridPoints: Int, keyframes: Double) -> Double {
        let grid = Double(gridPoints) * (evaluation(of: curve) + checkPasses * checkedPoint)
        return grid + keyframes * checkPasses * refinementPoints * (evaluation(of: curve) + checkedPoint)
    }

    /// Evaluations of the curve in the fallback Bézier's search (`CubicBezierFit`).
    static let fallbackSearch = 120_000.0

    /// The search of a curve's closest `cubic-bezier()` (`CubicBezierFit`).
    public static func fallbackBezier(_ curve: TimingCurve) -> Double { fallbackSearch * evaluation(of: curve) }
    /// The text of an exact curve.
    static let exactCurveExport = 2_000.0
    /// Full check passes of a fit: the refinement, the rounding's attempts and the final measure.
    static let checkPasses = 8.0
    /// One point of a check: the keyframes' mix and its comparison, on numbers read without
    /// arrays (`FitTarget.scalar`).
    static let checkedPoint = 8.0
    /// Points of a piece's refinement (the golden-section search and its minimum scan).
    static let refinementPoints = 60.0

    // MARK: Building keyframe tracks

    /// Building a `KeyframeTrack` of `values` vectors of `width` components in `mode`, bounded
    /// before it is built: the cubic modes' spline, and cubicPaced's arc-length table
    /// (`ArcLengthTable.segmentBuildWork` per segment).
    public static func keyframeTrackBuild(values: Int, width: Int, mode: CalculationMode) -> Double {
        let n = Double(values), w = Double(width)
        let linear = n * w * lerpComponent
        switch mode {
        case .linear, .discrete, .paced: return linear
        case .cubic: return linear + n * w * splineComponent * 4
        case .cubicPaced:
            return linear + n * w * splineComponent * 4 + max(n - 1, 0) * ArcLengthTable.segmentBuildWork(width: w)
        }
    }

    /// Building the UIView keyframe tracks of `spec` (done by the compiler, per layer): at most
    /// two values per keyframe plus the start.
    public static func keyframeBuild(_ spec: SceneSpec) -> Double {
        var work = 0.0
        for animation in spec.animations {
            guard case .keyframes(let keyframes) = animation.form else { continue }
            let view = spec.views.first { $0.name == animation.view }
            for channel in keyframes.channels {
                let kind = view?.channel(channel.channel)?.kind ?? ChannelKind.builtIn(channel.channel) ?? .scalar
                let width = kind == .transform ? transformVectorWidth : kind.width
                work += keyframeTrackBuild(values: 2 * channel.keyframes.count + 2, width: width, mode: keyframes.mode)
            }
        }
        return work
    }

    // MARK: Rendering

    /// Sampling `scene` at `frames` frames (values, velocities when asked, animator reports) and
    /// printing every number, plus the physics the compile did.
    public static func render(_ scene: Scene, frames: Int, velocities: Bool) -> Double {
        var perFrame = numberWritten  // t
        for channel in scene.channels {
            let width = channel.kind.width
            let work = channel.track.evaluationWork(width: width)
            perFrame += work.value + Double(width) * numberWritten
            if velocities { perFrame += work.velocity + Double(width) * numberWritten }
        }
        for animator in scene.animators {
            perFrame += 3 * (animatorReport + animator.curveWork + numberWritten)
        }
        return Double(frames) * perFrame + Double(scene.simulationWork) * simulationStep
    }

    /// A render's keyframe export (docs/cost.md "Exports"): every channel sampled at the frames;
    /// a view that one block alone moves (`Scene.soleBlock(of:)`, CSS and Web Animations keyframes)
    /// read from them once more for its checks and slopes; any other channel sampled once on the
    /// grid, with the checks' passes over each of its components, more for a channel no single
    /// easing describes (`ChannelTrack.exportFactor`); and the `linear()` of each spring block
    /// where the target writes one.
    /// - tolerance: the export's (`?tolerance=`): how many stops each spring's `linear()` needs.
    public static func export(_ scene: Scene, gridPoints: Int, frames: Int, format: ExportFormat, tolerance: Double) -> Double {
        let writesSprings = format == .keyframes
        var work = 0.0
        var springs: [ExactPiece] = []
        var byView: [String: [Int]] = [:]
        for (index, channel) in scene.channels.enumerated() { byView[channel.view, default: []].append(index) }
        for channels in byView.values {
            // Lottie has no `steps()` easing: such a block is fitted.
            let sole = scene.soleBlock(of: channels).flatMap { piece -> ExactPiece? in
                if format == .lottie, case .curve(.steps) = piece.easing { return nil }
                return piece
            }
            for channel in channels.map({ scene.channels[$0] }) {
                let value = channel.track.evaluationWork(width: channel.kind.width).value
                work += Double(frames) * value
                // Lottie shows no custom channel (a warning names it): nothing to fit.
                guard format == .keyframes || ChannelKind.builtIn(channel.name) != nil else { continue }
                let width = Double(channel.kind.width)
                if sole != nil {
                    work += Double(frames + 3 * KeyframeFit.slopeSteps) * width * soleBlockComponent
                    // Lottie's targets read the channels themselves, at every frame.
                    if format == .lottie { work += Double(frames) * value * lottieSoleReads }
                } else {
                    var factor = channel.track.exportFactor(writesSprings: writesSprings)
                    if factor > 1, format == .lottie { factor *= lottieFitted }
                    work += Double(gridPoints) * (value + width * exportComponent) * factor
                }
                // A spring block's `linear()`: in CSS always, in Lottie for a view one block moves.
                guard writesSprings || sole != nil else { continue }
                for piece in channel.exactPieceCandidates where !springs.contains(piece) {
                    if case .timed = piece.easing { springs.append(piece) }
                }
            }
        }
        // Each spring block's `linear()`, fitted once (`BlockEasings`).
        for piece in springs {
            guard case .timed(let curve, let duration) = piece.easing else { continue }
            work += linearFit(curve, gridPoints: KeyframeFit.gridIntervals + 1,
                              keyframes: curve.spring?.leastKeyframes(tolerance: tolerance, over: duration) ?? 0)
        }
        return work
    }

    /// Per frame (and slope step) and channel component of a view one block alone moves: its
    /// properties read, checked against the block's model and their slopes taken.
    static let soleBlockComponent = 25.0
    /// How many times Lottie's targets of such a view read each channel at a frame (the layer's
    /// position, rotation and scale, size and opacity, their checks and warnings).
    static let lottieSoleReads = 6.0

    /// Per grid point and channel component of an export: the checks' mixes and comparisons over
    /// all their passes, where the channel's value is read from its column.
    static let exportComponent = 170.0
    /// What a channel no single easing describes costs over one the blocks' easings describe: its
    /// greedy pass, the refinement of its many pieces and their rounding, each piece's truth
    /// evaluated anew off the grid.
    static let fittedExport = 8.0
    /// On top of that, for a channel that jumps at every display tick (a tick integrator: Euler, POP's
    /// RK4): a jump pair per tick.
    static let tickedExport = 5.0
    /// A Lottie fit of such a channel, against a CSS one: Lottie's properties group components
    /// (position, scale and rotation) into fewer fits.
    static let lottieFitted = 0.7
    /// A channel of keyframes in `linear` mode: straight pieces, which the greedy pass follows
    /// exactly with few keyframes.
    static let linearKeyframesExport = 1.5

    /// What an export writes: CSS or Web Animations keyframes (a spring block as its `linear()`),
    /// or Lottie (every spring fitted; no custom channel).
    public enum ExportFormat: Sendable {
        case keyframes, lottie
    }

    static func log2(_ count: Int) -> Double {
        Double(Int.bitWidth - max(count, 1).leadingZeroBitCount)
    }
}

extension Scene.Animator {
    /// The dearest curve the animator can evaluate (its own, or one a `continue` gave it).
    var curveWork: Double {
        guard case .property(let animator) = timeline else { return 0 }
        return animator.curveWork
    }
}

extension PropertyAnimator {
    var curveWork: Double {
        curves.reduce(SceneCost.evaluation(of: timing.curve)) { max($0, SceneCost.evaluation(of: $1)) }
    }
}

extension ChannelTrack {
    /// `SceneCost.fittedExport` (× `tickedExport` for physics on a tick integrator) unless every layer is a block
    /// whose easing the target writes (a spring's only where `writesSprings`), then 1.
    func exportFactor(writesSprings: Bool) -> Double {
        let candidates = exactPieceCandidates.filter { piece in
            if case .timed = piece.easing { return writesSprings }
            return true
        }
        if !layers.isEmpty, candidates.count == layers.count { return 1 }
        let linearKeyframes = !layers.isEmpty && layers.allSatisfy { layer in
            if case .vectorTrack(let track) = layer.motion, track.mode == .linear { return true }
            return false
        }
        if linearKeyframes { return SceneCost.linearKeyframesExport }
        let ticked = layers.contains { layer in
            if case .physics(let chain) = layer.motion { return chain.jumpsEveryTick }
            return false
        }
        return SceneCost.fittedExport * (ticked ? SceneCost.tickedExport : 1)
    }

    /// The work of one `value(at:)` and one `velocity(at:)`, every layer counted (an upper bound:
    /// a replace layer hides the ones before it).
    func evaluationWork(width: Int) -> (value: Double, velocity: Double) {
        // A transform value is turned into its matrix on every evaluation.
        let base = SceneCost.channelEvaluation + (initial.isVector ? 0 : SceneCost.transformRecomposition)
        var value = base, exact = base
        var numeric = false
        for layer in layers {
            let timing = SceneCost.layerEvaluation + (layer.animation.animator?.curveWork ?? 0)
            value += timing + layer.motion.evaluationWork(width: width)
            switch layer.motion {
            case .vectorLerp, .physics: exact += timing + layer.motion.evaluationWork(width: width)
            default: numeric = true
            }
        }
        // A numeric velocity evaluates the whole channel three more times (`numericVelocity`).
        return (value, numeric ? exact + 3 * value : exact)
    }
}

extension ChannelValue {
    var isVector: Bool {
        if case .vector = self { return true }
        return false
    }
}

extension ResolvedMotion {
    func evaluationWork(width: Int) -> Double {
        let w = Double(width)
        switch self {
        case .vectorLerp: return w * SceneCost.lerpComponent
        case .transform: return SceneCost.transformInterpolation
        case .vectorTrack(let track): return track.evaluationWork
        case .transformTrack(let track):
            switch track.timing.mode {
            case .linear: return track.timing.evaluationWork + SceneCost.transformInterpolation
            case .discrete: return track.timing.evaluationWork
            case .paced, .cubic, .cubicPaced: return track.timing.evaluationWork + SceneCost.transformRecomposition
            }
        case .physics: return SceneCost.physicsComponent * w + SceneCost.searchStep * 16
        }
    }
}

extension KeyframeTrack {
    /// One `value(at:)`: the key-time search, a segment timing function, the segment's value; in
    /// cubicPaced the arc-length inversion instead of the search.
    var evaluationWork: Double {
        let width = Double(values.first?.count ?? 0)
        let search = SceneCost.searchStep * SceneCost.log2(values.count)
        let segmentTiming = timingFunctions.reduce(0) { max($0, $1.map(SceneCost.evaluation(of:)) ?? 0) }
        switch mode {
        case .linear, .paced, .discrete: return search + segmentTiming + width * SceneCost.lerpComponent
        case .cubic: return search + segmentTiming + width * SceneCost.splineComponent
        case .cubicPaced: return (arcLength?.locateWork ?? 0) + width * SceneCost.splineComponent
        }
    }
}

extension ArcLengthTable {
    /// The most one segment's table costs: two 8-point and two 4-point panels on every step tested
    /// (`uniformSteps` plus at most 3 extrema, and two more per halving, at most
    /// `maxRefinements`), a speed and a bend at every node kept, each of every component; the
    /// extrema's cubic (a product per component) and its bisections (a Horner step each).
    static func segmentBuildWork(width: Double) -> Double {
        let first = Double(uniformSteps + 3)
        let tested = first + 2 * Double(maxRefinements)
        let nodes = first + Double(maxRefinements) + 1
        return (tested * (2 * 8 + 2 * 4) + nodes * 2 + 1) * width * SceneCost.speedComponent
            + 3 * Double(SplineSpeed.bisections) * SceneCost.splineComponent
    }

    /// One `locate`: the binary search over the steps, the Hermite guess, then
    /// `SceneCost.locateIterations` Newton steps, each a 4-point panel and a speed.
    var locateWork: Double {
        let width = Double(spline.first?.count ?? 0)
        let search = SceneCost.searchStep * SceneCost.log2(steps.count)
        let guess = Double(Self.guessIterations) * SceneCost.splineComponent * 2
        return search + guess + SceneCost.locateIterations * (4 + 1) * width * SceneCost.speedComponent
    }
}
