/// A render's description in the engine's own types: views and their channels, animations with a
/// typed form, animator commands, an interaction and the end (docs/rules.md "The render route").
///
/// Decoders fill it after checking every number against its range; `SceneCompiler.compile(_:)`
/// turns it into a `Scene`. Nothing here knows JSON: places are indices into these arrays.
public struct SceneSpec: Sendable {
    public var views: [View]
    public var animations: [Animation]
    /// In the order given: a command's index is its position here (events and errors name it).
    public var commands: [Command]
    public var interaction: Interaction?
    /// The timeline's end when given (`until`); otherwise the compiler finds it (rule 2).
    public var until: Double?

    public init(views: [View], animations: [Animation] = [], commands: [Command] = [], interaction: Interaction? = nil,
                until: Double? = nil) {
        self.views = views
        self.animations = animations
        self.commands = commands
        self.interaction = interaction
        self.until = until
    }
}

extension SceneSpec {
    /// A view and its starting channels, in the order given.
    public struct View: Sendable {
        public var name: String
        public var channels: [Channel]
        /// Where the view draws among its siblings (rule 40): higher draws above; ties keep the
        /// request's order. Default 0.
        public var zIndex: Int

        public init(name: String, channels: [Channel], zIndex: Int = 0) {
            self.name = name
            self.channels = channels
            self.zIndex = zIndex
        }

        public func channel(_ name: String) -> Channel? { channels.first { $0.name == name } }
    }

    public struct Channel: Sendable {
        public var name: String
        public var kind: ChannelKind
        public var value: ChannelValue

        public init(name: String, kind: ChannelKind, value: ChannelValue) {
            self.name = name
            self.kind = kind
            self.value = value
        }
    }

    /// One UIView animation — a running UIViewPropertyAnimator — or a physics animation.
    public struct Animation: Sendable {
        public var id: String
        /// The view's name.
        public var view: String
        public var form: Form
        /// Seconds before the autostart shows anything (rule 8).
        public var delay: Double
        /// false: inactive until a command starts it.
        public var autostart: Bool
        public var pausesOnCompletion: Bool
        public var scrubsLinearly: Bool
        public var blend: Blend

        public init(id: String, view: String, form: Form, delay: Double = 0, autostart: Bool = true,
                    pausesOnCompletion: Bool = false, scrubsLinearly: Bool = true, blend: Blend = .replace) {
            self.id = id
            self.view = view
            self.form = form
            self.delay = delay
            self.autostart = autostart
            self.pausesOnCompletion = pausesOnCompletion
            self.scrubsLinearly = scrubsLinearly
            self.blend = blend
        }

        /// The timing of a curve-driven form; nil for physics.
        public var timing: ActiveTiming? {
            switch form {
            case .block(let block): block.timing
            case .keyframes(let keyframes): keyframes.timing
            case .values(let values): values.timing
            case .physics: nil
            }
        }

        public var isPhysics: Bool {
            if case .physics = form { return true }
            return false
        }
    }

    /// How a layer combines with what the channel already shows (rule 9).
    public enum Blend: Sendable {
        /// From the presented value; earlier layers stop contributing (beginFromCurrentState).
        case replace
        /// base(t) + (to − m) · p(t), as UIKit's overlapping animators.
        case additive
    }

    /// What an animation does, by kind.
    public enum Form: Sendable {
        /// A UIView block animation's `to`.
        case block(Block)
        /// UIView keyframes (`addKeyframeWithRelativeStartTime:relativeDuration:`).
        case keyframes(Keyframes)
        /// A CAKeyframeAnimation's `values` on one channel.
        case values(Values)
        /// Forces instead of a curve.
        case physics(Physics)
    }

    /// A channel's model value after the animation.
    public struct Target: Sendable {
        public var channel: String
        public var value: ChannelValue

        public init(channel: String, value: ChannelValue) {
            self.channel = channel
            self.value = value
        }
    }

    public struct Block: Sendable {
        public var timing: ActiveTiming
        public var to: [Target]
        /// Transforms: the shorter arc (false) or the raw angle (`rotationPath: direct`, rule 6).
        public var directRotation: Bool

        public init(timing: ActiveTiming, to: [Target], directRotation: Bool = false) {
            self.timing = timing
            self.to = to
            self.directRotation = directRotation
        }
    }

    public struct Keyframes: Sendable {
        public struct Channel: Sendable {
            public var channel: String
            public var keyframes: [RelativeKeyframe<ChannelValue>]

            public init(channel: String, keyframes: [RelativeKeyframe<ChannelValue>]) {
                self.channel = channel
                self.keyframes = keyframes
            }
        }

        public var timing: ActiveTiming
        public var mode: CalculationMode
        /// In the order each channel is first named.
        public var channels: [Channel]

        public init(timing: ActiveTiming, mode: CalculationMode, channels: [Channel]) {
            self.timing = timing
            self.mode = mode
            self.channels = channels
        }
    }

    public struct Values: Sendable {
        /// The track over the keyframe time, built and warned about by the decoder.
        public enum Track: Sendable {
            case vector(KeyframeTrack)
            case transform(TransformKeyframeTrack)
        }

        public var timing: ActiveTiming
        public var channel: String
        public var track: Track
        /// The last value: the channel's model value afterwards.
        public var last: ChannelValue

        public init(timing: ActiveTiming, channel: String, track: Track, last: ChannelValue) {
            self.timing = timing
            self.channel = channel
            self.track = track
            self.last = last
        }
    }

    /// A physics animation of one scalar or point channel (rules 20–22).
    public struct Physics: Sendable {
        public var channel: String
        public var model: PhysicsModel
        public var integrator: PhysicsIntegrator
        /// Channel units per second, one per component.
        public var velocity: [Double]
        /// nil for a decay, a fling and a scroll deceleration.
        public var target: [Double]?
        /// The rest test's thresholds (rule 21); a Motion spring carries its own
        /// (`MotionSpring.rest`), and a fling and a scroll deceleration stop by their models.
        public var restSpeed: Double
        public var restDistance: Double
        /// POP's per-property threshold (a decay stops below 5 · threshold per second).
        public var threshold: Double

        public init(channel: String, model: PhysicsModel, integrator: PhysicsIntegrator, velocity: [Double],
                    target: [Double]?, restSpeed: Double, restDistance: Double, threshold: Double) {
            self.channel = channel
            self.model = model
            self.integrator = integrator
            self.velocity = velocity
            self.target = target
            self.restSpeed = restSpeed
            self.restDistance = restDistance
            self.threshold = threshold
        }
    }

    /// A UIViewPropertyAnimator method, or a physics command, at a time (rules 13–17, 20–22).
    public struct Command: Sendable {
        public var at: Double
        /// The index in `animations` of the animation it drives.
        public var animation: Int
        public var operation: Operation

        public init(at: Double, animation: Int, operation: Operation) {
            self.at = at
            self.animation = animation
            self.operation = operation
        }
    }

    public enum Operation: Sendable {
        case start(delay: Double)
        case pause
        case stop(withoutFinishing: Bool)
        case finish(AnimatorEvent.Position)
        case reverse(Bool)
        case fraction(Double)
        case `continue`(ContinueTiming?, durationFactor: Double)
        /// Adds a block that animates `to` over the rest of the animator's run.
        case addAnimations(delayFactor: Double, to: [Target])
        /// Physics only: a new target; `velocity` replaces the velocity when given.
        case retarget(target: [Double], velocity: [Double]?)
        /// Physics only: the finger's samples (strictly increasing t, from the command's time).
        case drag([DragSample])

        /// The op's name in the request and in `allowed` lists.
        public var name: String {
            switch self {
            case .start: "start"
            case .pause: "pause"
            case .stop: "stop"
            case .finish: "finish"
            case .reverse: "reverse"
            case .fraction: "fraction"
            case .continue: "continue"
            case .addAnimations: "addAnimations"
            case .retarget: "retarget"
            case .drag: "drag"
            }
        }

        /// The ops a physics animation accepts (rule 20), in the order `allowed` lists them.
        public static let physicsNames = ["retarget", "drag", "stop"]
    }
}
