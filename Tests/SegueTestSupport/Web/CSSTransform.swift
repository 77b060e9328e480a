import Foundation

/// A 2-D affine matrix in CSS `matrix(a, b, c, d, e, f)` order (CSS Transforms 1 §"Mathematical
/// Description of Transform Functions"): x′ = a·x + c·y + e, y′ = b·x + d·y + f.
public struct CSSMatrix: Equatable, Sendable {
    public var a, b, c, d, e, f: Double

    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    public static let identity = CSSMatrix(1, 0, 0, 1, 0, 0)

    /// [a, b, c, d, e, f].
    public var values: [Double] { [a, b, c, d, e, f] }

    /// `self · other`: `other` applied first, as a transform list is "post multiplied" left to right
    /// (CSS Transforms 1 §"The Transform Function Lists").
    public func concatenating(_ other: CSSMatrix) -> CSSMatrix {
        CSSMatrix(a * other.a + c * other.b, b * other.a + d * other.b,
                  a * other.c + c * other.d, b * other.c + d * other.d,
                  a * other.e + c * other.f + e, b * other.e + d * other.f + f)
    }

    public var determinant: Double { a * d - b * c }
}

/// One `<transform-function>` of CSS Transforms 1 §"2D Transform Functions", lengths in px and angles in
/// radians: `translate`, `translatex`, `translatey`, `scale`, `scalex`, `scaley`, `rotate`, `skew`,
/// `skewx`, `skewy` or `matrix` (names lower-cased), with the arguments as written (one or two for
/// `translate`, `scale` and `skew`).
public struct CSSTransformFunction: Equatable, Sendable {
    public let name: String
    public let arguments: [Double]

    public init(_ name: String, _ arguments: [Double]) {
        self.name = name
        self.arguments = arguments
    }

    /// The function's matrix (CSS Transforms 1 §"Mathematical Description of Transform Functions").
    public var matrix: CSSMatrix {
        let primitive = self.primitive
        let args = primitive.arguments
        switch primitive.name {
        case "translate": return CSSMatrix(1, 0, 0, 1, args[0], args[1])
        case "scale": return CSSMatrix(args[0], 0, 0, args[1], 0, 0)
        case "rotate": return CSSMatrix(cos(args[0]), sin(args[0]), -sin(args[0]), cos(args[0]), 0, 0)
        case "skew": return CSSMatrix(1, tan(args[1]), tan(args[0]), 1, 0, 0)
        case "skewx": return CSSMatrix(1, 0, tan(args[0]), 1, 0, 0)
        case "skewy": return CSSMatrix(1, tan(args[0]), 0, 1, 0, 0)
        default: return CSSMatrix(args[0], args[1], args[2], args[3], args[4], args[5])
        }
    }

    /// The function written as its 2-D primitive (CSS Transforms 1 §"Transform function primitives and
    /// derivatives": `translate()` for translateX/Y, `scale()` for scaleX/Y), with every argument; `skew(a)`
    /// is `skew(a, 0)`. Other functions are their own primitive.
    public var primitive: CSSTransformFunction {
        switch (name, arguments.count) {
        case ("translate", 1): return CSSTransformFunction("translate", [arguments[0], 0])
        case ("translatex", _): return CSSTransformFunction("translate", [arguments[0], 0])
        case ("translatey", _): return CSSTransformFunction("translate", [0, arguments[0]])
        case ("scale", 1): return CSSTransformFunction("scale", [arguments[0], arguments[0]])
        case ("scalex", _): return CSSTransformFunction("scale", [arguments[0], 1])
        case ("scaley", _): return CSSTransformFunction("scale", [1, arguments[0]])
        case ("skew", 1): return CSSTransformFunction("skew", [arguments[0], 0])
        default: return self
        }
    }

    /// The identity transform function of the same kind and argument count (CSS Transforms 1
    /// §"Terminology": translate(0), scale(1), rotate(0), skew(0, 0), matrix(1, 0, 0, 1, 0, 0)…).
    public var identity: CSSTransformFunction {
        switch name {
        case "scale", "scalex", "scaley": return CSSTransformFunction(name, arguments.map { _ in 1 })
        case "matrix": return CSSTransformFunction(name, CSSMatrix.identity.values)
        default: return CSSTransformFunction(name, arguments.map { _ in 0 })
        }
    }
}

/// A computed `transform` value: `none` (nil functions) or a `<transform-list>`.
public struct CSSTransformList: Equatable, Sendable {
    public let functions: [CSSTransformFunction]?

    public init(_ functions: [CSSTransformFunction]?) {
        self.functions = functions
    }

    /// The product of the functions' matrices, left to right; the identity for `none`.
    public var matrix: CSSMatrix {
        (functions ?? []).reduce(CSSMatrix.identity) { $0.concatenating($1.matrix) }
    }

    static let argumentCounts: [String: ClosedRange<Int>] = [
        "translate": 1...2, "translatex": 1...1, "translatey": 1...1, "scale": 1...2, "scalex": 1...1,
        "scaley": 1...1, "rotate": 1...1, "skew": 1...2, "skewx": 1...1, "skewy": 1...1, "matrix": 6...6,
    ]

    /// Parses `none` or a `<transform-list>` of 2-D functions. Lengths must be px (or a unitless 0);
    /// angles deg, rad, grad or turn (or a unitless 0, CSS Transforms 1 §"The Transform Functions").
    public static func parse(_ text: String) throws -> CSSTransformList {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.lowercased() == "none" { return CSSTransformList(nil) }
        let words = CSSText.words(trimmed)
        guard !words.isEmpty else { throw WebFormatError("empty transform") }
        return CSSTransformList(try words.map { word in
            guard let (name, inner) = CSSText.function(word), let counts = argumentCounts[name] else {
                throw WebFormatError("not a 2-D <transform-function>: \(word)")
            }
            let parts = CSSText.split(inner, on: ",", keepEmpty: true)
            guard counts.contains(parts.count) else { throw WebFormatError("wrong argument count: \(word)") }
            return CSSTransformFunction(name, try parts.map { try argument($0, of: name, in: word) })
        })
    }

    static func argument(_ text: String, of name: String, in word: String) throws -> Double {
        guard let (value, unit) = CSSText.dimension(text) else { throw WebFormatError("bad argument \(text) in \(word)") }
        switch (name, unit) {
        case ("scale", ""), ("scalex", ""), ("scaley", ""), ("matrix", ""): return value
        case (let n, "px") where n.hasPrefix("translate"): return value
        case (let n, "") where (n.hasPrefix("translate") || n.hasPrefix("skew") || n == "rotate") && value == 0: return 0
        case (let n, _) where n.hasPrefix("skew") || n == "rotate":
            guard let radians = angleInRadians(value, unit) else { break }
            return radians
        default: break
        }
        throw WebFormatError("unsupported argument \(text) for \(name)() in \(word)")
    }

    /// An `<angle>` in radians (CSS Values 4 §"Angle Units").
    static func angleInRadians(_ value: Double, _ unit: String) -> Double? {
        switch unit {
        case "rad": return value
        case "deg": return value * .pi / 180
        case "grad": return value * .pi / 200
        case "turn": return value * 2 * .pi
        default: return nil
        }
    }
}
