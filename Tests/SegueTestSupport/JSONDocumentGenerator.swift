import Foundation
import SegueJSON

/// A random JSON document, written byte by byte together with its model: the value it denotes
/// (the first oracle of a reader) and where each token lies, so that a mutation can break one
/// token and predict the reader's failure kind and pointer.
public struct GeneratedDocument {
    /// A number or literal token: its byte range and the pointer path of its value.
    public struct Site {
        var range: Range<Int>
        var path: [String]
    }

    /// A string literal: the offsets of its quotes and the pointer a failure inside it gets (the
    /// value's own path, or the enclosing object's for a member name).
    public struct StringSite {
        var open: Int
        var close: Int
        var path: [String]
    }

    /// An array or object: the offsets of its brackets, its element or member count, its path and
    /// its member names as written and as read.
    struct ContainerSite {
        var open: Int
        var close: Int
        var isObject: Bool
        var count: Int
        var path: [String]
        var keys: [(text: [UInt8], name: String)]
    }

    public internal(set) var text: [UInt8] = []
    public internal(set) var value: JSONValue = .null
    /// Offsets between tokens (outside strings, numbers and literals).
    var gaps: [Int] = []
    public internal(set) var strings: [StringSite] = []
    public internal(set) var numbers: [Site] = []
    var literals: [Site] = []
    var containers: [ContainerSite] = []
}

/// Random valid JSON documents from a SplitMix64 stream: every kind of value, strings with every
/// escape and awkward scalars (surrogate pairs, U+FEFF, combining marks), numbers of many shapes
/// (extremes, subnormals, long mantissas), whitespace between tokens, and one document in about
/// seven nested deeply. The same seed gives the same documents on every platform.
public struct DocumentGenerator {
    private var rng: SplitMix64
    private var doc = GeneratedDocument()
    private var budget = 0
    private var deepMode = false

    public init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    public mutating func document() -> GeneratedDocument {
        doc = GeneratedDocument()
        budget = 4 + rng.below(60)
        deepMode = rng.chance(0.15)
        space(top: true)
        doc.value = value(depth: 0, path: [])
        space(top: true)
        return doc
    }

    private mutating func emit(_ text: String) { doc.text.append(contentsOf: text.utf8) }

    private static let spaces = ["", "", "", "", " ", " ", "  ", "\n", "\t", "\r\n", " \n    ", "\n\t\t", "\r", " \t \r\n"]

    private mutating func space(top: Bool = false) {
        doc.gaps.append(doc.text.count)
        if rng.chance(top ? 0.3 : 0.45) { emit(rng.pick(Self.spaces)) }
        doc.gaps.append(doc.text.count)
    }

    private mutating func value(depth: Int, path: [String]) -> JSONValue {
        let containerChance = depth >= 8 ? 0 : deepMode ? 0.85 : depth == 0 ? 0.8 : 0.35
        if budget > 0 && rng.chance(containerChance) {
            return rng.chance(0.5) ? array(depth: depth, path: path) : object(depth: depth, path: path)
        }
        budget -= 1
        let start = doc.text.count
        switch rng.below(12) {
        case 0:
            emit("null")
            doc.literals.append(.init(range: start..<doc.text.count, path: path))
            return .null
        case 1, 2:
            let flag = rng.chance(0.5)
            emit(flag ? "true" : "false")
            doc.literals.append(.init(range: start..<doc.text.count, path: path))
            return .bool(flag)
        case 3...7:
            let (text, number) = randomNumber(&rng)
            emit(text)
            doc.numbers.append(.init(range: start..<doc.text.count, path: path))
            return .number(number)
        default:
            return .string(string(path: path, maxLength: 14))
        }
    }

    private mutating func array(depth: Int, path: [String]) -> JSONValue {
        let open = doc.text.count
        let count = deepMode ? 1 + rng.below(2) : rng.below(6)
        emit("[")
        space()
        var elements: [JSONValue] = []
        for i in 0..<count {
            if i > 0 { emit(","); space() }
            elements.append(value(depth: depth + 1, path: path + [String(i)]))
            space()
        }
        doc.containers.append(.init(open: open, close: doc.text.count, isObject: false, count: count, path: path, keys: []))
        emit("]")
        return .array(elements)
    }

    private mutating func object(depth: Int, path: [String]) -> JSONValue {
        let open = doc.text.count
        let count = deepMode ? 1 + rng.below(2) : rng.below(6)
        emit("{")
        space()
        var members: [JSONValue.Member] = []
        var names = Set<String>()
        var keys: [(text: [UInt8], name: String)] = []
        for i in 0..<count {
            // Unique under `String ==`, i.e. also unique byte for byte.
            var keyText: [UInt8] = []
            var name = ""
            for _ in 0..<10 {
                let mark = doc.text.count
                let siteCount = doc.strings.count
                if i > 0 { emit(","); space() }
                let keyStart = doc.text.count
                name = string(path: path, maxLength: 8)
                keyText = Array(doc.text[keyStart...])
                if names.insert(name).inserted { break }
                doc.text.removeSubrange(mark...)
                doc.strings.removeSubrange(siteCount...)
                doc.gaps.removeAll { $0 > mark }
                name = ""
                keyText = []
            }
            if keyText.isEmpty { break }
            keys.append((keyText, name))
            space()
            emit(":")
            space()
            members.append(.init(name, value(depth: depth + 1, path: path + [name])))
            space()
        }
        doc.containers.append(.init(open: open, close: doc.text.count, isObject: true, count: members.count, path: path, keys: keys))
        emit("}")
        return .object(members)
    }

    /// A random string literal; returns its value.
    private mutating func string(path: [String], maxLength: Int) -> String {
        let open = doc.text.count
        emit("\"")
        var scalars = String.UnicodeScalarView()
        for _ in 0..<rng.below(maxLength + 1) {
            let scalar = randomScalar(&rng)
            scalars.append(scalar)
            encode(scalar)
        }
        doc.strings.append(.init(open: open, close: doc.text.count, path: path))
        emit("\"")
        return String(scalars)
    }

    private mutating func encode(_ scalar: Unicode.Scalar) {
        switch scalar {
        case "\"": emit("\\\"")
        case "\\": emit("\\\\")
        case "/": emit(rng.chance(0.5) ? "/" : "\\/")
        case "\u{8}" where rng.chance(0.6): emit("\\b")
        case "\u{C}" where rng.chance(0.6): emit("\\f")
        case "\n" where rng.chance(0.6): emit("\\n")
        case "\r" where rng.chance(0.6): emit("\\r")
        case "\t" where rng.chance(0.6): emit("\\t")
        default:
            if scalar.value < 0x20 || rng.chance(0.25) {
                if scalar.value > 0xFFFF {
                    let offset = scalar.value - 0x10000
                    unicodeEscape(0xD800 + (offset >> 10))
                    unicodeEscape(0xDC00 + (offset & 0x3FF))
                } else {
                    unicodeEscape(scalar.value)
                }
            } else {
                doc.text.append(contentsOf: String(scalar).utf8)
            }
        }
    }

    private mutating func unicodeEscape(_ unit: UInt32) {
        emit("\\u")
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = String((unit >> UInt32(shift)) & 0xF, radix: 16)
            emit(rng.chance(0.5) ? digit.uppercased() : digit)
        }
    }
}

private let specialScalars: [Unicode.Scalar] = [
    "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}", "\u{AD}", "\u{7FF}", "\u{800}", "\u{301}", "\u{2028}", "\u{2029}",
    "\u{D7FF}", "\u{E000}", "\u{FEFF}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{10000}", "\u{1F600}", "\u{1F1FA}",
    "\u{10FFFF}", "\u{0}", "~", "/", "é", "€", "𝄞", "\u{200D}",
]

private func randomScalar(_ rng: inout SplitMix64) -> Unicode.Scalar {
    switch rng.below(12) {
    case 0...4: return Unicode.Scalar(UInt8(0x20 + rng.below(0x5F)))
    case 5: return Unicode.Scalar(UInt8(rng.below(0x20)))
    case 6: return Unicode.Scalar(UInt8(0x80 + rng.below(0x80)))
    case 7:
        let value = UInt32(0x100 + rng.below(0xFFFF - 0x100 - 0x800 + 1))
        return Unicode.Scalar(value < 0xD800 ? value : value + 0x800)!
    case 8: return Unicode.Scalar(UInt32(0x10000 + rng.below(0x100000)))!
    case 9: return rng.pick(["\"", "\\", "/"])
    default: return rng.pick(specialScalars)
    }
}

/// A random JSON number literal of many shapes and the double it denotes (read by the standard
/// library, which rounds correctly). Always finite; underflow to ±0 is allowed.
private func randomNumber(_ rng: inout SplitMix64) -> (String, Double) {
    while true {
        let sign = rng.chance(0.3) ? "-" : ""
        var text: String
        switch rng.below(13) {
        case 0: text = String(rng.below(2001) - 1000)
        case 1: text = String(Int64(bitPattern: rng.next()) >> rng.below(64))
        case 2: text = sign + rng.digits(19 + rng.below(20), leadingNonZero: true)
        case 3: text = rng.pick(["-0", "-0.0", "-0e0", "-0.000E+12", "0", "0.0", "0e-5", "-0E-0", "0.0000"])
        case 4: text = shortest(Double(bitPattern: rng.next()))
        case 5: text = String(format: "%.16e", Double(bitPattern: rng.next()))  // 17 significant digits
        case 6: text = String(format: "%.17g", Double(bitPattern: rng.next()))
        case 7:
            let digits = rng.digits(1 + rng.below(25), leadingNonZero: rng.chance(0.9))
            let point = rng.below(digits.count + 1)
            var mantissa = digits
            if point > 0 && point < digits.count {
                mantissa = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            }
            if mantissa.first == "0" && mantissa.count > 1 && !mantissa.hasPrefix("0.") { mantissa = "0." + mantissa }
            text = sign + mantissa
            if rng.chance(0.7) {
                let exponent = rng.below(640) - 330
                let exponentText = (exponent < 0 ? "-" : rng.pick(["", "+"])) + (rng.chance(0.2) ? "0" : "") + String(exponent.magnitude)
                text += rng.pick(["e", "E"]) + exponentText
            }
        case 8: text = rng.pick(extremeNumbers)
        case 9:
            // Clinger's fast path: mantissa < 2^53, |exponent| ≤ 22.
            let mantissa = rng.next() >> (11 + rng.below(53))
            let exponent = rng.below(45) - 22
            text = sign + (rng.chance(0.5) ? "\(mantissa)e\(exponent)" : decimalPoint(String(mantissa), exponent))
        case 10: text = shortest(Double(bitPattern: rng.next() & 0x800F_FFFF_FFFF_FFFF))          // subnormal
        case 11: text = sign + rng.digits(1 + rng.below(17), leadingNonZero: true) + "e" + String(270 + rng.below(39)) // huge
        default: text = String(Double(Int64(bitPattern: rng.next()) >> rng.below(64)).nextUp)     // integral-ish
        }
        if let value = Double(text), value.isFinite, isJSONNumber(text) { return (text, value) }
    }
}

/// `m × 10^e` written with a decimal point where possible (e.g. "12.345" for 12345e-3).
private func decimalPoint(_ mantissa: String, _ exponent: Int) -> String {
    guard exponent < 0, -exponent < mantissa.count else { return mantissa + (exponent < 0 ? "E" : "E+") + String(exponent) }
    let split = mantissa.count + exponent
    return String(mantissa.prefix(split)) + "." + String(mantissa.dropFirst(split))
}

private func shortest(_ value: Double) -> String { "\(value)" }

private let extremeNumbers = [
    "4.9e-324", "5e-324", "-5e-324", "2.4703282292062328e-324", "2.4703282292062327e-324", "2.2250738585072014e-308",
    "2.2250738585072011e-308", "2.2250738585072012e-308", "1.7976931348623157e308", "1.7976931348623158e+308",
    "-1.7976931348623157E308", "9007199254740993", "9007199254740992", "-9007199254740993", "18446744073709551615",
    "18446744073709551616", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "0.1", "1e23", "8.98846567431158e307", "1e22", "1e-22", "123456789012345678e-40", "0.30000000000000004",
    "1e-400", "-1e-400", "0.000001", "1E-7", "1e+0", "100000000000000000000000", "3.0e-5", "7.2057594037927933e16",
    "1" + String(repeating: "0", count: 300), "0." + String(repeating: "0", count: 320) + "1",
]

/// The RFC 8259 number grammar (guards the generator: `Double(String)` accepts more).
private func isJSONNumber(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    func digits() -> Int {
        let count = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
        bytes = bytes.dropFirst(count)
        return count
    }
    if bytes.first == 0x2D { bytes = bytes.dropFirst() }
    if bytes.first == 0x30 { bytes = bytes.dropFirst() } else if bytes.first.map({ $0 >= 0x31 && $0 <= 0x39 }) != true || digits() == 0 { return false }
    if bytes.first == 0x2E { bytes = bytes.dropFirst(); if digits() == 0 { return false } }
    if bytes.first == 0x65 || bytes.first == 0x45 {
        bytes = bytes.dropFirst()
        if bytes.first == 0x2B || bytes.first == 0x2D { bytes = bytes.dropFirst() }
        if digits() == 0 { return false }
    }
    return bytes.isEmpty
}
