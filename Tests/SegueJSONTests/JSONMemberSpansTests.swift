import Foundation
import SegueJSON
import SegueTestSupport
import XCTest

/// `JSONMemberSpans`: where each top-level member's value lies in the text (a batch line's `body`
/// and `tolerance` are passed on as written, rule 36). Hand-picked documents with the tricky
/// boundaries, then a seeded property test: for random objects written with random whitespace,
/// every span is exactly the text the value was written as, and reads back to the parsed member.
final class JSONMemberSpansTests: XCTestCase {
    /// The members of `text` as (key, the span's text).
    private func spans(_ text: String) -> [(key: String, text: String)] {
        let bytes = Array(text.utf8)
        return JSONMemberSpans.members(of: bytes).map { span in
            (span.key, String(decoding: bytes[span.value], as: UTF8.self))
        }
    }

    private func assertSpans(_ text: String, _ expected: [(String, String)], file: StaticString = #filePath, line: UInt = #line) {
        // Every document here is one the reader accepts (the scan's precondition).
        XCTAssertNoThrow(try JSONReader.parse(Array(text.utf8), maxDepth: 64), "not JSON: \(text)", file: file, line: line)
        let found = spans(text)
        XCTAssertEqual(found.map(\.key), expected.map(\.0), text, file: file, line: line)
        XCTAssertEqual(found.map(\.text), expected.map(\.1), text, file: file, line: line)
    }

    func testScalarsLiteralsAndNumbers() {
        assertSpans(#"{"a":1,"b":-12.5e+3,"c":true,"d":false,"e":null,"f":0,"g":1E-7,"h":-0}"#,
                    [("a", "1"), ("b", "-12.5e+3"), ("c", "true"), ("d", "false"), ("e", "null"), ("f", "0"),
                     ("g", "1E-7"), ("h", "-0")])
    }

    func testNestedObjectsAndArraysAreWhole() {
        assertSpans(#"{"body":{"timing":{"type":"spring","p":[1,[2,[3]],{"x":{}}]},"samples":3},"a":[],"b":{},"c":[[[]]],"d":[{"e":[{}]}]}"#,
                    [("body", #"{"timing":{"type":"spring","p":[1,[2,[3]],{"x":{}}]},"samples":3}"#),
                     ("a", "[]"), ("b", "{}"), ("c", "[[[]]]"), ("d", #"[{"e":[{}]}]"#)])
    }

    /// Brackets, braces, commas and quotes inside strings do not move the boundaries.
    func testStringsWithEscapedQuotesAndBrackets() {
        assertSpans(#"{"a":"he said \"}\" and ]","b":{"s":"{[\"]}","t":"\\"},"c":"\\","d":"x\\\"y","e":[",]}\"", "}"]}"#,
                    [("a", #""he said \"}\" and ]""#), ("b", #"{"s":"{[\"]}","t":"\\"}"#), ("c", #""\\""#),
                     ("d", #""x\\\"y""#), ("e", #"[",]}\"", "}"]"#)])
        // Escapes of every kind, and text that is not ASCII.
        assertSpans(#"{"a":"\/\b\f\n\r\t\u0041\ud83d\ude00","b":"é😀€","c":"\u005c","d":1}"#,
                    [("a", #""\/\b\f\n\r\t\u0041\ud83d\ude00""#), ("b", #""é😀€""#), ("c", #""\u005c""#), ("d", "1")])
    }

    /// Whitespace before, between and after the tokens is never part of a span.
    func testWhitespaceIsOutsideTheSpans() {
        assertSpans(" \t\r\n{ \n\"a\" \r\n :\t 1 \n, \"b\"\t:\r\n[ 1 , 2 ]\t,\"c\":  \"x y\"  ,\"d\":true\n}\r\n ",
                    [("a", "1"), ("b", "[ 1 , 2 ]"), ("c", "\"x y\""), ("d", "true")])
        assertSpans("{\"n\":-1.5e10\n}", [("n", "-1.5e10")])
        assertSpans("{\"n\":0.25\t}", [("n", "0.25")])
        assertSpans("{\"n\":null\r}", [("n", "null")])
    }

    /// Keys are decoded as the reader decodes them: an escaped spelling names the member.
    func testEscapedKeysAreDecoded() {
        assertSpans(#"{"b\u006fdy":{"x":1},"p\u0061th":"/v1/curve","k\"ey":2,"\\":3,"é\u00e9":4,"":5}"#,
                    [("body", #"{"x":1}"#), ("path", #""/v1/curve""#), ("k\"ey", "2"), ("\\", "3"), ("éé", "4"), ("", "5")])
    }

    func testEmptyObjectAndOtherValues() {
        XCTAssertTrue(JSONMemberSpans.members(of: Array("{}".utf8)).isEmpty)
        XCTAssertTrue(JSONMemberSpans.members(of: Array(" { \n } ".utf8)).isEmpty)
        for text in ["[1,2]", #""s""#, "12", "true", "null", "", "  ", #"[{"a":1}]"#] {
            XCTAssertEqual(JSONMemberSpans.members(of: Array(text.utf8)), [], text)
        }
    }

    func testOffsetsAreIntoTheScannedText() {
        let text = Array(#"{"a" : [1], "bb":"x"}"#.utf8)
        let spans = JSONMemberSpans.members(of: text)
        XCTAssertEqual(spans.map(\.key), ["a", "bb"])
        XCTAssertEqual(spans.map(\.value), [7..<10, 17..<20])
    }

    // MARK: Property

    /// Random objects, written with random whitespace, escapes and nesting: each span is the exact
    /// text its value was written as, and that text parses to the member's value.
    func testRandomObjectsSpansParseToTheirMembers() throws {
        var writer = RandomJSONText(seed: 0x5BA7_C4E5)
        var checkedMembers = 0
        var escapedKeys = 0
        for index in 0..<3000 {
            let document = writer.object()
            let text = document.text
            let parsed: JSONValue
            do throws(JSONSyntaxError) {
                parsed = try JSONReader.parse(text, maxDepth: 64)
            } catch {
                return XCTFail("document #\(index) is not JSON (\(error.detail)): \(String(decoding: text, as: UTF8.self))")
            }
            guard case .object(let members) = parsed else { return XCTFail("document #\(index) is not an object") }
            let spans = JSONMemberSpans.members(of: text)
            let context = "document #\(index): \(String(decoding: text, as: UTF8.self))"
            XCTAssertEqual(spans.map(\.key), members.map(\.key), context)
            XCTAssertEqual(spans.count, document.values.count, context)
            guard spans.count == members.count, spans.count == document.values.count else { continue }
            for (i, span) in spans.enumerated() {
                let bytes = Array(text[span.value])
                XCTAssertEqual(bytes, document.values[i], "member \(i) of \(context)")
                do throws(JSONSyntaxError) {
                    let value = try JSONReader.parse(bytes, maxDepth: 64)
                    XCTAssertEqual(value, members[i].value, "member \(i) of \(context)")
                } catch {
                    XCTFail("member \(i)'s span does not parse (\(error.detail)): \(String(decoding: bytes, as: UTF8.self)) in \(context)")
                }
                checkedMembers += 1
            }
            escapedKeys += document.escapedKeys
        }
        XCTAssertGreaterThan(checkedMembers, 5000)
        XCTAssertGreaterThan(escapedKeys, 100)
    }
}

/// JSON text from a SplitMix64 stream: objects with distinct keys (some spelled with escapes),
/// every kind of value, random whitespace (space, tab, CR, LF) around every token.
private struct RandomJSONText {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    struct Document {
        var text: [UInt8]
        /// Each top-level member's value exactly as written.
        var values: [[UInt8]]
        var escapedKeys: Int
    }

    mutating func below(_ n: Int) -> Int { rng.below(n) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func whitespace() -> [UInt8] {
        guard chance(50) else { return [] }
        let choices: [UInt8] = [0x20, 0x09, 0x0D, 0x0A]
        return (0..<(1 + below(3))).map { _ in choices[below(choices.count)] }
    }

    mutating func object() -> Document {
        var text = whitespace() + Array("{".utf8)
        var values: [[UInt8]] = []
        var escaped = 0
        let count = below(7)
        for i in 0..<count {
            if i > 0 { text += whitespace() + Array(",".utf8) }
            // Distinct by their index, whatever the random part: never duplicates.
            let key = "k\(i)" + randomText(maxLength: 4)
            let (literal, wasEscaped) = keyLiteral(key)
            if wasEscaped { escaped += 1 }
            text += whitespace() + literal + whitespace() + Array(":".utf8) + whitespace()
            let value = self.value(depth: 1)
            text += value
            values.append(value)
        }
        text += whitespace() + Array("}".utf8) + whitespace()
        return Document(text: text, values: values, escapedKeys: escaped)
    }

    /// A key's literal: plain, or with each ASCII letter written as `\u00XX` now and then.
    mutating func keyLiteral(_ key: String) -> ([UInt8], Bool) {
        guard chance(30) else { return (stringLiteral(key), false) }
        var bytes: [UInt8] = [0x22]
        for scalar in key.unicodeScalars {
            if scalar.isASCII, (0x61...0x7A).contains(scalar.value) || (0x30...0x39).contains(scalar.value) {
                bytes += Array(String(format: "\\u%04x", scalar.value).utf8)
            } else {
                bytes += escapedScalar(scalar)
            }
        }
        bytes.append(0x22)
        return (bytes, true)
    }

    mutating func value(depth: Int) -> [UInt8] {
        let kinds = depth >= 5 ? 5 : 7
        switch below(kinds) {
        case 0: return Array(["null", "true", "false"][below(3)].utf8)
        case 1, 2: return number()
        case 3, 4: return stringLiteral(randomText(maxLength: 12))
        case 5:
            var text = Array("[".utf8)
            let count = below(4)
            for i in 0..<count {
                if i > 0 { text += whitespace() + Array(",".utf8) }
                text += whitespace() + value(depth: depth + 1) + whitespace()
            }
            if count == 0 { text += whitespace() }
            return text + Array("]".utf8)
        default:
            var text = Array("{".utf8)
            let count = below(4)
            for i in 0..<count {
                if i > 0 { text += Array(",".utf8) }
                text += whitespace() + stringLiteral("n\(i)" + randomText(maxLength: 3)) + whitespace() + Array(":".utf8)
                text += whitespace() + value(depth: depth + 1) + whitespace()
            }
            if count == 0 { text += whitespace() }
            return text + Array("}".utf8)
        }
    }

    mutating func number() -> [UInt8] {
        var text = chance(30) ? "-" : ""
        text += chance(20) ? "0" : String(1 + below(9)) + String((0..<below(6)).map { _ in Character(String(below(10))) })
        if chance(40) { text += "." + String((0..<(1 + below(5))).map { _ in Character(String(below(10))) }) }
        if chance(25) { text += ["e", "E"][below(2)] + ["", "+", "-"][below(3)] + String(below(30)) }
        return Array(text.utf8)
    }

    /// Text with the characters that trouble a scanner: quotes, backslashes, brackets, braces,
    /// commas, colons, whitespace and control characters, and multi-byte UTF-8.
    mutating func randomText(maxLength: Int) -> String {
        let pieces: [String] = ["a", "z", "0", "\"", "\\", "/", "{", "}", "[", "]", ",", ":", " ", "\t", "\n", "\r",
                                "\u{01}", "\u{1F}", "é", "€", "😀", "\u{2028}", "b", "q"]
        return (0..<below(maxLength + 1)).map { _ in pieces[below(pieces.count)] }.joined()
    }

    /// A string literal, each scalar escaped in one of the ways JSON allows at random.
    mutating func stringLiteral(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [0x22]
        for scalar in text.unicodeScalars { bytes += escapedScalar(scalar) }
        bytes.append(0x22)
        return bytes
    }

    mutating func escapedScalar(_ scalar: Unicode.Scalar) -> [UInt8] {
        let short: [UInt32: String] = [0x22: "\\\"", 0x5C: "\\\\", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x08: "\\b", 0x0C: "\\f"]
        if let escape = short[scalar.value], !chance(25) { return Array(escape.utf8) }
        if scalar.value < 0x20 || scalar.value == 0x22 || scalar.value == 0x5C || chance(10) {
            if scalar.value > 0xFFFF {
                let v = scalar.value - 0x10000
                return Array(String(format: "\\u%04x\\u%04X", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)).utf8)
            }
            return Array(String(format: "\\u%04x", scalar.value).utf8)
        }
        if scalar == "/" && chance(50) { return Array("\\/".utf8) }
        return Array(String(scalar).utf8)
    }
}
