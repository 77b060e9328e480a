import SegueEngine
import SegueJSON

/// Lottie animatable properties (lottie-spec "Properties"): `{"a": 0, "k": value}` for a value
/// that never changes, else `{"a": 1, "k": [keyframes]}`.
///
/// A keyframe holds its time `t` in frames, its value `s` (an array, also for scalars: "Scalar"
/// keyframes are vector keyframes) and, except the last, the easing to the next keyframe: `o`
/// and `i`, the first and second control points of the easing's cubic Bézier (linear: o = (0, 0),
/// i = (1, 1); an exact piece's `cubic-bezier(x1, y1, x2, y2)`: o = (x1, y1), i = (x2, y2)), one
/// entry per dimension.
///
/// A jump is two keyframes at one time, holding the value before and the value after it (the fit
/// is right-hand). The first of the two is a hold keyframe (`h`: 1, "the property will keep the
/// same value until the next keyframe"), so the value it held is never mixed with the one after;
/// from that time on, players read the second keyframe (lottie-web and lottie-android pick the
/// last keyframe whose time is at or before the frame), which is Segue's value at the jump.
enum LottieProperty {
    static func constant(_ value: [Double], scalar: Bool) -> JSONValue {
        .object([.init("a", .number(0)), .init("k", scalar ? .number(value.first ?? 0) : numbers(value))])
    }

    /// Parameters `range` of a fit as one property; constant when they never change.
    static func from(_ fit: LottieFitter.Fit, _ range: Range<Int>, scalar: Bool) -> JSONValue {
        switch fit {
        case .constant(let value):
            return constant(Array(value[range]), scalar: scalar)
        case .keyframes(let keyframes):
            let first = Array(keyframes[0].parameters[range])
            if keyframes.allSatisfy({ Array($0.parameters[range]) == first }) { return constant(first, scalar: scalar) }
            return .object([.init("a", .number(1)),
                            .init("k", .array(keyframes.indices.map { keyframe(keyframes, $0, range) }))])
        }
    }

    static func keyframe(_ keyframes: [Keyframe], _ k: Int, _ range: Range<Int>) -> JSONValue {
        let key = keyframes[k]
        var members: [JSONValue.Member] = [.init("t", .number(key.position)),
                                           .init("s", numbers(Array(key.parameters[range])))]
        guard k + 1 < keyframes.count else { return .object(members) }
        if keyframes[k + 1].position == key.position {
            members.append(.init("h", .number(1)))
            return .object(members)
        }
        let (out, into) = handles(key.easing)
        members.append(.init("o", handle(out, dimensions: range.count)))
        members.append(.init("i", handle(into, dimensions: range.count)))
        return .object(members)
    }

    /// The easing's control points (out, in): linear, or a cubic Bézier (exact pieces are only
    /// ever made of Béziers here).
    static func handles(_ easing: KeyframeEasing) -> ((Double, Double), (Double, Double)) {
        if case .curve(.cubicBezier(let b)) = easing { return ((b.x1, b.y1), (b.x2, b.y2)) }
        return ((0, 0), (1, 1))
    }

    static func handle(_ point: (Double, Double), dimensions: Int) -> JSONValue {
        .object([.init("x", numbers(Array(repeating: point.0, count: dimensions))),
                 .init("y", numbers(Array(repeating: point.1, count: dimensions)))])
    }

    static func numbers(_ values: [Double]) -> JSONValue { .array(values.map { .number($0) }) }
}

/// What a layer cannot show (docs/rules.md rule 29), each as a warning at the view's channel,
/// checked at the render's frames: custom channels; a rectangle without a size; a transform with
/// a skew (the layer's `r` and `s` carry rotation and scale only); a `cornerRadius` over half the
/// rectangle's shorter side (players clamp the roundness there); colour components outside
/// [0, 1] (clamped: lottie-spec "Color").
enum LottieWarnings {
    static func of(_ view: ViewChannels, scene: Scene, frames: [Double]) -> [RequestWarning] {
        let at = JSONPointer(["views", view.name])
        var warnings = view.custom.map { channel in
            let name = scene.channels[channel].name
            return RequestWarning(pointer: at / name, detail: "the custom channel `\(name)` has no Lottie equivalent: the layer leaves it out")
        }
        if let center = view.center, !view.isSized {
            warnings.append(RequestWarning(pointer: at / scene.channels[center].name,
                                    detail: "the view has no `bounds`: its Lottie rectangle is 0 × 0 (UIKit's default size)"))
        }
        if let transform = view.transform,
           let t = frames.first(where: { RotationScale(view.matrix(scene, at: $0)).skewed }) {
            warnings.append(RequestWarning(pointer: at / scene.channels[transform].name,
                                    detail: "the transform has a skew (first at t = \(CSSText.number(t))) that the layer's rotation `r` and "
                                        + "scale `s` cannot carry: only its rotation and scale are written"))
        }
        if let radius = view.cornerRadius, let t = frames.first(where: { t in
            let size = view.size(scene, at: t)
            return ViewChannels.scalar(scene, radius, at: t) > min(abs(size.w), abs(size.h)) / 2
        }) {
            warnings.append(RequestWarning(pointer: at / scene.channels[radius].name,
                                    detail: "`cornerRadius` is over half the rectangle's shorter side (first at t = \(CSSText.number(t))), "
                                        + "where Lottie players clamp the rectangle's roundness `r`"))
        }
        if let color = view.color, let t = frames.first(where: { t in
            scene.channels[color].value(at: t).numbers.prefix(3).contains { !(0...1).contains($0) }
        }) {
            warnings.append(RequestWarning(pointer: at / scene.channels[color].name,
                                    detail: "`backgroundColor` leaves [0, 1] (first at t = \(CSSText.number(t))): "
                                        + "Lottie colours are clamped to it"))
        }
        return warnings
    }
}
