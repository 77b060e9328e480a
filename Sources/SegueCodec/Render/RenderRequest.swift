import SegueEngine
import SegueJSON

/// `POST /v1/render` (docs/rules.md "The render route"): the request decoded into a `SceneSpec`,
/// compiled by the engine into a `Scene`, and the frame times to sample it at. Everything is
/// checked before any sampling, including the result limits and the work budget (413): keyframe
/// tracks are weighed before they are built, the sampling before it starts (docs/cost.md).
public struct RenderRequest: Sendable {
    /// nil when `at` gives the times.
    public var fps: Double?
    public var times: [Double]
    public var scene: Scene
    public var velocities: Bool
    /// The decoder's warnings, then the scene's, each with its pointer.
    public var warnings: [RequestWarning]
    /// The request as rendered: after a `transition` preset's expansion, else as given.
    public var expanded: JSONValue
    /// Raised by the caller (a deadline, a client gone) to stop the compile and the sampling early.
    public var cancellation: WorkCancellation?
    /// The estimated work of the whole request, work units (`SceneCost`), within `maxWork`.
    public var work: Double
    /// The box the views are laid out in (docs/rules.md "Views and channels"): the request's
    /// `container`, a preset's included; nil when the request gives none. The canvas of a Lottie
    /// export (rule 29) and the box of container query units (rule 42).
    public var container: Container? = nil

    /// - cancellation: looked at by the compile's physics and by the sampling, frame by frame;
    ///   once raised they stop with the `cancelled` problem (503).
    public static func decode(_ given: JSONValue, limits: Limits,
                              cancellation: WorkCancellation? = nil) throws(Problem) -> RenderRequest {
        let (body, options, container, decodedScene) = try read(given, limits: limits)
        var decoded = decodedScene
        var work = decoded.work + SceneCost.keyframeBuild(decoded.spec)
        try Check.work(work, limits: limits, what: "building the keyframe tracks")
        let scene: Scene
        do throws(SceneError) {
            scene = try SceneCompiler.compile(decoded.spec, limits: limits.scene, cancellation: cancellation)
        } catch {
            throw Problem(error, ids: decoded.spec.animations.map(\.id))
        }
        decoded.warnings += scene.warnings.map { $0.relocated(decoded.pointers.pointer(of:)) }
        let times = try options.frameTimes(through: scene.end, limits: limits)
        try checkCost(scene, frames: times.count, velocities: options.velocities, limits: limits)
        work += SceneCost.render(scene, frames: times.count, velocities: options.velocities)
        try Check.work(work, limits: limits, what: "\(times.count) frames of this render")
        return RenderRequest(fps: options.at == nil ? options.fps ?? 60 : nil, times: times, scene: scene,
                             velocities: options.velocities, warnings: decoded.warnings, expanded: body,
                             cancellation: cancellation, work: work, container: container)
    }

    /// The work known before anything is built or simulated: reading the request and building its
    /// keyframe tracks (a batch's plan, rule 37; the physics and the frames are counted when the
    /// request runs, docs/batch.md "Limits").
    public static func plannedWork(_ given: JSONValue, limits: Limits) throws(Problem) -> Double {
        let decoded = try read(given, limits: limits, plansOnly: true).scene
        return decoded.work + SceneCost.keyframeBuild(decoded.spec)
    }

    /// The request read into a scene description, a preset expanded first; with `plansOnly` its
    /// `values` tracks are weighed but not built.
    private static func read(_ given: JSONValue, limits: Limits, plansOnly: Bool = false) throws(Problem)
        -> (body: JSONValue, options: Options, container: Container?, scene: SceneDecoder) {
        let body = try Presets.expand(given, limits: limits)
        var object = try ObjectReader(body, at: .root)
        let options = try Options(&object, limits: limits)
        let container = try object.value("container").map { value throws(Problem) in try Container(value, at: .root / "container") }
        let decoded = try SceneDecoder(&object, until: options.until, limits: limits, plansOnly: plansOnly)
        return (body, options, container, decoded)
    }

    /// The members that shape the timeline rather than the scene: `velocities`, `at`, `fps` and
    /// `until` (rule 3: `at` excludes the other two).
    struct Options {
        var velocities: Bool
        var at: [JSONValue]?
        var fps: Double?
        var until: Double?

        init(_ object: inout ObjectReader, limits: Limits) throws(Problem) {
            let root = JSONPointer.root
            velocities = try object.bool("velocities") ?? false
            at = try object.array("at")
            fps = try object.number("fps")
            until = try object.number("until")
            if at != nil, let clash = fps != nil ? "fps" : (until != nil ? "until" : nil) {
                throw Problem.invalid("`at` replaces the frame grid: give `\(clash)` or `at`, not both", at: root / clash)
            }
            if let fps { try Check.within(fps, limits.fps, root / "fps") }
            if let until {
                try Check.nonNegative(until, root / "until")
                guard until <= limits.maxDuration else {
                    throw Problem.invalid("`until` must be ≤ the limit of \(limits.maxDuration) s, not \(until)", at: root / "until")
                }
            }
        }

        /// Exactly `at` (non-decreasing, within [0, the duration limit]), or the grid at `fps`
        /// (default 60) through the end.
        func frameTimes(through end: Double, limits: Limits) throws(Problem) -> [Double] {
            let root = JSONPointer.root
            let reader = SamplingGridReader(limits: limits, unit: "frames")
            guard let at else {
                return try reader.grid(rate: fps ?? 60, through: end, window: "\(end) s", blame: fps == nil ? nil : root / "fps")
            }
            let times = try reader.explicitTimes(at, at: root / "at")
            for (i, t) in times.enumerated() {
                guard t >= 0, t <= limits.maxDuration else {
                    throw Problem.invalid("frame times must be in [0, \(limits.maxDuration)], not \(t)", at: root / "at" / i)
                }
                guard t >= (i > 0 ? times[i - 1] : 0) else {
                    throw Problem.invalid("frame times must not decrease", at: root / "at" / i)
                }
            }
            return times
        }
    }

    /// The result limits (413, before any sampling): the numbers the response holds, and the
    /// evaluations it takes — every layer of a channel at every frame (three more times for a
    /// numeric velocity; a transform layer decomposes and recomposes, about four times the work),
    /// so that blocks added by commands, which add no numbers of their own, cannot multiply it unseen.
    static func checkCost(_ scene: Scene, frames: Int, velocities: Bool, limits: Limits) throws(Problem) {
        let perFrame = 1 + scene.channels.reduce(0) { $0 + $1.kind.width } * (velocities ? 2 : 1) + 3 * scene.animators.count
        guard Double(frames) * Double(perFrame) <= Double(limits.maxNumbers) else {
            throw Problem.tooLarge("\(frames) frames × \(perFrame) numbers per frame are over the limit of "
                                   + "\(limits.maxNumbers) numbers per response")
        }
        let layers = scene.channels.reduce(0) { $0 + $1.layerCount * ($1.kind == .transform ? 4 : 1) } * (velocities ? 4 : 1)
        guard Double(frames) * Double(layers) <= Double(limits.maxNumbers) else {
            throw Problem.tooLarge("\(frames) frames × \(layers) animation layers to evaluate are over the limit of "
                                   + "\(limits.maxNumbers) evaluations per response")
        }
    }
}

/// The scene members of a render — `views`, `animations`, `commands`, `interaction` — decoded
/// into a `SceneSpec`, with the pointers its warnings need.
struct SceneDecoder {
    var spec: SceneSpec
    var pointers = TargetPointers()
    var warnings: [RequestWarning] = []
    /// The work of building the `values` tracks (`SceneCost.keyframeTrackBuild`).
    var work = 0.0

    /// `plansOnly`: `values` tracks are weighed, not built (`RenderRequest.plannedWork`).
    init(_ object: inout ObjectReader, until: Double?, limits: Limits, plansOnly: Bool = false) throws(Problem) {
        let root = JSONPointer.root
        guard let viewsValue = object.value("views") else { throw Problem.invalid("`views` is required", at: root / "views") }
        let views = try ViewDecoder.decodeAll(viewsValue, limits: limits)
        let animationsValue = try object.array("animations") ?? []
        let commandsValue = try object.array("commands") ?? []
        guard animationsValue.count + commandsValue.count <= limits.maxAnimations else {
            throw Problem.invalid("\(animationsValue.count) animations and \(commandsValue.count) commands are over the limit of "
                                  + "\(limits.maxAnimations)", at: root / (commandsValue.isEmpty ? "animations" : "commands"))
        }
        let interactionValue = object.value("interaction")
        object.accepts(["transition"])
        try object.rejectUnknown()

        var animations: [SceneSpec.Animation] = []
        var byID: [String: Int] = [:]
        for (i, value) in animationsValue.enumerated() {
            let animation = try AnimationDecoder.decode(value, index: i, views: views, limits: limits, warnings: &warnings,
                                                        pointers: &pointers, work: &work, plansOnly: plansOnly)
            guard byID.updateValue(i, forKey: animation.id) == nil else {
                throw Problem.invalid("duplicate animation id `\(animation.id)`", at: root / "animations" / i / "id")
            }
            animations.append(animation)
        }
        var commands: [SceneSpec.Command] = []
        for (i, value) in commandsValue.enumerated() {
            commands.append(try CommandDecoder.decode(value, index: i, animations: animations, byID: byID, views: views,
                                                      limits: limits, warnings: &warnings))
        }
        let interaction = try interactionValue.map { value throws(Problem) in
            try InteractionDecoder.decode(value, animations: animations, byID: byID, limits: limits)
        }
        spec = SceneSpec(views: views, animations: animations, commands: commands, interaction: interaction, until: until)
    }
}

extension Problem {
    /// A scene the engine refused, or a value it could not sample, as the problem it is for the
    /// request (rules 2, 13, 20; "Conventions"). `ids` are the animations' ids.
    init(_ error: SceneError, ids: [String]) {
        let root = JSONPointer.root
        switch error {
        case .illegalCommand(let command, let operation, let state, let allowed):
            self.init(.illegalCommand,
                      detail: "`\(operation)` is not allowed while the animator is \(state.rawValue); allowed: "
                          + allowed.joined(separator: ", "),
                      pointer: (root / "commands" / command).description,
                      extensions: [.init("state", .string(state.rawValue)), .init("allowed", .array(allowed.map(JSONValue.string)))])
        case .simulationBudgetSpent(let animation, let allowance):
            self = .tooLarge("the physics animations need more than \(allowance) steps of work (rest tests, Euler ticks and "
                             + "RK4 steps, per channel component, up to `until` or \(Int(SceneCompiler.physicsRestWindow)) s "
                             + "after a start or command): give a shorter `until`, a lower `tickRate` or wider rest thresholds",
                             at: root / "animations" / animation / "dynamics")
        case .neverEnds(let animation, let cause):
            let id = ids[animation]
            switch cause {
            case .continuedSpring(let command):
                self = .invalid("animation `\(id)` never ends (the spring it continues with never settles): give `until`",
                                at: root / "commands" / command / "timing")
            case .repeatsForever:
                self = .invalid("animation `\(id)` never ends (it repeats forever): give `until`",
                                at: root / "animations" / animation / "repeatCount")
            case .undampedSpring:
                self = .invalid("animation `\(id)` never ends (an undamped spring never settles): give `until`",
                                at: root / "animations" / animation / "timing")
            case .noRest(let window):
                self = .invalid("animation `\(id)` never ends (it does not come to rest within \(Int(window)) s of its start or "
                                + "last command): give `until`", at: root / "animations" / animation / "dynamics")
            }
        case .endsBeyondLimit(let animation, let end, let limit, let command):
            self = .invalid("animation `\(ids[animation])` ends at \(end) s, beyond the limit of \(limit) s",
                            at: command.map { root / "commands" / $0 } ?? root / "animations" / animation)
        case .nonFinite(let view, let channel, let t):
            self = .invalid("`\(view).\(channel)` has no finite value at t = \(t)", at: JSONPointer(["views", view, channel]))
        case .cancelled:
            self = .cancelled
        }
    }
}
