import Foundation
@testable import SegueJSON
import SegueTestSupport
import XCTest

/// The writer's text rules (docs/rules.md "Conventions" and rule 23): integral numbers without a fraction, −0 as
/// 0, otherwise the shortest text that reads back to the same double; strings with exactly the
/// mandatory escapes and everything else passed through as UTF-8.
final class TextWriterTests: XCTestCase {

    // MARK: Numbers

    func testIntegralNumbersHaveNoFraction() {
        let cases: [(Double, String)] = [
            (0, "0"), (1, "1"), (-1, "-1"), (42, "42"), (-3, "-3"), (100, "100"), (1e15, "1000000000000000"),
            (1e16, "10000000000000000"), (1e18, "1000000000000000000"), (123456789012, "123456789012"),
            (0x1p52, "4503599627370496"), (0x1p53, "9007199254740992"), (0x1p53 + 2, "9007199254740994"),
            (-0x1p53, "-9007199254740992"), (0x1p62, "4611686018427387904"),
            // Every integral double below 2^63 in magnitude prints as an integer, up to the largest one.
            (9.2e18, "9200000000000000000"), (0x1p63.nextDown, "9223372036854774784"),
            (-0x1p63.nextDown, "-9223372036854774784"),
        ]
        for (value, text) in cases {
            XCTAssertEqual(written(value), text, "\(value)")
        }
    }

    /// The column writer gives the bytes of one `number` call per value, and stops at a piece's
    /// byte limit after the number that reaches it, so that pieces put together are the whole.
    func testAColumnIsWrittenAsItsNumbersOneByOne() {
        var generator = SplitMix64(seed: 0x7E47_C01)
        var column: [Double] = [0, -0.0, 1, -1, 0.1, 1e-5, 1e21, 0x1p63, 0x1p63.nextDown, -0x1p63, .leastNonzeroMagnitude, .infinity,
                                -.infinity, .nan, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1.0 / 3]
        column += (0..<5000).map { _ in Double(bitPattern: generator.next()) }
        column += (0..<1000).map { Double($0) / 60 }
        // Runs of one value (a repeat is a copy of the text before it): across a run of numbers
        // written per capacity check, 0 beside −0, and repeats of values that are not finite.
        column += Array(repeating: 0.7, count: 3) + [0, -0.0, -0.0, 0] + Array(repeating: 1.0 / 3, count: 70)
            + [.nan, .nan, .infinity, .infinity, 2.5, 2.5, -1e-300, -1e-300]
        var expected = TextWriter()
        for (i, value) in column.enumerated() {
            if i > 0 { expected.byte(0x3B) }
            expected.number(value)
        }
        var whole = TextWriter()
        XCTAssertEqual(whole.numbers(column, from: 0, to: column.count, separator: 0x3B, byteLimit: .max), column.count)
        XCTAssertEqual(whole.bytes, expected.bytes)

        for limit in [1, 7, 100, 4096] {
            var pieces: [UInt8] = []
            var next = 0
            while next < column.count {
                var piece = TextWriter()
                let end = piece.numbers(column, from: next, to: column.count, separator: 0x3B, byteLimit: limit)
                XCTAssertGreaterThan(end, next, "a piece holds at least one number")
                // It ends with the number that reached the limit: one fewer stays under it.
                var shorter = TextWriter()
                _ = shorter.numbers(column, from: next, to: end - 1, separator: 0x3B, byteLimit: .max)
                XCTAssertLessThan(shorter.bytes.count, limit)
                pieces += piece.bytes
                next = end
            }
            XCTAssertEqual(pieces, expected.bytes, "pieces of \(limit) bytes")
        }
        // A range within the column, and an empty one.
        var middle = TextWriter()
        XCTAssertEqual(middle.numbers(column, from: 2, to: 5, separator: 0x2C, byteLimit: .max), 5)
        XCTAssertEqual(String(decoding: middle.bytes, as: UTF8.self), ",1,-1,0.1")
        XCTAssertEqual(middle.numbers(column, from: 3, to: 3, separator: 0x2C, byteLimit: .max), 3)

        // The room asked for ahead of a run is bounded, whatever the column's length: a writer
        // with the text's size and 64 numbers' room to spare writes all 6,102 without growing
        // (asking for the whole column's room, 41 bytes a number, would outgrow it), and
        // `runRoom`, what a caller reserves for it, is within that.
        XCTAssertLessThanOrEqual(TextWriter.runRoom, 64 * TextWriter.numberRoom)
        var sized = TextWriter(capacity: expected.bytes.count + 64 * TextWriter.numberRoom)
        let capacity = sized.bytes.capacity
        _ = sized.numbers(column, from: 0, to: column.count, separator: 0x3B, byteLimit: .max)
        XCTAssertEqual(sized.bytes, expected.bytes)
        XCTAssertEqual(sized.bytes.capacity, capacity, "the column grew the writer")
    }

    /// A column of `width` numbers per frame is written as one JSON array per frame, the bytes of
    /// `numbers(_:)` on each frame's slice, whole or in pieces that end with the frame reaching
    /// the limit.
    func testAFramedColumnIsWrittenAsOneArrayPerFrame() {
        var generator = SplitMix64(seed: 0xF2A3_ED)
        for width in [1, 2, 4, 6] {
            let frames = 700
            let column = (0..<frames * width).map { i in i % 3 == 0 ? Double(i) / 7 : Double(bitPattern: generator.next()) }
                .map { $0.isFinite ? $0 : 0.5 }
            var expected = TextWriter()
            for k in 0..<frames {
                if k > 0 { expected.byte(0x2C) }
                expected.numbers(Array(column[k * width ..< (k + 1) * width]))
            }
            var whole = TextWriter()
            XCTAssertEqual(whole.arrays(column, width: width, from: 0, to: frames, byteLimit: .max), frames)
            XCTAssertEqual(whole.bytes, expected.bytes, "width \(width)")
            for limit in [1, 50, 4096] {
                var pieces: [UInt8] = []
                var next = 0
                while next < frames {
                    var piece = TextWriter()
                    let end = piece.arrays(column, width: width, from: next, to: frames, byteLimit: limit)
                    XCTAssertGreaterThan(end, next, "a piece holds at least one frame")
                    var shorter = TextWriter()
                    _ = shorter.arrays(column, width: width, from: next, to: end - 1, byteLimit: .max)
                    XCTAssertLessThan(shorter.bytes.count, limit)
                    pieces += piece.bytes
                    next = end
                }
                XCTAssertEqual(pieces, expected.bytes, "width \(width), pieces of \(limit) bytes")
            }
        }
        var two = TextWriter()
        XCTAssertEqual(two.arrays([1, -0.0, 0.5, 2], width: 2, from: 0, to: 2, byteLimit: .max), 2)
        XCTAssertEqual(String(decoding: two.bytes, as: UTF8.self), "[1,0],[0.5,2]")
    }

    func testNegativeZeroPrintsAsZero() {
        XCTAssertEqual(written(-0.0), "0")
        XCTAssertEqual(written(0.0), "0")
        XCTAssertEqual(String(decoding: JSONValue.array([.number(-0.0), .number(0)]).bytes, as: UTF8.self), "[0,0]")
        var writer = TextWriter()
        writer.numbers([-0.0, 1, -0.5])
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), "[0,1,-0.5]")
    }

    func testNonIntegralNumbersUseTheShortestRoundTripText() {
        let cases: [(Double, String)] = [
            (0.1, "0.1"), (-0.1, "-0.1"), (0.5, "0.5"), (1.5, "1.5"), (-2.25, "-2.25"), (123.456, "123.456"),
            (0.30000000000000004, "0.30000000000000004"), (1.0 / 3, "0.3333333333333333"), (2.0 / 3, "0.6666666666666666"),
            (.pi, "3.141592653589793"), (0.0001, "0.0001"), (1e-5, "1e-05"), (-1e-5, "-1e-05"), (1.5e-7, "1.5e-07"),
            (1 + .ulpOfOne, "1.0000000000000002"), (4503599627370495.5, "4503599627370495.5"),
            (.leastNonzeroMagnitude, "5e-324"), (.leastNormalMagnitude, "2.2250738585072014e-308"),
            (1e-300, "1e-300"),
            // Integral but at or beyond 2^63: Swift's exponent form (no fraction digits needed).
            (0x1p63, "9.223372036854776e+18"), (-0x1p63, "-9.223372036854776e+18"), (1e19, "1e+19"),
            (1e300, "1e+300"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (-.greatestFiniteMagnitude, "-1.7976931348623157e+308"),
        ]
        for (value, text) in cases {
            XCTAssertEqual(written(value), text, "\(value)")
            XCTAssertTrue(isJSONNumber(text), text)
        }
    }

    func testExponentFormsAreValidJSON() throws {
        // Swift writes two-digit exponents with a sign ("1e-05", "1e+300"): RFC 8259 allows leading
        // zeros and a sign in the exponent, and both readers read the same double back.
        for value in [1e-5, 1e-7, 1.5e-10, .leastNonzeroMagnitude, 1e22, 1e23, 1e100, 1e300, 0x1p63, 1.7976931348623157e308, 2.5e-308] {
            for number in [value, -value] {
                let text = written(number)
                XCTAssertTrue(isJSONNumber(text), text)
                guard case .number(let reread) = try JSONReader.parse(Array(text.utf8), maxDepth: 1) else {
                    return XCTFail("\(text) is not a number")
                }
                XCTAssertEqual(reread.bitPattern, number.bitPattern, text)
                let object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
                XCTAssertEqual((object as? NSNumber)?.doubleValue, number, text)
            }
        }
    }

    func testRandomNumbersAreValidJSONAndShortest() throws {
        var state: UInt64 = 0x1234_5678
        for _ in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407  // LCG, deterministic
            let value = Double(bitPattern: state)
            guard value.isFinite else { continue }
            let text = written(value)
            XCTAssertTrue(isJSONNumber(text), text)
            // Shortest: no other representation with fewer significant digits reads back to it
            // (Swift's description guarantees this; check that the writer used it, or the integer).
            if value != value.rounded(.towardZero) || value.magnitude >= 0x1p63 {
                XCTAssertEqual(text, "\(value)")
            }
            XCTAssertEqual(Double(text)?.bitPattern, (value == 0 ? 0.0 : value).bitPattern, text)
        }
    }

    func testIntegerWriter() {
        for (value, text) in [(Int64(0), "0"), (7, "7"), (-7, "-7"), (Int64.max, "9223372036854775807"),
                              (Int64.min, "-9223372036854775808"), (1_000_000, "1000000")] {
            var writer = TextWriter()
            writer.integer(value)
            XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), text)
        }
    }

    /// A number known as whole units of 10^−scale is written as `number` writes it: every duration
    /// in nanoseconds up to 0.3 ms (across the exponent form's edge at 0.1 ms), random ones up to
    /// 10^15, every scale with random units, their neighbours (not such a double: the check sends
    /// them the long way) and values outside (negative, zero, over 10^15 units, tiny).
    func testNumbersFromUnitsMatchTheShortestText() {
        func text(_ write: (inout TextWriter) -> Void) -> String {
            var writer = TextWriter(capacity: 0)
            write(&writer)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        func check(_ value: Double, scale: Int) {
            XCTAssertEqual(text { w in w.run(room: TextWriter.numberRoom) { $0.number(value, scale: scale) } },
                           text { $0.number(value) }, "\(value) at scale \(scale)")
        }
        var generator = SplitMix64(seed: 0x5CA1_E9)
        for nanoseconds in 0...300_000 { check(Double(nanoseconds) / 1e9, scale: 9) }
        for _ in 0..<200_000 {
            let value = Double(UInt64.random(in: 0..<1_000_000_000_000_000, using: &generator)) / 1e9
            check(value, scale: 9)
            check(value.nextUp, scale: 9)
            check(value.nextDown, scale: 9)
        }
        for scale in 0...15 {
            var power = 1.0
            for _ in 0..<scale { power *= 10 }
            for _ in 0..<5_000 { check(Double(UInt64.random(in: 0..<1_000_000_000_000_000, using: &generator)) / power, scale: scale) }
        }
        for value in [-0.0, -1e-9, -2.5, 1e15, 1e15 + 2, 9.99999999999999e14, .leastNonzeroMagnitude, 1e-10, 0.1, 1e300, 123456.789] {
            for scale in [0, 9, 15] { check(value, scale: scale) }
        }
    }

    // MARK: Strings

    func testMandatoryEscapes() {
        XCTAssertEqual(writtenString("a\"b"), #""a\"b""#)
        XCTAssertEqual(writtenString("a\\b"), #""a\\b""#)
        XCTAssertEqual(writtenString("\n\r\t"), #""\n\r\t""#)
        XCTAssertEqual(writtenString("/"), #""/""#)  // the solidus need not be escaped
        XCTAssertEqual(writtenString("\u{8}\u{C}"), #""\u0008\u000c""#)
        XCTAssertEqual(writtenString("\u{0}"), #""\u0000""#)
        XCTAssertEqual(writtenString("\u{1F}"), #""\u001f""#)
        XCTAssertEqual(writtenString(""), #""""#)
        XCTAssertEqual(writtenString("\\\"\\"), #""\\\"\\""#)
    }

    func testAllControlCharactersAreEscaped() throws {
        for code in 0..<0x20 {
            let scalar = Unicode.Scalar(UInt8(code))
            let bytes = writtenBytes(String(scalar))
            XCTAssertFalse(bytes.contains { $0 < 0x20 }, "U+\(code) written raw")
            let expected: String
            switch code {
            case 0x0A: expected = #""\n""#
            case 0x0D: expected = #""\r""#
            case 0x09: expected = #""\t""#
            default: expected = "\"\\u00" + (code < 16 ? "0" : "1") + String(code % 16, radix: 16) + "\""
            }
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), expected)
            XCTAssertEqual(try JSONReader.parse(bytes, maxDepth: 1), .string(String(scalar)))
            XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) as? String, String(scalar))
        }
    }

    /// The word-at-a-time search for the next byte to escape against the byte-by-byte definition:
    /// every byte value at every position of strings up to three words long, among fillers next to
    /// the searched values and with the high bit set (where a borrow could mislead the word test),
    /// and from every start.
    func testFirstEscapeMatchesTheByteByByteSearch() {
        let fillers: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x61, 0x7F, 0x80, 0xA0, 0xA2, 0xDC, 0xFF]
        for filler in fillers {
            for length in 1...24 {
                for position in 0..<length {
                    for value in UInt8.min...UInt8.max {
                        var bytes = [UInt8](repeating: filler, count: length)
                        bytes[position] = value
                        bytes.withUnsafeBufferPointer { buffer in
                            for start in [0, position / 2, position, min(position + 1, length)] {
                                let expected = buffer[start...].firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
                                XCTAssertEqual(TextRun.firstEscape(in: buffer, from: start), expected,
                                               "\(bytes) from \(start)")
                            }
                        }
                    }
                }
            }
        }
    }

    /// Random byte strings written as literals against the escapes spelled out one byte at a time.
    func testRandomStringsMatchTheEscapeTable() {
        var generator = SplitMix64(seed: 0xE5CA_9E5)
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                Bool.random(using: &generator) ? UInt8.random(in: 0x20...0x7E, using: &generator) : UInt8.random(in: 0...255, using: &generator)
            }
            var expected: [UInt8] = [0x22]
            for byte in bytes {
                switch byte {
                case 0x22: expected += Array(#"\""#.utf8)
                case 0x5C: expected += Array(#"\\"#.utf8)
                case 0x0A: expected += Array(#"\n"#.utf8)
                case 0x0D: expected += Array(#"\r"#.utf8)
                case 0x09: expected += Array(#"\t"#.utf8)
                case ..<0x20: expected += Array(String(format: "\\u%04x", byte).utf8)
                default: expected.append(byte)
                }
            }
            expected.append(0x22)
            var writer = TextWriter(capacity: 0)
            bytes.withUnsafeBufferPointer { writer.string(utf8: $0) }
            XCTAssertEqual(writer.bytes, expected, "\(bytes)")
            XCTAssertEqual(bytes.withUnsafeBufferPointer(TextRun.stringRoom), expected.count, "the room is the literal's length")
        }
    }

    func testNonASCIIPassesThroughAsUTF8() throws {
        for text in ["é", "€", "😀", "𝄞", "\u{7F}", "\u{80}", "\u{A0}", "\u{2028}\u{2029}", "\u{FEFF}", "\u{FFFF}",
                     "\u{10FFFF}", "e\u{301}", "👩‍👩‍👧", "日本語", "Ω≈ç√"] {
            XCTAssertEqual(writtenBytes(text), [0x22] + Array(text.utf8) + [0x22], text)
        }
    }

    func testEveryScalarRoundTrips() throws {
        // All of Unicode's scalar values in one string (4.3 MB of UTF-8), through the writer and
        // both readers.
        var scalars = String.UnicodeScalarView()
        for value in UInt32(0)...0x10FFFF {
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        let text = String(scalars)
        let bytes = writtenBytes(text)
        guard case .string(let reread) = try JSONReader.parse(bytes, maxDepth: 1) else { return XCTFail("not a string") }
        XCTAssertTrue(reread.unicodeScalars.elementsEqual(text.unicodeScalars))
        let foundation = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) as? String
        XCTAssertTrue(foundation?.unicodeScalars.elementsEqual(text.unicodeScalars) ?? false)
        // Only the 32 control characters, the quote and the backslash grow.
        XCTAssertEqual(bytes.count, text.utf8.count + 2 + 1 + 1 + 3 * 1 + 5 * 29)
    }

    // MARK: Values

    func testValuesAreCompactAndKeepMemberOrder() throws {
        let value = JSONValue.object([
            .init("z", .array([.number(1), .bool(true), .bool(false), .null, .string("x")])),
            .init("a", .object([])),
            .init("m\"", .array([])),
            .init("n", .number(-0.5)),
        ])
        let text = String(decoding: value.bytes, as: UTF8.self)
        XCTAssertEqual(text, #"{"z":[1,true,false,null,"x"],"a":{},"m\"":[],"n":-0.5}"#)
        XCTAssertEqual(try JSONReader.parse(value.bytes, maxDepth: 64), value)
    }

    func testPiecesAndKeys() {
        var writer = TextWriter()
        writer.byte(0x7B)
        writer.key("a", first: true)
        writer.number(1)
        writer.key("b")
        writer.raw("null")
        writer.byte(0x7D)
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), #"{"a":1,"b":null}"#)
    }

    // MARK: Helpers

    private func written(_ value: Double) -> String {
        var writer = TextWriter()
        writer.number(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func writtenBytes(_ text: String) -> [UInt8] {
        var writer = TextWriter()
        writer.string(text)
        return writer.bytes
    }

    private func writtenString(_ text: String) -> String { String(decoding: writtenBytes(text), as: UTF8.self) }

    /// The RFC 8259 number grammar.
    private func isJSONNumber(_ text: String) -> Bool {
        text.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil
    }
}
