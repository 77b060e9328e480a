// libFuzzer harness for `JSONReader` and `JSONWriter` (see Fuzz/README.md and scripts/fuzz.sh).
//
// Compiled into the same module as the SegueJSON sources (not through SwiftPM), so it needs no
// import of SegueJSON. Every check ends in `fatalError` (a trap), which libFuzzer reports as a
// crash together with the input that caused it.

/// The nesting limit of the service's defaults (docs/rules.md "Limits").
private let fuzzMaxDepth = 64

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let value: JSONValue
    do throws(JSONSyntaxError) {
        value = try JSONReader.parse(input, maxDepth: fuzzMaxDepth)
    } catch {
        checkRejection(error, input)
        return 0
    }
    checkValue(value, depth: 0)
    checkNumberLiteral(value, input)

    // Re-encode with the writer, re-parse, and demand the same value (−0 is written as 0).
    let written = value.bytes
    let reread: JSONValue
    do throws(JSONSyntaxError) {
        reread = try JSONReader.parse(written, maxDepth: fuzzMaxDepth)
    } catch {
        fatalError("the writer's output does not parse (\(error.kind) at \(error.pointer)): \(printable(written))")
    }
    guard fuzzSameValue(value, reread) else {
        fatalError("the value changed in a write/read round trip: \(printable(input)) -> \(printable(written))")
    }
    // The writer is deterministic: writing the re-read value gives the same bytes.
    guard reread.bytes == written else {
        fatalError("writing is not idempotent for \(printable(written))")
    }
    return 0
}

/// A refused document names one of the four documented kinds (typed) and an RFC 6901 pointer.
private func checkRejection(_ error: JSONSyntaxError, _ input: [UInt8]) {
    // (Scalar-wise: a member name may start with a combining mark, which `hasPrefix("/")` would
    // see as part of the first Character.)
    let pointer = error.pointer.description
    guard pointer.isEmpty || pointer.unicodeScalars.first == "/" else {
        fatalError("a parse failure without a JSON Pointer for \(printable(input))")
    }
    // RFC 6901: `~` only as the escapes `~0` and `~1` (also before a combining mark).
    let scalars = Array(pointer.unicodeScalars)
    for (i, scalar) in scalars.enumerated() where scalar == "~" {
        guard i + 1 < scalars.count, scalars[i + 1] == "0" || scalars[i + 1] == "1" else {
            fatalError("malformed JSON Pointer \(pointer.debugDescription) for \(printable(input))")
        }
    }
    // Any non-ASCII byte or control character outside a string is a syntax error, so an
    // all-ASCII input can never be refused as invalid UTF-8.
    if error.kind == .invalidUTF8 && input.allSatisfy({ $0 < 0x80 }) {
        fatalError("invalid-utf8 reported for an ASCII input: \(printable(input))")
    }
}

/// Parsed values obey the JSONValue invariants: finite numbers, nesting within the limit.
private func checkValue(_ value: JSONValue, depth: Int) {
    switch value {
    case .number(let number):
        guard number.isFinite else { fatalError("a non-finite number was accepted") }
    case .array(let elements):
        guard depth < fuzzMaxDepth else { fatalError("nesting over the limit was accepted") }
        for element in elements { checkValue(element, depth: depth + 1) }
    case .object(let members):
        guard depth < fuzzMaxDepth else { fatalError("nesting over the limit was accepted") }
        var seen = Set<String>()
        for member in members {
            guard seen.insert(member.key).inserted else { fatalError("a duplicate member name was accepted") }
            checkValue(member.value, depth: depth + 1)
        }
    case .null, .bool, .string:
        break
    }
}

/// A document that is one number literal must read as the standard library's correctly rounded
/// parse of the same text (an independent check of the reader's fast path).
private func checkNumberLiteral(_ value: JSONValue, _ input: [UInt8]) {
    guard case .number(let number) = value else { return }
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    guard let first = input.firstIndex(where: { !isSpace($0) }), let last = input.lastIndex(where: { !isSpace($0) }) else {
        fatalError("a number parsed from blank input")
    }
    let text = String(decoding: input[first...last], as: UTF8.self)
    guard let expected = Double(text), expected.bitPattern == number.bitPattern else {
        fatalError("\(text) reads as \(number) (0x\(String(number.bitPattern, radix: 16))), not \(Double(text).map { "\($0)" } ?? "nil")")
    }
}

/// Exact equality: numbers bit for bit (except that the writer turns −0 into 0), strings scalar
/// for scalar (`String ==` would identify canonically equivalent strings), members in order.
private func fuzzSameValue(_ original: JSONValue, _ reread: JSONValue) -> Bool {
    switch (original, reread) {
    case (.null, .null):
        return true
    case (.bool(let a), .bool(let b)):
        return a == b
    case (.number(let a), .number(let b)):
        return a == 0 ? b.bitPattern == (0.0 as Double).bitPattern : a.bitPattern == b.bitPattern
    case (.string(let a), .string(let b)):
        return a.unicodeScalars.elementsEqual(b.unicodeScalars)
    case (.array(let a), .array(let b)):
        return a.count == b.count && zip(a, b).allSatisfy { fuzzSameValue($0, $1) }
    case (.object(let a), .object(let b)):
        return a.count == b.count && zip(a, b).allSatisfy {
            $0.key.unicodeScalars.elementsEqual($1.key.unicodeScalars) && fuzzSameValue($0.value, $1.value)
        }
    default:
        return false
    }
}

private func printable(_ bytes: [UInt8]) -> String {
    var text = ""
    for byte in bytes.prefix(512) {
        if byte >= 0x20 && byte < 0x7F && byte != 0x5C {
            text.unicodeScalars.append(Unicode.Scalar(byte))
        } else {
            text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }
    }
    return bytes.count > 512 ? text + "…(\(bytes.count) bytes)" : text
}
