import SegueEngine
import SegueJSON

/// Block animations timed by a cubic Bézier, as exact pieces of a Lottie fit (docs/rules.md rule 26:
/// where the consumer has an exact form it is used). Between its start and its completion such an
/// animation moves each channel it targets as from + (to − from) · B(u); Lottie's keyframe easing
/// is the same cubic Bézier (lottie-spec "Keyframe Easing": `o` and `i` the first and second
/// control points), so the whole run is two keyframes.
///
/// Candidates come from the rendered request: every animation with `to` (not `keyframes`,
/// `values` or `dynamics`), a `duration`, a Bézier or named timing (UIKit's `easeInOut` when none
/// is given) and no repeats, over [t − duration, t] for each completion at its end at time t.
/// The fit keeps only those the values confirm (`KeyframeFit`, step 2): a run that was paused,
/// reversed, scrubbed or blended with another animation is fitted like any other motion.
struct LottieExactPieces: Sendable {
    struct Candidate: Sendable {
        var view: String
        var channels: [String]
        var piece: ExactPiece
    }

    let candidates: [Candidate]

    init(_ request: RenderRequest) {
        guard case .object(let members) = request.expanded,
              case .array(let animations)? = Self.member(members, "animations") else {
            candidates = []
            return
        }
        var found: [Candidate] = []
        for (index, animation) in animations.enumerated() {
            guard case .object(let fields) = animation, let block = Self.block(fields) else { continue }
            for event in request.scene.events where event.animation == index && event.event.kind == .completion
                && event.event.position == .end {
                let piece = ExactPiece(start: event.event.t - block.duration, end: event.event.t,
                                       easing: .curve(.cubicBezier(block.bezier)))
                found.append(Candidate(view: block.view, channels: block.channels, piece: piece))
            }
        }
        candidates = found
    }

    /// The candidates for a target of `view` that reads `channels` (names).
    func pieces(view: String, channels: [String]) -> [ExactPiece] {
        candidates.filter { $0.view == view && $0.channels.contains(where: channels.contains) }.map(\.piece)
    }

    /// A Bézier-timed block animation's view, targeted channels, duration and curve.
    static func block(_ fields: [JSONValue.Member]) -> (view: String, channels: [String], duration: Double, bezier: CubicBezier)? {
        guard case .string(let view)? = member(fields, "view"), case .object(let to)? = member(fields, "to"),
              case .number(let duration)? = member(fields, "duration"), duration > 0,
              ["keyframes", "values", "dynamics"].allSatisfy({ member(fields, $0) == nil }),
              member(fields, "repeatCount").map({ $0 == .number(1) }) ?? true,
              member(fields, "autoreverses").map({ $0 == .bool(false) }) ?? true else { return nil }
        var timing = TimingSpec.named(.easeInOut)
        if let given = member(fields, "timing") {
            guard let decoded = try? TimingDecoder.decode(given, at: .root) else { return nil }
            timing = decoded
        }
        guard case .cubicBezier(let bezier)? = timing.fractionCurve else { return nil }
        return (view, to.map(\.key), duration, bezier)
    }

    /// A member's value; `null` is absent.
    static func member(_ members: [JSONValue.Member], _ key: String) -> JSONValue? {
        guard let value = members.first(where: { $0.key == key })?.value, value != .null else { return nil }
        return value
    }
}
