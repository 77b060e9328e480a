import Foundation

/// A layer's transform at one frame, in the units Lottie writes: position and anchor in px, scale in
/// percent, rotation in degrees, opacity in percent (0–100).
public struct LottieTransform: Equatable, Sendable {
    public var position: [Double]
    public var anchor: [Double]
    public var scale: [Double]
    public var rotation: Double
    public var opacity: Double
}

/// A Lottie (Bodymovin 5.x) document's layer transforms (`ks`), evaluated at a frame number the way the
/// Lottie format specification (lottie-spec, docs/specs/properties.md "Keyframes", "Keyframe Easing")
/// describes and lottie-web's `interpolateValue` (player/js/utils/PropertyFactory.js) does it.
///
/// - A property is static (`{"a": 0, "k": value}`) or animated (`{"a": 1, "k": [keyframes]}`); a
///   position may also be split (`{"s": true, "x": …, "y": …}`).
/// - Between keyframe k and k+1 the value is `s_k + (s_k+1 − s_k) · E(x)` with x the fraction of the
///   time from `t_k` to `t_k+1` and E the cubic Bézier from (0, 0) through `o` and `i` to (1, 1). Both
///   handles are those of the START keyframe k: the spec says `o` "is the first one in the bezier,
///   determines the curve as it exits the current keyframe" and `i` "is the second one in the bezier,
///   determines the curve as it enters the next keyframe"; lottie-web reads `keyData.o` and `keyData.i`
///   of the current keyframe. With arrays, dimension j uses element j (element 0 if there is no j).
///   When k+1 has no `s`, k's `e` is the end value (older files).
/// - `h: 1` on keyframe k holds `s_k` until `t_k+1`.
/// - Before the first keyframe the value is the first keyframe's; from the last keyframe on, the last's.
///
/// Spatial tangents (`ti`/`to`) bending a position's path are not evaluated: a position keyframe with
/// non-zero tangents is refused.
public struct LottieDocument: Sendable {
    public struct Layer: Sendable {
        public let name: String
        public let type: Int
        let position: LottieProperty
        let anchor: LottieProperty
        let scale: LottieProperty
        let rotation: LottieProperty
        let opacity: LottieProperty
    }

    public let frameRate: Double
    public let inPoint: Double
    public let outPoint: Double
    public let layers: [Layer]

    public init(json: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw WebFormatError("a Lottie document is a JSON object")
        }
        frameRate = (root["fr"] as? NSNumber)?.doubleValue ?? 60
        inPoint = (root["ip"] as? NSNumber)?.doubleValue ?? 0
        outPoint = (root["op"] as? NSNumber)?.doubleValue ?? 0
        layers = try (root["layers"] as? [[String: Any]] ?? []).enumerated().map { index, layer in
            let name = layer["nm"] as? String ?? "\(index)"
            let transform = layer["ks"] as? [String: Any] ?? [:]
            func property(_ key: String, _ fallback: [Double]) throws -> LottieProperty {
                guard let object = transform[key] else { return .constant(fallback) }
                return try LottieProperty(object, "\(name).ks.\(key)")
            }
            return Layer(name: name, type: (layer["ty"] as? NSNumber)?.intValue ?? -1,
                         position: try property("p", [0, 0, 0]), anchor: try property("a", [0, 0, 0]),
                         scale: try property("s", [100, 100, 100]), rotation: try property("r", [0]),
                         opacity: try property("o", [100]))
        }
    }

    /// The frame number shown at `seconds` (frame rate × time).
    public func frame(atSeconds seconds: Double) -> Double { seconds * frameRate }

    /// The transform of the layer named `name` (`nm`) at frame `frame`.
    public func transform(layer name: String, at frame: Double) throws -> LottieTransform {
        guard let layer = layers.first(where: { $0.name == name }) else { throw WebFormatError("no layer named \(name)") }
        return layer.transform(at: frame)
    }

    /// Every layer's transform at `frame`, by name.
    public func transforms(at frame: Double) -> [String: LottieTransform] {
        Dictionary(layers.map { ($0.name, $0.transform(at: frame)) }) { first, _ in first }
    }
}

extension LottieDocument.Layer {
    public func transform(at frame: Double) -> LottieTransform {
        LottieTransform(position: position.value(at: frame), anchor: anchor.value(at: frame),
                        scale: scale.value(at: frame), rotation: rotation.value(at: frame)[0],
                        opacity: opacity.value(at: frame)[0])
    }
}

/// One animatable property of a Lottie transform.
indirect enum LottieProperty: Sendable {
    case constant([Double])
    case animated([LottieKeyframe])
    case split([LottieProperty])

    init(_ object: Any, _ path: String) throws {
        guard let object = object as? [String: Any] else { throw WebFormatError("\(path) is not an object") }
        if (object["s"] as? NSNumber)?.boolValue == true, object["x"] != nil {
            self = .split(try ["x", "y", "z"].compactMap { key in try object[key].map { try LottieProperty($0, "\(path).\(key)") } })
            return
        }
        if let number = object["k"] as? NSNumber { self = .constant([number.doubleValue]); return }
        if let numbers = object["k"] as? [NSNumber] { self = .constant(numbers.map(\.doubleValue)); return }
        guard let keyframes = object["k"] as? [[String: Any]], !keyframes.isEmpty else {
            throw WebFormatError("\(path).k is neither a value nor keyframes")
        }
        self = .animated(try keyframes.enumerated().map { try LottieKeyframe($1, "\(path).k[\($0)]") })
    }

    func value(at frame: Double) -> [Double] {
        switch self {
        case .constant(let values): return values
        case .split(let parts): return parts.map { $0.value(at: frame)[0] }
        case .animated(let keyframes): return LottieKeyframe.value(keyframes, at: frame)
        }
    }
}

/// A keyframe (lottie-spec "Keyframes"): time `t`, value `s` (or only an end value `e`), easing handles
/// `o` and `i` (x and y each a number or one number per dimension) and the hold flag `h`.
struct LottieKeyframe: Sendable {
    let time: Double
    let start: [Double]?
    let end: [Double]?
    let out: (x: [Double], y: [Double])?
    let `in`: (x: [Double], y: [Double])?
    let hold: Bool

    init(_ object: [String: Any], _ path: String) throws {
        guard let time = (object["t"] as? NSNumber)?.doubleValue else { throw WebFormatError("\(path) has no t") }
        self.time = time
        start = Self.numbers(object["s"])
        end = Self.numbers(object["e"])
        out = try Self.handle(object["o"], "\(path).o")
        self.in = try Self.handle(object["i"], "\(path).i")
        hold = (object["h"] as? NSNumber)?.intValue == 1
        for key in ["ti", "to"] where (Self.numbers(object[key]) ?? []).contains(where: { $0 != 0 }) {
            throw WebFormatError("\(path).\(key): spatial tangents are not evaluated")
        }
    }

    static func numbers(_ value: Any?) -> [Double]? {
        if let number = value as? NSNumber { return [number.doubleValue] }
        return (value as? [NSNumber])?.map(\.doubleValue)
    }

    static func handle(_ value: Any?, _ path: String) throws -> (x: [Double], y: [Double])? {
        guard let value else { return nil }
        guard let object = value as? [String: Any], let x = numbers(object["x"]), let y = numbers(object["y"]),
              !x.isEmpty, !y.isEmpty else { throw WebFormatError("\(path) needs x and y") }
        return (x, y)
    }

    /// The value of a keyframed property at `frame`, as lottie-web's `interpolateValue` finds it: the
    /// segment is the last keyframe whose successor's time is after `frame` (or the last segment), a
    /// frame before the segment's start takes progress 0 and one at or after its end progress 1.
    static func value(_ keyframes: [LottieKeyframe], at frame: Double) -> [Double] {
        guard keyframes.count > 1 else { return keyframes[0].start ?? keyframes[0].end ?? [] }
        let index = keyframes.indices.dropLast().first { keyframes[$0 + 1].time > frame } ?? keyframes.count - 2
        let key = keyframes[index], next = keyframes[index + 1]
        let startValue = key.start ?? []
        let endValue = next.start ?? key.end ?? startValue
        if key.hold { return frame >= next.time ? endValue : startValue }
        return startValue.indices.map { j in
            let progress: Double
            if frame >= next.time { progress = 1 }
            else if frame < key.time { progress = 0 }
            else { progress = key.easing(dimension: j, (frame - key.time) / (next.time - key.time)) }
            return startValue[j] + (endValue[j] - startValue[j]) * progress
        }
    }

    /// E(x) for dimension `j`: the cubic Bézier (0, 0), (o.x, o.y), (i.x, i.y), (1, 1), evaluated like a
    /// CSS cubic-bezier() (lottie-web's BezierEaser returns x itself when o.x = o.y and i.x = i.y, which
    /// is the same curve). Without handles the segment is linear.
    func easing(dimension j: Int, _ x: Double) -> Double {
        guard let out, let `in` else { return x }
        func pick(_ values: [Double]) -> Double { j < values.count ? values[j] : values[0] }
        return CSSEasing.cubicBezierOutput(x1: pick(out.x), y1: pick(out.y), x2: pick(`in`.x), y2: pick(`in`.y), x)
    }
}
