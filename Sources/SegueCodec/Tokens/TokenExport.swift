import SegueEngine
import SegueJSON

/// `POST /v1/tokens` (docs/tokens.md, rule 39): every motion token of a design-token document
/// converted — its easing exact where CSS has the form, else a `linear()` within the tolerance
/// with a `cubic-bezier()` fallback — as CSS custom properties or as the document resolved in place.
///
/// Planned before any fitting (`TokenPlan`): every token read, every alias resolved and every
/// problem of every token collected into one 422 (`errors`, at most `maxErrors`), two tokens
/// with one custom-property name refused, and the fits' total work held to `--max-work`.
public struct TokenPlan: Sendable {
    /// The problems listed in one answer, at most.
    public static let maxErrors = 100

    let document: JSONValue
    let tokens: [MotionToken]
    let tolerance: Double
    /// The fits' estimated work, work units (docs/cost.md).
    public let work: Double

    public init(_ document: JSONValue, tolerance: Double, limits: Limits) throws(Problem) {
        guard case .object = document else { throw Problem.wrongType(at: .root, expected: "an object", found: document) }
        // Other tokens are ignored (rule 39): a broken alias among the colours is not this route's.
        let read = DesignTokenDocument(document) { $0.map(MotionToken.types.contains) ?? false }
        var errors = read.errors.map { (pointer: $0.pointer.description, detail: $0.detail) }
        var tokens: [MotionToken] = []
        var names: [String: String] = [:]
        for token in read.tokens {
            do throws(Problem) {
                guard let motion = try MotionToken(token, limits: limits) else { continue }
                let name = TokenExport.propertyName(token.path)
                if let other = names[name] {
                    throw Problem.invalid("`\(token.path.joined(separator: "."))` and `\(other)` are both the custom property \(name)",
                                          at: token.pointer)
                }
                names[name] = token.path.joined(separator: ".")
                tokens.append(motion)
            } catch {
                errors.append((error.pointer ?? token.pointer.description, error.detail))
            }
        }
        guard errors.isEmpty else { throw Self.problem(errors) }
        var work = 0.0
        for token in tokens {
            guard let curve = token.curve else { continue }
            work += try CurveExport.plan(curve, tolerance: tolerance, limits: limits)
            // `steps()` has no Bézier and no `linear()` fallback: its Bézier is searched for here.
            if case .steps = curve.curve { work += SceneCost.fallbackBezier(curve.curve) }
        }
        try Check.work(work, limits: limits, what: "converting these \(tokens.count) motion tokens")
        self.document = document
        self.tokens = tokens
        self.tolerance = tolerance
        self.work = work
    }

    /// One 422 listing every problem: the first as its detail and pointer, all in `errors`.
    static func problem(_ errors: [(pointer: String, detail: String)]) -> Problem {
        let listed = errors.prefix(maxErrors).map { error in
            JSONValue.object([.init("pointer", .string(error.pointer)), .init("detail", .string(error.detail))])
        }
        let count = errors.count == 1 ? "1 design token is" : "\(errors.count) design tokens are"
        return Problem(.invalidRequest, detail: "\(count) invalid; the first: \(errors[0].detail)", pointer: errors[0].pointer,
                       extensions: [.init("errors", .array(listed))])
    }
}

/// The converted tokens of a `TokenPlan`, written as CSS or JSON.
public struct TokenExport: Sendable {
    struct Converted: Sendable {
        var token: MotionToken
        var easing: String?
        /// The Bézier tools without Segue get: the exact one, or the fallback of a `linear()`.
        var bezier: CubicBezier?
        var fallback: String?
        var maxError: Double
        var stops: Int
    }

    let plan: TokenPlan
    let converted: [Converted]

    /// The fits; `cancellation` stops them (503).
    public init(_ plan: TokenPlan, cancellation: WorkCancellation? = nil) throws(Problem) {
        self.plan = plan
        var converted: [Converted] = []
        for token in plan.tokens {
            guard let curve = token.curve else {
                converted.append(Converted(token: token, maxError: 0, stops: 0))
                continue
            }
            let export = try CurveExport(curve, tolerance: plan.tolerance, cancellation: cancellation)
            var bezier: CubicBezier?
            if case .cubicBezier(let exact) = curve.curve { bezier = exact }
            bezier = bezier ?? export.fallbackBezier ?? CubicBezierFit { curve.curve.sample(at: $0 * curve.duration, duration: curve.duration).progress }.bezier
            converted.append(Converted(token: token, easing: export.easing, bezier: bezier, fallback: export.fallback?.easing,
                                       maxError: export.maxError, stops: export.stops))
        }
        self.converted = converted
    }

    /// Plans and converts in one step.
    public init(_ document: JSONValue, tolerance: Double, limits: Limits) throws(Problem) {
        try self.init(TokenPlan(document, tolerance: tolerance, limits: limits))
    }

    /// `--a-b-c` for the token at path a.b.c: the path joined with `-`, escaped as a CSS identifier.
    static func propertyName(_ path: [String]) -> String {
        "--" + CSSIdentifier.escape(path.joined(separator: "-"))
    }
}
