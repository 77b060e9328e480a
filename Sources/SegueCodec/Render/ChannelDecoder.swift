import SegueEngine
import SegueJSON

extension ChannelKind {
    /// CSV column suffixes (rule 23).
    public func columns(for name: String) -> [String] {
        switch self {
        case .scalar: [""]
        case .transform: [".a", ".b", ".c", ".d", ".tx", ".ty"]
        case .array(let n):
            switch name {
            case "frame", "bounds": [".x", ".y", ".w", ".h"]
            case "backgroundColor": [".r", ".g", ".b", ".a"]
            default: (0..<n).map { ".\($0)" }
            }
        }
    }
}

enum ChannelDecoder {
    /// Largest magnitude of a channel number: far beyond any screen, and small enough that no
    /// interpolation between two values (or an overshoot of a few times the distance) overflows.
    static let maxMagnitude = 1e15

    /// A value for channel `name` of a known kind. Colours and alpha lie in 0…1 (docs/rules.md "Conventions"),
    /// `cornerRadius` is ≥ 0, and every number within ±`maxMagnitude` (rule 12: out of range
    /// is a 422).
    static func value(_ json: JSONValue, name: String, kind: ChannelKind, at pointer: JSONPointer) throws(Problem) -> ChannelValue {
        let value: ChannelValue
        switch kind {
        case .scalar:
            guard case .number(let number) = json else {
                throw Problem.wrongType(at: pointer, expected: "a number", found: json)
            }
            value = .vector([number])
        case .array(let count):
            let numbers = try numberArray(json, at: pointer)
            guard numbers.count == count else {
                throw Problem.invalid("\(pointer.display) must hold \(count) numbers, not \(numbers.count)", at: pointer)
            }
            value = .vector(numbers)
        case .transform:
            value = .transform(try transform(json, at: pointer))
        }
        for (i, number) in value.numbers.enumerated() {
            let at = kind == .scalar || kind == .transform ? pointer : pointer / i
            try Check.within(number, -maxMagnitude...maxMagnitude, at)
            switch name {
            case "alpha", "backgroundColor": try Check.within(number, 0...1, at)
            case "cornerRadius": try Check.nonNegative(number, at)
            default: break
            }
        }
        return value
    }

    /// The kind of a custom channel from its first value: a number or an array of numbers.
    static func customKind(_ json: JSONValue, at pointer: JSONPointer) throws(Problem) -> ChannelKind {
        switch json {
        case .number: return .scalar
        case .array(let elements):
            guard !elements.isEmpty, elements.count <= 64 else {
                throw Problem.invalid("a custom channel holds a number or 1 to 64 numbers", at: pointer)
            }
            return .array(elements.count)
        default:
            throw Problem.wrongType(at: pointer, expected: "a number or an array of numbers", found: json)
        }
    }

    static func numberArray(_ json: JSONValue, at pointer: JSONPointer) throws(Problem) -> [Double] {
        guard case .array(let elements) = json else {
            throw Problem.wrongType(at: pointer, expected: "an array of numbers", found: json)
        }
        var numbers: [Double] = []
        numbers.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            guard case .number(let number) = element else {
                throw Problem.wrongType(at: pointer / i, expected: "a number", found: element)
            }
            numbers.append(number)
        }
        return numbers
    }

    /// A transform in one of the three input forms of docs/rules.md "Transforms":
    /// `{"translation", "scale", "rotation"}` components (scale, then rotate, then translate),
    /// `{"matrix": [a, b, c, d, tx, ty]}`, or `{"ops": [...]}` composed in
    /// CGAffineTransformConcat order (first op applied first).
    static func transform(_ json: JSONValue, at pointer: JSONPointer) throws(Problem) -> TransformEnd {
        var object = try ObjectReader(json, at: pointer)
        let forms = ["matrix", "ops"].filter(object.has)
        let hasComponents = ["translation", "scale", "rotation"].contains(where: object.has)
        guard forms.count + (hasComponents ? 1 : 0) <= 1 else {
            throw Problem.invalid("a transform is given as components, as a `matrix` or as `ops`, not several at once",
                                  at: pointer / (forms.last ?? "matrix"))
        }
        let result: TransformEnd
        if let matrix = object.value("matrix") {
            let numbers = try numberArray(matrix, at: pointer / "matrix")
            guard numbers.count == 6 else {
                throw Problem.invalid("`matrix` holds [a, b, c, d, tx, ty], 6 numbers, not \(numbers.count)",
                                      at: pointer / "matrix")
            }
            result = .matrix(AffineTransform(numbers))
        } else if let ops = try object.array("ops") {
            var matrix = AffineTransform.identity
            var rotation = 0.0
            for (i, op) in ops.enumerated() {
                let (step, angle) = try operation(op, at: pointer / "ops" / i)
                matrix = matrix.concatenating(step)
                rotation += angle
            }
            result = .operations(matrix, rotation: rotation)
        } else {
            var translation = (0.0, 0.0), scale = (1.0, 1.0)
            if let value = object.value("translation") { translation = try Check.pair(value, pointer / "translation") }
            if let value = object.value("scale") { scale = try Check.pair(value, pointer / "scale") }
            let rotation = try object.number("rotation") ?? 0
            result = .components(DecomposedTransform(translation: .init(x: translation.0, y: translation.1), rotation: rotation,
                                                     scale: .init(x: scale.0, y: scale.1)))
        }
        try object.rejectUnknown()
        return result
    }

    /// One op's matrix and its rotation angle (0 but for `rotate`).
    static func operation(_ json: JSONValue, at pointer: JSONPointer) throws(Problem) -> (AffineTransform, Double) {
        var object = try ObjectReader(json, at: pointer)
        guard object.keys.count == 1 else {
            throw Problem.invalid("each op is one of {\"translate\": [x, y]}, {\"rotate\": θ}, {\"scale\": [sx, sy]}", at: pointer)
        }
        let op: (AffineTransform, Double)
        if let value = object.value("translate") {
            let (x, y) = try Check.pair(value, pointer / "translate")
            op = (AffineTransform(translation: (x, y), scale: (1, 1), rotation: 0), 0)
        } else if let angle = try object.number("rotate") {
            op = (AffineTransform(translation: (0, 0), scale: (1, 1), rotation: angle), angle)
        } else if let value = object.value("scale") {
            let (x, y) = try Check.pair(value, pointer / "scale")
            op = (AffineTransform(translation: (0, 0), scale: (x, y), rotation: 0), 0)
        } else {
            throw Problem.invalid("unknown op `\(object.keys.first ?? "")`; expected translate, rotate or scale",
                                  at: pointer / (object.keys.first ?? ""))
        }
        try object.rejectUnknown()
        return op
    }
}
