/// A strict RFC 8259 JSON reader for request bodies.
///
/// Why hand-written: Foundation's `JSONDecoder` costs ~25 µs per 300-byte request on the 2-core
/// target machine against ~1.5 µs here (docs/http.md "Why the JSON reader and writer are hand-written"), and it reports
/// neither JSON Pointers nor the precise failure classes docs/rules.md "Conventions" asks for.
///
/// Failure classes (`JSONSyntaxError.Kind`; the service answers each 400), each with the pointer
/// of the value being read:
/// - `malformed-json`: any syntax error, including `NaN`/`Infinity` literals, control characters
///   in strings, lone surrogate escapes, duplicate member names and trailing data;
/// - `invalid-utf8`: a string that is not well-formed UTF-8 (any non-ASCII byte outside a string
///   is already a syntax error);
/// - `number-out-of-range`: a number literal that does not fit a finite double (`1e400`);
/// - `nesting-too-deep`: arrays and objects nested deeper than the limit (never recursing past it,
///   so 10,000 levels cost nothing).
///
/// Verified against `JSONSerialization` by a property test over random documents and by the
/// libFuzzer harness in `Fuzz/` (see README).
public enum JSONReader {
    /// Parses `bytes` as one JSON document.
    public static func parse(_ bytes: [UInt8], maxDepth: Int) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            var reader = Cursor(buffer: buffer, maxDepth: maxDepth)
            do throws(ReadFailure) {
                return try reader.document()
            } catch {
                throw JSONSyntaxError(kind: error.kind, detail: error.detail, pointer: JSONPointer(error.path))
            }
        }
    }
}

/// Why a document was refused, and the pointer of the value being read when it was.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    /// The failure classes listed on `JSONReader`; the raw value is the problem-type slug.
    public enum Kind: String, Sendable {
        case malformedJSON = "malformed-json"
        case invalidUTF8 = "invalid-utf8"
        case numberOutOfRange = "number-out-of-range"
        case nestingTooDeep = "nesting-too-deep"
    }

    public var kind: Kind
    public var detail: String
    public var pointer: JSONPointer

    /// The detail of a `nestingTooDeep` failure under `limit`.
    public static func nestingDetail(limit: Int) -> String {
        "arrays and objects nest deeper than the limit of \(limit)"
    }
}

/// A failure with the path (innermost component last) of the value being read.
struct ReadFailure: Error {
    var kind: JSONSyntaxError.Kind
    var detail: String
    var path: [String] = []
}

private let asciiQuote: UInt8 = 0x22, backslash: UInt8 = 0x5C, slash: UInt8 = 0x2F
private let comma: UInt8 = 0x2C, colon: UInt8 = 0x3A
private let openBracket: UInt8 = 0x5B, closeBracket: UInt8 = 0x5D
private let openBrace: UInt8 = 0x7B, closeBrace: UInt8 = 0x7D
private let minus: UInt8 = 0x2D, plus: UInt8 = 0x2B, dot: UInt8 = 0x2E
private let digit0: UInt8 = 0x30, digit9: UInt8 = 0x39

/// Exact powers of ten representable in a double (10^0 … 10^22): Clinger's fast path here, and
/// the decimal check of `TextRun.number(_:scale:)`.
let exactPowersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
}

private struct Cursor {
    /// Room a non-empty array or object starts with: pairs (`p1`, `frame` origins) and small
    /// request objects then take one allocation instead of growing through 1, 2 and 4.
    static let firstCapacity = 4

    let buffer: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0

    init(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.buffer = buffer
        self.maxDepth = maxDepth
    }

    mutating func document() throws(ReadFailure) -> JSONValue {
        skipWhitespace()
        guard index < buffer.count else {
            throw ReadFailure(kind: .malformedJSON, detail: "the body is empty; a JSON document was expected")
        }
        let value = try self.value()
        skipWhitespace()
        guard index == buffer.count else {
            throw failure("unexpected data after the JSON document")
        }
        return value
    }

    // MARK: Helpers

    func failure(_ what: String) -> ReadFailure {
        ReadFailure(kind: .malformedJSON, detail: "\(what) at byte \(index)")
    }

    func unexpected() -> ReadFailure {
        guard index < buffer.count else { return failure("unexpected end of input") }
        let byte = buffer[index]
        if byte >= 0x20 && byte < 0x7F {
            return failure("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
        return failure("unexpected byte 0x\(String(byte, radix: 16, uppercase: true))")
    }

    mutating func skipWhitespace() {
        while index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func expectLiteral(_ text: StaticString, _ value: JSONValue) throws(ReadFailure) -> JSONValue {
        let count = text.utf8CodeUnitCount
        guard buffer.count - index >= count else { throw unexpected() }
        let start = text.utf8Start
        for offset in 0..<count where buffer[index + offset] != start[offset] {
            throw unexpected()
        }
        index += count
        return value
    }

    // MARK: Values

    mutating func value() throws(ReadFailure) -> JSONValue {
        guard index < buffer.count else { throw unexpected() }
        switch buffer[index] {
        case openBrace: return try object()
        case openBracket: return try array()
        case asciiQuote: return .string(try string())
        case 0x74: return try expectLiteral("true", .bool(true))
        case 0x66: return try expectLiteral("false", .bool(false))
        case 0x6E: return try expectLiteral("null", .null)
        case minus, digit0...digit9: return .number(try number())
        case 0x4E, 0x49: // 'N', 'I'
            throw failure("NaN and Infinity are not JSON numbers; found a non-JSON literal")
        default: throw unexpected()
        }
    }

    mutating func enter() throws(ReadFailure) {
        depth += 1
        guard depth <= maxDepth else {
            throw ReadFailure(kind: .nestingTooDeep, detail: JSONSyntaxError.nestingDetail(limit: maxDepth))
        }
    }

    mutating func array() throws(ReadFailure) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < buffer.count && buffer[index] == closeBracket {
            index += 1
            depth -= 1
            return .array(elements)
        }
        elements.reserveCapacity(Self.firstCapacity)
        while true {
            skipWhitespace()
            do throws(ReadFailure) {
                elements.append(try value())
            } catch {
                var failure = error
                failure.path.insert(String(elements.count), at: 0)
                throw failure
            }
            skipWhitespace()
            guard index < buffer.count else { throw unexpected() }
            if buffer[index] == comma { index += 1; continue }
            if buffer[index] == closeBracket { index += 1; break }
            throw unexpected()
        }
        depth -= 1
        return .array(elements)
    }

    mutating func object() throws(ReadFailure) -> JSONValue {
        try enter()
        index += 1
        var members: [JSONValue.Member] = []
        // Duplicate names: a linear scan while the object is small (request objects have a
        // handful of members), a set once it is not.
        var keys: Set<String>?
        skipWhitespace()
        if index < buffer.count && buffer[index] == closeBrace {
            index += 1
            depth -= 1
            return .object(members)
        }
        members.reserveCapacity(Self.firstCapacity)
        while true {
            skipWhitespace()
            guard index < buffer.count, buffer[index] == asciiQuote else { throw unexpected() }
            let key = try string()
            let duplicate: Bool
            if keys == nil && members.count < 16 {
                duplicate = members.contains { $0.key == key }
            } else {
                if keys == nil { keys = Set(members.map(\.key)) }
                duplicate = !(keys?.insert(key).inserted ?? false)
            }
            guard !duplicate else {
                var failure = failure("duplicate member name")
                failure.path = [key]
                throw failure
            }
            skipWhitespace()
            guard index < buffer.count, buffer[index] == colon else { throw unexpected() }
            index += 1
            skipWhitespace()
            do throws(ReadFailure) {
                members.append(JSONValue.Member(key, try value()))
            } catch {
                var failure = error
                failure.path.insert(key, at: 0)
                throw failure
            }
            skipWhitespace()
            guard index < buffer.count else { throw unexpected() }
            if buffer[index] == comma { index += 1; continue }
            if buffer[index] == closeBrace { index += 1; break }
            throw unexpected()
        }
        depth -= 1
        return .object(members)
    }

    // MARK: Strings

    /// Reads a string starting at its opening quote.
    mutating func string() throws(ReadFailure) -> String {
        index += 1
        let start = index
        var asciiOnly = true
        // Fast scan: no escapes.
        while index < buffer.count {
            let byte = buffer[index]
            if byte == asciiQuote {
                let slice = UnsafeBufferPointer(rebasing: buffer[start..<index])
                index += 1
                if !asciiOnly { try validateUTF8(slice, at: start) }
                return String(decoding: slice, as: UTF8.self)
            }
            if byte == backslash { break }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte >= 0x80 { asciiOnly = false }
            index += 1
        }
        guard index < buffer.count else { throw failure("unterminated string") }
        // Slow path: copy, decoding escapes.
        var bytes = Array(buffer[start..<index])
        var pendingValidation = !asciiOnly
        while index < buffer.count {
            let byte = buffer[index]
            if byte == asciiQuote {
                index += 1
                if pendingValidation {
                    try bytes.withUnsafeBufferPointer { raw throws(ReadFailure) in try validateUTF8(raw, at: start) }
                }
                return String(decoding: bytes, as: UTF8.self)
            }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte >= 0x80 { pendingValidation = true }
            if byte != backslash {
                bytes.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < buffer.count else { throw failure("unterminated string") }
            let escape = buffer[index]
            index += 1
            switch escape {
            case asciiQuote: bytes.append(asciiQuote)
            case backslash: bytes.append(backslash)
            case slash: bytes.append(slash)
            case 0x62: bytes.append(0x08)
            case 0x66: bytes.append(0x0C)
            case 0x6E: bytes.append(0x0A)
            case 0x72: bytes.append(0x0D)
            case 0x74: bytes.append(0x09)
            case 0x75: appendScalar(try unicodeEscape(), to: &bytes)
            default:
                index -= 1
                throw failure("invalid escape sequence")
            }
        }
        throw failure("unterminated string")
    }

    /// Reads the hex digits after `\u` (and a following low surrogate escape when needed).
    mutating func unicodeEscape() throws(ReadFailure) -> Unicode.Scalar {
        let high = try hex4()
        if (0xDC00...0xDFFF).contains(high) { throw failure("lone low surrogate escape") }
        if (0xD800...0xDBFF).contains(high) {
            guard buffer.count - index >= 6, buffer[index] == backslash, buffer[index + 1] == 0x75 else {
                throw failure("lone high surrogate escape")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("lone high surrogate escape") }
            let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw failure("invalid escape sequence") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw failure("invalid escape sequence") }
        return scalar
    }

    mutating func hex4() throws(ReadFailure) -> UInt32 {
        guard buffer.count - index >= 4 else { throw failure("unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = buffer[index]
            let nibble: UInt32
            switch byte {
            case digit0...digit9: nibble = UInt32(byte - digit0)
            case 0x41...0x46: nibble = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: nibble = UInt32(byte - 0x61 + 10)
            default: throw failure("invalid \\u escape")
            }
            value = value << 4 | nibble
            index += 1
        }
        return value
    }

    func appendScalar(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        for unit in UTF8.encode(scalar)! { bytes.append(unit) }
    }

    /// Well-formed UTF-8 (Unicode 15 table 3-7): no overlong forms, no surrogates, ≤ U+10FFFF.
    func validateUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(ReadFailure) {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: throw utf8Failure(at: offset + i)
            }
            guard n - i >= length else { throw utf8Failure(at: offset + i) }
            let b1 = bytes[i + 1]
            guard b1 >= lower && b1 <= upper else { throw utf8Failure(at: offset + i) }
            for k in 2..<max(2, length) where bytes[i + k] & 0xC0 != 0x80 {
                throw utf8Failure(at: offset + i)
            }
            i += length
        }
    }

    func utf8Failure(at offset: Int) -> ReadFailure {
        ReadFailure(kind: .invalidUTF8, detail: "a string is not valid UTF-8 (byte \(offset))")
    }

    // MARK: Numbers

    /// Reads a number per the RFC 8259 grammar. Up to 19 significant digits are accumulated
    /// exactly; Clinger's fast path (mantissa < 2^53, |exponent| ≤ 22) is exactly rounded, and
    /// anything else goes to the standard library's correctly rounded parser.
    mutating func number() throws(ReadFailure) -> Double {
        let start = index
        var negative = false
        if buffer[index] == minus {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var droppedDigits = 0
        var exponent = 0
        var exponentSaturated = false  // explicit exponent digits were skipped: `exponent` is inexact

        guard index < buffer.count, (digit0...digit9).contains(buffer[index]) else {
            if index < buffer.count, buffer[index] == 0x49 {
                throw failure("NaN and Infinity are not JSON numbers; found a non-JSON literal")
            }
            throw unexpected()
        }
        if buffer[index] == digit0 {
            index += 1
            if index < buffer.count, (digit0...digit9).contains(buffer[index]) {
                throw failure("leading zero in a number")
            }
        } else {
            while index < buffer.count, (digit0...digit9).contains(buffer[index]) {
                accumulate(buffer[index], &mantissa, &significantDigits, &droppedDigits)
                index += 1
            }
        }
        exponent += droppedDigits
        if index < buffer.count, buffer[index] == dot {
            index += 1
            guard index < buffer.count, (digit0...digit9).contains(buffer[index]) else {
                throw failure("a digit must follow the decimal point")
            }
            while index < buffer.count, (digit0...digit9).contains(buffer[index]) {
                // A kept digit (or a leading zero) moves the decimal point; a dropped one
                // sends the literal to the slow path anyway.
                if significantDigits < 19 { exponent -= 1 }
                accumulate(buffer[index], &mantissa, &significantDigits, &droppedDigits)
                index += 1
            }
        }
        if index < buffer.count, buffer[index] == 0x65 || buffer[index] == 0x45 {
            index += 1
            var exponentNegative = false
            if index < buffer.count, buffer[index] == plus || buffer[index] == minus {
                exponentNegative = buffer[index] == minus
                index += 1
            }
            guard index < buffer.count, (digit0...digit9).contains(buffer[index]) else {
                throw failure("a digit must follow the exponent marker")
            }
            var explicit = 0
            while index < buffer.count, (digit0...digit9).contains(buffer[index]) {
                if explicit < 100_000 { explicit = explicit * 10 + Int(buffer[index] - digit0) } else { exponentSaturated = true }
                index += 1
            }
            exponent += exponentNegative ? -explicit : explicit
        }

        let value: Double
        if droppedDigits == 0 && !exponentSaturated && mantissa < (1 << 53) && exponent >= -22 && exponent <= 22 {
            let m = Double(mantissa)
            value = exponent < 0 ? m / exactPowersOfTen[-exponent] : m * exactPowersOfTen[exponent]
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
        guard let parsed = Double(text), parsed.isFinite else {
            throw ReadFailure(kind: .numberOutOfRange,
                              detail: "the number \(text.prefix(40)) does not fit a finite double")
        }
        return parsed
    }

    /// Adds one digit to the mantissa while it holds ≤ 19 significant digits; later digits are
    /// counted in `dropped` (the slow path then parses the literal text).
    func accumulate(_ digit: UInt8, _ mantissa: inout UInt64, _ significant: inout Int, _ dropped: inout Int) {
        if mantissa == 0 && digit == digit0 { return }
        if significant < 19 {
            mantissa = mantissa &* 10 &+ UInt64(digit - digit0)
            significant += 1
        } else {
            dropped += 1
        }
    }
}
