import Foundation
import SegueJSON

/// The reference parser's verdict on an invalid document, in the reader's terms: the kind
/// `JSONSyntaxError.kind` must have and the path its pointer must name.
public struct ReferenceFailure: Error {
    public var kind: String
    public var path: [String]
}

/// A plain recursive-descent transcription of RFC 8259 §2–§8 plus the reader's policy: failure
/// kinds, pointers (the value being read; member-name and separator failures point at the
/// object or array), the nesting limit, no duplicate names. `lenient` adds the leniencies seen in
/// Linux JSONSerialization (BOM, trailing commas, duplicate names, 512 levels) to classify them.
public struct ReferenceParser {
    private let input: [UInt8]
    private let maxDepth: Int
    private let lenient: Bool
    private var at = 0

    /// The document's value, or the failure the reader must report for it.
    public static func parse(_ input: [UInt8], maxDepth: Int = 64, lenient: Bool = false) -> Result<JSONValue, ReferenceFailure> {
        var parser = ReferenceParser(input: input, maxDepth: lenient ? 512 : maxDepth, lenient: lenient)
        do { return .success(try parser.document()) } catch { return .failure(error) }
    }

    private var current: UInt8? { at < input.count ? input[at] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { at += 1 }
    }

    private func syntax(_ path: [String]) -> ReferenceFailure { ReferenceFailure(kind: "malformed-json", path: path) }

    private mutating func document() throws(ReferenceFailure) -> JSONValue {
        if lenient && input.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
        skipSpace()
        let value = try self.value([], depth: 0)
        skipSpace()
        if at != input.count { throw syntax([]) }
        return value
    }

    private mutating func value(_ path: [String], depth: Int) throws(ReferenceFailure) -> JSONValue {
        guard let byte = current else { throw syntax(path) }
        switch byte {
        case UInt8(ascii: "{"): return try object(path, depth: depth)
        case UInt8(ascii: "["): return try array(path, depth: depth)
        case UInt8(ascii: "\""): return .string(try string(path))
        case UInt8(ascii: "t"): try literal("true", path); return .bool(true)
        case UInt8(ascii: "f"): try literal("false", path); return .bool(false)
        case UInt8(ascii: "n"): try literal("null", path); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number(path))
        default: throw syntax(path)
        }
    }

    private mutating func literal(_ word: String, _ path: [String]) throws(ReferenceFailure) {
        let expected = Array(word.utf8)
        guard input.count - at >= expected.count, Array(input[at..<at + expected.count]) == expected else { throw syntax(path) }
        at += expected.count
    }

    private mutating func array(_ path: [String], depth: Int) throws(ReferenceFailure) -> JSONValue {
        if depth >= maxDepth { throw ReferenceFailure(kind: "nesting-too-deep", path: path) }
        at += 1
        skipSpace()
        var elements: [JSONValue] = []
        if current == UInt8(ascii: "]") { at += 1; return .array([]) }
        while true {
            skipSpace()
            if lenient && !elements.isEmpty && current == UInt8(ascii: "]") { at += 1; return .array(elements) }
            elements.append(try value(path + [String(elements.count)], depth: depth + 1))
            skipSpace()
            if current == UInt8(ascii: ",") {
                at += 1
            } else if current == UInt8(ascii: "]") {
                at += 1
                return .array(elements)
            } else {
                throw syntax(path)
            }
        }
    }

    private mutating func object(_ path: [String], depth: Int) throws(ReferenceFailure) -> JSONValue {
        if depth >= maxDepth { throw ReferenceFailure(kind: "nesting-too-deep", path: path) }
        at += 1
        skipSpace()
        var members: [JSONValue.Member] = []
        if current == UInt8(ascii: "}") { at += 1; return .object([]) }
        while true {
            skipSpace()
            if lenient && !members.isEmpty && current == UInt8(ascii: "}") { at += 1; return .object(members) }
            guard current == UInt8(ascii: "\"") else { throw syntax(path) }
            let name = try string(path)
            if !lenient && members.contains(where: { $0.key == name }) { throw syntax(path + [name]) }
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw syntax(path) }
            at += 1
            skipSpace()
            members.append(.init(name, try value(path + [name], depth: depth + 1)))
            skipSpace()
            if current == UInt8(ascii: ",") {
                at += 1
            } else if current == UInt8(ascii: "}") {
                at += 1
                return .object(members)
            } else {
                throw syntax(path)
            }
        }
    }

    private mutating func string(_ path: [String]) throws(ReferenceFailure) -> String {
        at += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw syntax(path) }
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                // The standard library's validator (not the reader's table) decides well-formedness.
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw ReferenceFailure(kind: "invalid-utf8", path: path)
                }
                return text
            case 0..<0x20:
                throw syntax(path)
            case UInt8(ascii: "\\"):
                guard let escape = current else { throw syntax(path) }
                at += 1
                let simple: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]
                if let decoded = simple[escape] {
                    utf8.append(decoded)
                } else if escape == UInt8(ascii: "u") {
                    var units = [try hex(path)]
                    if UTF16.isLeadSurrogate(units[0]) {
                        guard input.count - at >= 2, input[at] == UInt8(ascii: "\\"), input[at + 1] == UInt8(ascii: "u") else { throw syntax(path) }
                        at += 2
                        units.append(try hex(path))
                        guard UTF16.isTrailSurrogate(units[1]) else { throw syntax(path) }
                    } else if UTF16.isTrailSurrogate(units[0]) {
                        throw syntax(path)
                    }
                    utf8.append(contentsOf: String(decoding: units, as: UTF16.self).utf8)
                } else {
                    throw syntax(path)
                }
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func hex(_ path: [String]) throws(ReferenceFailure) -> UInt16 {
        guard input.count - at >= 4, let text = String(bytes: input[at..<at + 4], encoding: .ascii),
              text.allSatisfy(\.isHexDigit), let unit = UInt16(text, radix: 16) else { throw syntax(path) }
        at += 4
        return unit
    }

    private mutating func number(_ path: [String]) throws(ReferenceFailure) -> Double {
        let start = at
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if current == UInt8(ascii: "-") { at += 1 }
        guard isDigit(current) else { throw syntax(path) }
        if current == UInt8(ascii: "0") {
            at += 1
            if isDigit(current) { throw syntax(path) }  // the reader names the number for a leading zero
        } else {
            while isDigit(current) { at += 1 }
        }
        if current == UInt8(ascii: ".") {
            at += 1
            guard isDigit(current) else { throw syntax(path) }
            while isDigit(current) { at += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            at += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { at += 1 }
            guard isDigit(current) else { throw syntax(path) }
            while isDigit(current) { at += 1 }
        }
        guard let value = Double(String(decoding: input[start..<at], as: UTF8.self)), value.isFinite else {
            throw ReferenceFailure(kind: "number-out-of-range", path: path)
        }
        return value
    }
}

/// JSONSerialization sniffs the encoding from the first bytes (a BOM, or NULs as in UTF-16/32).
func encodingLeniency(_ bytes: [UInt8]) -> String? {
    if bytes.prefix(4).contains(0) { return "NUL among the first bytes (UTF-16/32 sniffing)" }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return "BOM" }
    return nil
}

/// Why JSONSerialization may accept a document that RFC 8259 (and the reader) refuse, or nil: a
/// document Foundation accepts must be explained by one of these.
public func foundationLeniency(_ bytes: [UInt8]) -> String? {
    if let reason = encodingLeniency(bytes), reason != "BOM" { return reason }
    if case .success = ReferenceParser.parse(bytes, lenient: true) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return "BOM" }
        return "trailing comma / duplicate name / nesting"
    }
    return nil
}
