import SegueEngine
import SegueJSON

/// `"compare"`, `"distance"` and `"tickRate"` on `POST /v1/curve` (docs/rules.md rule 35,
/// docs/springs.md "Compare mode"): the engines to play the response's spring in, in request
/// order, how far (units, > 0, default 100) and at what display tick rate (Hz, in (0, 1000],
/// default 60).
struct CompareMembers {
    var engines: [SpringEngine]
    var distance: Double
    var tickRate: Double

    /// The engine names, for messages.
    static var engineList: String { SpringEngine.allCases.map(\.rawValue).joined(separator: ", ") }

    /// Reads the three members; nil when `compare` is not given, and then `distance` and
    /// `tickRate` are refused (they shape nothing else). 422 for an empty list, an unknown or
    /// repeated engine, and a distance or tick rate out of range; 400 for an engine that is not a
    /// string.
    static func read(_ object: inout ObjectReader) throws(Problem) -> CompareMembers? {
        let root = JSONPointer.root
        guard let list = try object.array("compare") else {
            for member in ["distance", "tickRate"] where object.has(member) {
                throw Problem.invalid("`\(member)` belongs to compare mode: give `compare` too", at: root / member)
            }
            return nil
        }
        guard !list.isEmpty else {
            throw Problem.invalid("`compare` names no engine; name one or more of \(engineList)", at: root / "compare")
        }
        var engines: [SpringEngine] = []
        for (i, element) in list.enumerated() {
            let at = root / "compare" / i
            guard case .string(let name) = element else {
                throw Problem.wrongType(at: at, expected: "a string", found: element)
            }
            guard let engine = SpringEngine(rawValue: name) else {
                throw Problem.invalid("unknown engine `\(name.prefix(50))`; expected one of \(engineList)", at: at)
            }
            if let first = engines.firstIndex(of: engine) {
                throw Problem.invalid("engine `\(name)` is named twice (first at /compare/\(first))", at: at)
            }
            engines.append(engine)
        }
        let distance = try object.number("distance") ?? SpringComparison.defaultDistance
        try Check.positive(distance, root / "distance")
        let tickRate = try object.number("tickRate") ?? SpringComparison.defaultTickRate
        guard tickRate > 0 && tickRate <= SpringComparison.maxTickRate else {
            throw Problem.invalid("`tickRate` must be in (0, \(Int(SpringComparison.maxTickRate))], not \(tickRate)",
                                  at: root / "tickRate")
        }
        return CompareMembers(engines: engines, distance: distance, tickRate: tickRate)
    }

    /// The comparison of `curve` sampled at `times`: a spring with damping, else a 422 at
    /// `/compare` (a Bézier, steps or `linear()` has no spring to play; an undamped spring never
    /// comes to rest in any engine).
    func comparison(of curve: TimingCurve, times: [Double], limits: Limits) throws(Problem) -> SpringComparison {
        let at = JSONPointer.root / "compare"
        guard let spring = curve.spring else {
            throw Problem.invalid("`compare` plays a spring: give a spring timing", at: at)
        }
        guard spring.damping > 0 else {
            throw Problem.invalid("an undamped spring (damping 0) never comes to rest: `compare` needs damping > 0", at: at)
        }
        let latest = max(0, times.max() ?? 0)
        return SpringComparison(engines: engines, spring: spring, distance: distance, tickRate: tickRate, through: latest,
                                longest: limits.maxDuration)
    }
}
