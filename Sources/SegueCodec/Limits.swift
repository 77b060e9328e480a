import SegueEngine
/// The service's limits (docs/rules.md "Limits"). Each is configurable at start-up; a request over a result
/// limit is refused before any work with a `detail` naming the limit.
public struct Limits: Sendable, Equatable {
    /// Largest request body, bytes (413 over it).
    public var maxBodyBytes = 1 << 20
    /// Deepest nesting of arrays and objects in a request (400 over it).
    public var maxDepth = 64
    /// Allowed frame rates, frames per second (422 outside).
    public var fps: ClosedRange<Double> = 1...1000
    /// Longest timeline or curve duration, seconds (422 over it).
    public var maxDuration = SceneLimits().maxDuration
    /// Most samples or frames in one response (413 over it).
    public var maxSamples = 100_000
    /// Most numbers in one response (413 over it).
    public var maxNumbers = 5_000_000
    /// Most views in one render (422 over it).
    public var maxViews = 1000
    /// Most animations plus commands in one render (422 over it).
    public var maxAnimations = 10_000
    /// Most physics work one render may do — rest-test states, Euler ticks and RK4 steps, each per
    /// channel component (413 over it): a bound on CPU and on stored ticks.
    public var maxSimulationSteps = SceneLimits().maxSimulationSteps
    /// Most work one request may cost, in work units (`SceneCost`, docs/cost.md; a unit is about a
    /// nanosecond of one core): keyframe tracks built, physics simulated, every evaluation of
    /// every frame and every number printed (413 over it, before the expensive part). The default
    /// keeps the dearest request within it to about 2 s of one core.
    public var maxWork = Limits.defaultMaxWork

    /// `maxWork` unless configured: 2 s of one core of the reference machine (docs/cost.md).
    public static let defaultMaxWork = 2_000_000_000
    /// Most non-empty lines in one batch (rule 37, 413 over it); 1…1,000,000, default 10,000.
    public var maxBatchLines = 10_000
    /// Largest batch body, bytes (rule 37, 413 over it); default 16 MiB. Each line's `body` is
    /// still held to `maxBodyBytes`.
    public var maxBatchBodyBytes = 16 << 20
    /// Most estimated work of a whole batch, work units (rule 37, 413 over it before any line
    /// runs); nil is 100 × `maxWork`.
    public var maxBatchWork: Double?

    /// The batch work limit in force.
    public var batchWork: Double { maxBatchWork ?? 100 * Double(maxWork) }

    public init() {}

    /// The limits the engine enforces while it compiles a scene.
    public var scene: SceneLimits { SceneLimits(maxDuration: maxDuration, maxSimulationSteps: maxSimulationSteps) }
}
