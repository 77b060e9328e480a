import Foundation
import SegueJSON
import SegueTestSupport
import XCTest

// Property tests for `JSONReader` (and the writer's round trip), with three oracles:
//
// 1. the generator's own model of each random document (exact: numbers bit for bit as the
//    correctly rounded `Double(String)` reads the literal, strings scalar for scalar);
// 2. Foundation's `JSONSerialization` (an independent parser; on Linux swift-corelibs-foundation);
// 3. SegueTestSupport's `ReferenceParser`: a deliberately plain, independent transcription of the
//    RFC 8259 grammar plus the reader's documented policy (failure kinds, pointers, nesting limit,
//    no duplicate names), used for random byte-level mutations whose validity is not known up front.
//
// Everything is deterministic: documents come from a SplitMix64 stream with fixed seeds (no
// SystemRandomNumberGenerator, no stdlib `random(in:using:)`, whose algorithm may change).
//
// Where Linux `JSONSerialization` is more lenient than RFC 8259 the tests assert only that our
// reader refuses the document, and count the divergence (printed in the test log). Observed with
// Swift 6.3.1's swift-corelibs-foundation (see also `testDocumentedFoundationDivergences`), it
// ACCEPTS:
//   - trailing commas in arrays and objects: `[1,]`, `{"a":1,}` (but not `[,]`, `{,}`, `[1,,2]`);
//   - duplicate member names: `{"a":1,"a":2}` (the last one wins);
//   - a UTF-8 byte order mark before the document (RFC 8259 §8.1 lets a parser ignore one; our
//     reader does not: a request body is UTF-8 without BOM);
//   - input its encoding sniffing takes for UTF-16: a NUL among the first bytes, so `1\0` and
//     `\0 1` parse as the number 1;
//   - nesting deeper than our limit of 64 (Foundation's own limit is 512) — the service's policy,
//     which RFC 8259 §9 allows.
// It also differs in what it returns:
//   - it drops a raw U+FEFF at the start of a string and right after an escape sequence
//     (`["\u{FEFF}a"]` reads as "a"; it decodes each run between escapes with
//     `String(data:encoding:)`, which strips a BOM) — a Foundation bug; names that then collide
//     merge. Foundation strings are therefore compared without U+FEFF;
//   - it reads the integer literal `-0` as the integer 0 (our reader keeps −0.0; the writer prints
//     −0 as `0` anyway);
//   - it represents many fractional literals as NSDecimalNumber, whose `doubleValue` is NOT
//     correctly rounded (`0.30000000000000004` gives 0.3000000000000001): the comparison re-reads
//     the decimal's exact text instead.
// Both refuse `1e400` (Foundation too rejects literals beyond the double range).
//
// Our reader is stricter than RFC 8259 §8.3 in one deliberate way: member names that are
// canonically equivalent Swift strings (`"é"` as U+00E9 and as `e` + U+0301) count as duplicates,
// because `JSONValue` looks members up with `String ==`. (Foundation merges them into one key.)
//
// Pointers are compared scalar for scalar: these tests found that `JSONPointer.description` once
// escaped `~` and `/` per Character, leaving one unescaped when a combining mark or ZWJ followed it
// (see `testPointerEscapesEachScalar`).

final class JSONReaderPropertyTests: XCTestCase {

    // MARK: Random valid documents

    func testRandomValidDocumentsMatchTheModelFoundationAndTheWriterRoundTrip() throws {
        var generator = DocumentGenerator(seed: 0x5E6E_0001)
        var failures: [String] = []
        var foundationRejected = 0
        var stats = (deepest: 0, numbers: 0, strings: 0, astral: 0, bytes: 0)
        let count = 6000
        for index in 0..<count {
            let document = generator.document()
            stats.deepest = max(stats.deepest, document.value.depth)
            stats.bytes += document.text.count
            stats.numbers += document.numbers.count
            stats.strings += document.strings.count
            if document.text.contains(where: { $0 >= 0xF0 }) { stats.astral += 1 }

            func record(_ message: String) {
                failures.append("document #\(index) \(printable(document.text)): \(message)")
            }
            // 1. Our reader against the model.
            let parsed: JSONValue
            do throws(JSONSyntaxError) {
                parsed = try JSONReader.parse(document.text, maxDepth: 64)
            } catch {
                record("rejected: \(error.kind) at '\(error.pointer.description)' (\(error.detail))")
                continue
            }
            if let difference = exactDifference(parsed, document.value) {
                record("reader differs from the model: \(difference)")
            }
            // 2. Foundation against the model.
            do {
                let object = try JSONSerialization.jsonObject(with: Data(document.text), options: [.fragmentsAllowed])
                if let difference = foundationDifference(object, document.value) {
                    record("JSONSerialization differs from the model: \(difference)")
                }
            } catch {
                foundationRejected += 1
                record("JSONSerialization rejected it: \(error)")
            }
            // 3. The writer's text reads back to the same value (−0 becomes 0).
            let written = parsed.bytes
            do throws(JSONSyntaxError) {
                let reread = try JSONReader.parse(written, maxDepth: 64)
                if let difference = exactDifference(reread, parsed, zeroSignErased: true) {
                    record("writer round trip differs: \(difference); written \(printable(written))")
                }
                if reread.bytes != written { record("writing is not deterministic") }
            } catch {
                record("the writer's output does not parse: \(error.kind) \(printable(written))")
            }
        }
        print("JSONReaderPropertyTests: \(count) valid documents, \(stats.bytes) bytes, \(stats.numbers) numbers, "
              + "\(stats.strings) strings, \(stats.astral) with 4-byte UTF-8, deepest nesting \(stats.deepest)")
        XCTAssertGreaterThanOrEqual(stats.deepest, 8)
        XCTAssertEqual(foundationRejected, 0)
        report(failures)
    }

    // MARK: Invalid documents, invalid by construction

    func testInvalidMutationsAreRejectedWithTheRightKindAndPointer() throws {
        var generator = DocumentGenerator(seed: 0x5E6E_0002)
        var rng = SplitMix64(seed: 0xBAD_D0C)
        var failures: [String] = []
        var perMutation: [String: (count: Int, foundationAccepted: Int)] = [:]
        let target = 4000
        var produced = 0
        while produced < target {
            let document = generator.document()
            let mutation = InvalidMutation.allCases[produced % InvalidMutation.allCases.count]
            guard let mutant = mutation.apply(to: document, &rng) else { continue }
            produced += 1
            perMutation[mutant.label, default: (0, 0)].count += 1
            let context = "\(mutant.label) \(printable(mutant.bytes))"

            do throws(JSONSyntaxError) {
                let value = try JSONReader.parse(mutant.bytes, maxDepth: 64)
                failures.append("accepted \(context) as \(printable(value.bytes))")
            } catch {
                if let kind = mutant.kind, error.kind.rawValue != kind {
                    failures.append("kind \(error.kind), expected \(kind) (\(error.detail)) for \(context)")
                }
                if let path = mutant.path, !samePointer(error.pointer.description, path) {
                    failures.append("pointer '\(error.pointer.description)', expected '\(pointer(path))' for \(context)")
                }
            }
            // The reference parser agrees that it is invalid (a check of the mutation itself).
            if case .success = ReferenceParser.parse(mutant.bytes) {
                failures.append("the reference parser accepts \(context)")
            }
            if (try? JSONSerialization.jsonObject(with: Data(mutant.bytes), options: [.fragmentsAllowed])) != nil {
                perMutation[mutant.label]!.foundationAccepted += 1
                if mutant.foundationMayAccept == nil {
                    failures.append("JSONSerialization accepts \(context)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(produced, 2000)
        let divergences = perMutation.filter { $0.value.foundationAccepted > 0 }
            .sorted { $0.key < $1.key }
            .map { "\($0.key) \($0.value.foundationAccepted)/\($0.value.count)" }
        print("JSONReaderPropertyTests: \(produced) invalid documents over \(perMutation.count) mutation kinds; "
              + "JSONSerialization accepted: \(divergences.joined(separator: ", "))")
        report(failures)
    }

    // MARK: Random byte-level mutations, checked against the reference parser and Foundation

    func testRandomByteMutationsAgreeWithTheReferenceParser() throws {
        var generator = DocumentGenerator(seed: 0x5E6E_0003)
        var rng = SplitMix64(seed: 0xF1_1E)
        var failures: [String] = []
        var outcomes = (accepted: 0, rejected: 0, foundationLenient: [String: Int]())
        for _ in 0..<6000 {
            let document = generator.document()
            var bytes = document.text
            for _ in 0...rng.below(2) { randomEdit(&bytes, &rng) }
            let context = printable(bytes)

            let ours: Result<JSONValue, JSONSyntaxError>
            do throws(JSONSyntaxError) { ours = .success(try JSONReader.parse(bytes, maxDepth: 64)) } catch { ours = .failure(error) }
            let reference = ReferenceParser.parse(bytes)
            switch (ours, reference) {
            case (.success(let value), .success(let expected)):
                outcomes.accepted += 1
                if let difference = exactDifference(value, expected) {
                    failures.append("values differ for \(context): \(difference)")
                }
            case (.failure(let problem), .failure(let expected)):
                outcomes.rejected += 1
                if problem.kind.rawValue != expected.kind || !samePointer(problem.pointer.description, expected.path) {
                    failures.append("reader says \(problem.kind) at '\(problem.pointer.description)' (\(problem.detail)), "
                                    + "reference \(expected.kind) at '\(pointer(expected.path))' for \(context)")
                }
            case (.success, .failure(let expected)):
                failures.append("reader accepts, reference says \(expected.kind) at '\(pointer(expected.path))': \(context)")
            case (.failure(let problem), .success):
                failures.append("reader says \(problem.kind) (\(problem.detail)), reference accepts: \(context)")
            }

            // Foundation: must accept what we accept (with the same value); where it accepts what
            // we refuse, the reason must be one of the documented leniencies.
            let foundation = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            switch (ours, foundation) {
            case (.success(let value), let object?):
                if let difference = foundationDifference(object, value) {
                    failures.append("JSONSerialization differs for \(context): \(difference)")
                }
            case (.success, nil):
                failures.append("JSONSerialization rejects a document we accept: \(context)")
            case (.failure, let object?):
                let reason = foundationLeniency(bytes)
                outcomes.foundationLenient[reason ?? "UNEXPLAINED", default: 0] += 1
                if reason == nil { failures.append("JSONSerialization accepts \(context) as \(object)") }
            case (.failure, nil):
                break
            }
        }
        print("JSONReaderPropertyTests: random byte mutations: \(outcomes.accepted) still valid, \(outcomes.rejected) invalid; "
              + "JSONSerialization leniencies: \(outcomes.foundationLenient.sorted { $0.key < $1.key })")
        XCTAssertGreaterThan(outcomes.accepted, 300)
        XCTAssertGreaterThan(outcomes.rejected, 3000)
        report(failures)
    }

    // MARK: Writer numbers

    func testWriterNumbersReadBackBitIdentically() throws {
        var rng = SplitMix64(seed: 0xD0_0B1E)
        var failures: [String] = []
        var checked = 0
        var foundationChecked = 0
        func check(_ number: Double) {
            guard number.isFinite else { return }
            checked += 1
            var writer = TextWriter(capacity: 32)
            writer.number(number)
            let text = writer.bytes
            let label = "\(number) (0x\(String(number.bitPattern, radix: 16))) written as \(printable(text))"
            guard case .number(let reread)? = try? JSONReader.parse(text, maxDepth: 1) else {
                failures.append("\(label) does not read back as a number")
                return
            }
            let expected = number == 0 ? 0.0 : number  // −0 prints as 0
            if reread.bitPattern != expected.bitPattern { failures.append("\(label) reads back as \(reread)") }
            if number.magnitude < 0x1p63 && number == number.rounded(.towardZero) {
                if text != Array(String(Int64(number)).utf8) { failures.append("\(label): integral, expected integer digits") }
            } else if text != Array("\(number)".utf8) {
                failures.append("\(label): not Swift's shortest round-trip text")
            }
            // A sample also through Foundation (independent reading of the same text).
            if checked % 16 == 0 {
                foundationChecked += 1
                guard let object = try? JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed]),
                      let value = object as? NSNumber,
                      foundationDouble(value).bitPattern == expected.bitPattern || (expected == 0 && foundationDouble(value) == 0)
                else {
                    failures.append("\(label): JSONSerialization reads it differently")
                    return
                }
            }
        }
        // Fixed edge cases.
        let edges: [Double] = [
            0, -0.0, 1, -1, 0.1, 0.5, 1.5, 1e-5, 1e-7, 1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 1e300, -1e-300,
            .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .leastNormalMagnitude.nextDown,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .pi, -.ulpOfOne, 1 + .ulpOfOne,
            0x1p52, 0x1p53, 0x1p53 + 2, 0x1p53 - 1, 0x1p63, -0x1p63, 0x1p63.nextDown, -0x1p63.nextDown,
            9.2e18, 9.2e18.nextUp, 0x1p64, 0x1p64.nextDown, 0x1p1023, Double(bitPattern: 2), Double(bitPattern: 0x000F_FFFF_FFFF_FFFF),
            123456789012345680, 0.30000000000000004, Double(bitPattern: 3),
        ]
        for edge in edges { check(edge); check(-edge) }
        // Random doubles of several shapes.
        for i in 0..<120_000 {
            let number: Double
            switch i % 8 {
            case 0, 1: number = Double(bitPattern: rng.next())                                   // any finite double
            case 2: number = Double(bitPattern: rng.next() & 0x800F_FFFF_FFFF_FFFF)              // subnormals (and ±0)
            case 3: number = Double(Int64(bitPattern: rng.next()) >> rng.below(64))             // integral, |x| ≤ 2^63
            case 4: number = Double(bitPattern: (rng.next() & 0x000F_FFFF_FFFF_FFFF) | 0x43D0_0000_0000_0000 | (rng.next() & (1 << 63))) // [2^62, 2^63)
            case 5: number = Double(rng.below(2_000_001) - 1_000_000) / Double([1, 10, 100, 1000, 1e4, 1e6, 1e9][rng.below(7)])
            case 6: number = Double(bitPattern: (rng.next() & 0x800F_FFFF_FFFF_FFFF) | (UInt64(0x3FF + rng.below(140) - 70) << 52)) // near 1
            default: number = Double(Int64(bitPattern: rng.next()) >> rng.below(64)).nextUp   // around integers
            }
            check(number)
        }
        print("JSONReaderPropertyTests: \(checked) doubles written and read back (\(foundationChecked) also through JSONSerialization)")
        XCTAssertGreaterThanOrEqual(checked, 100_000)
        report(failures)
    }

    // MARK: Explicit cases

    func testNestingLimit() throws {
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let ok = String(repeating: open, count: 64) + "1" + String(repeating: close, count: 64)
            if open == "[" {
                XCTAssertNoThrow(try JSONReader.parse(Array(ok.utf8), maxDepth: 64))
            } else {
                // 64 objects around a number: 64 levels.
                XCTAssertNoThrow(try JSONReader.parse(Array(ok.utf8), maxDepth: 64))
            }
            let deep = String(repeating: open, count: 65) + "1" + String(repeating: close, count: 65)
            let component = open == "[" ? "0" : "a"
            assertProblem(deep, kind: "nesting-too-deep",
                          pointer: "/" + Array(repeating: component, count: 64).joined(separator: "/"))
        }
        // Empty containers count as a level too.
        XCTAssertNoThrow(try JSONReader.parse(Array((String(repeating: "[", count: 63) + "{}" + String(repeating: "]", count: 63)).utf8), maxDepth: 64))
        assertProblem(String(repeating: "[", count: 64) + "{}" + String(repeating: "]", count: 64),
                      kind: "nesting-too-deep", pointer: "/" + Array(repeating: "0", count: 64).joined(separator: "/"))
        // Depth is counted along one path, not in total: many siblings at depth 64 are fine.
        let sibling = String(repeating: "[", count: 63) + "1" + String(repeating: "]", count: 63)
        let wide = "[" + Array(repeating: sibling, count: 50).joined(separator: ",") + "]"
        XCTAssertNoThrow(try JSONReader.parse(Array(wide.utf8), maxDepth: 64))
        // The limit is the parameter.
        assertProblem("[[[]]]", maxDepth: 2, kind: "nesting-too-deep", pointer: "/0/0")
        XCTAssertNoThrow(try JSONReader.parse(Array("[[[]]]".utf8), maxDepth: 3))
        assertProblem("[]", maxDepth: 0, kind: "nesting-too-deep", pointer: "")
        XCTAssertNoThrow(try JSONReader.parse(Array("1".utf8), maxDepth: 0))

        // 10,000 (and 1,000,000) unclosed levels fail fast at level 65, without recursing further.
        for levels in [10_000, 1_000_000] {
            for open in ["[", "{\"k\":", "[{\"k\":"] {
                let text = Array(String(repeating: open, count: levels).utf8)
                let start = Date()
                XCTAssertThrowsError(try JSONReader.parse(text, maxDepth: 64)) { error in
                    XCTAssertEqual((error as? JSONSyntaxError)?.kind.rawValue, "nesting-too-deep")
                }
                XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "\(levels) × \(open)")
            }
        }
    }

    func testNumberOutOfRange() throws {
        assertProblem(#"{"a":[1,1e400]}"#, kind: "number-out-of-range", pointer: "/a/1")
        assertProblem("1e400", kind: "number-out-of-range", pointer: "")
        assertProblem("-1e400", kind: "number-out-of-range", pointer: "")
        assertProblem(#"{"x":{"y":[0,[-1e309]]}}"#, kind: "number-out-of-range", pointer: "/x/y/1/0")
        assertProblem("[1.7976931348623159e308]", kind: "number-out-of-range", pointer: "/0")  // past the halfway point
        assertProblem("[1" + String(repeating: "0", count: 309) + "]", kind: "number-out-of-range", pointer: "/0")
        assertProblem("[0.1e310]", kind: "number-out-of-range", pointer: "/0")
        assertProblem("[1e99999999999999999999]", kind: "number-out-of-range", pointer: "/0")
        // In range (rounding to the largest double or underflowing to zero is fine).
        XCTAssertEqual(try number("1.7976931348623158e308"), .greatestFiniteMagnitude)
        XCTAssertEqual(try number("1.7976931348623157e308"), .greatestFiniteMagnitude)
        XCTAssertEqual(try number("1" + String(repeating: "0", count: 308)), 1e308)
        XCTAssertEqual(try number("1e-400").bitPattern, (0.0).bitPattern)
        XCTAssertEqual(try number("-1e-400").bitPattern, (-0.0).bitPattern)
        XCTAssertEqual(try number("1e-99999999999999999999").bitPattern, (0.0).bitPattern)
        XCTAssertEqual(try number("0e99999999999999999999").bitPattern, (0.0).bitPattern)
        XCTAssertEqual(try number("4.9e-324"), .leastNonzeroMagnitude)
        XCTAssertEqual(try number("2.4703282292062328e-324"), .leastNonzeroMagnitude)
        XCTAssertEqual(try number("2.4703282292062327e-324").bitPattern, (0.0).bitPattern)
        XCTAssertEqual(try number("2.2250738585072011e-308"), Double(bitPattern: 0x000F_FFFF_FFFF_FFFF))  // largest subnormal
    }

    func testLongNumberLiterals() throws {
        // Leading zeros of a fraction move the decimal point without counting as digits, so a long
        // run of them and a long exponent must still add up exactly (a 1 MiB body allows ~10^6).
        let zeros = { (count: Int) in String(repeating: "0", count: count) }
        XCTAssertEqual(try number("0." + zeros(100_003) + "1e100005"), 10)
        XCTAssertEqual(try number("0." + zeros(100_003) + "1e100004"), 1)
        XCTAssertEqual(try number("-0." + zeros(999_999) + "15e1000001"), -15)
        XCTAssertEqual(try number("0." + zeros(999_999) + "125E+0001000000"), 1.25)
        XCTAssertEqual(try number("0." + zeros(100_000) + "1e99990"), 1e-11)
        XCTAssertEqual(try number("0." + zeros(100_000) + "1e100300"), 1e299)
        // 10^-100000 × 10^1000000 is far out of range — it once read as 1: the reader kept only six
        // exponent digits (100000) and took the fast path with the truncated exponent.
        assertProblem("[0." + zeros(99_999) + "1e1000000]", kind: "number-out-of-range", pointer: "/0")
        assertProblem("[0." + zeros(99_990) + "1e1000009]", kind: "number-out-of-range", pointer: "/0")
        assertProblem("[0." + zeros(199_999) + "3E+2000000]", kind: "number-out-of-range", pointer: "/0")
        XCTAssertEqual(try number("0." + zeros(100_000) + "1").bitPattern, (0.0).bitPattern)
        assertProblem("[0." + zeros(100_000) + "1e100400]", kind: "number-out-of-range", pointer: "/0")
        // Long integer parts and fractions.
        XCTAssertEqual(try number("1" + zeros(300_000) + "e-300000"), 1)
        XCTAssertEqual(try number("1" + zeros(100) + "." + zeros(100_000) + "1e-100"), 1)
        XCTAssertEqual(try number("123456789" + zeros(50_000) + "e-50008"), 1.23456789)
        XCTAssertEqual(try number("0." + String(repeating: "9", count: 100_000)), 1)
        XCTAssertEqual(try number("1e" + zeros(100_000) + "22"), 1e22)
        XCTAssertEqual(try number("1e-" + zeros(100_000) + "5"), 1e-5)
    }

    func testNumberReadingIsCorrectlyRounded() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("-0.0", -0.0), ("-0e5", -0.0), ("0.0E-0", 0),
            ("1", 1), ("-1", -1), ("1.5", 1.5), ("1e5", 1e5), ("1E+5", 1e5), ("1e05", 1e5), ("2.5e-3", 0.0025),
            ("0.1", 0.1), ("0.30000000000000004", 0.30000000000000004), ("123456789012345678", 123456789012345680),
            ("9007199254740993", 9007199254740992), ("9007199254740995", 9007199254740996),
            ("9223372036854775807", 0x1p63), ("18446744073709551615", 0x1p64),
            ("1e22", 1e22), ("1e23", 1e23), ("8.98846567431158e307", 8.98846567431158e307),
            ("0.000000000000000000000000000001", 1e-30), ("1" + String(repeating: "0", count: 30) + "e-30", 1),
            ("3.141592653589793238462643383279502884197", .pi),
            ("1.00000000000000011102230246251565404236316680908203125", 1),  // exactly halfway: ties to even
            ("1.00000000000000011102230246251565404236316680908203126", 1.0000000000000002),
            ("9007199254740992.5", 9007199254740992), ("9007199254740993.0000000000000001", 9007199254740994),
            ("1234567890123456789012345678901234567890e-39", 1.2345678901234568), ("0.5e-22", 5e-23),
            ("7.2057594037927933e16", 72057594037927936), ("4503599627370496.5", 4503599627370496),
            ("4503599627370497.5", 4503599627370498), ("2.2250738585072012e-308", 2.2250738585072014e-308),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try number(text).bitPattern, expected.bitPattern, text)
            XCTAssertEqual(try number("-" + text.drop { $0 == "-" }).bitPattern, (-expected.magnitude).bitPattern, "-" + text)
        }
    }

    func testInvalidUTF8() throws {
        assertProblem(bytes: [0x22, 0xFF, 0x22], kind: "invalid-utf8", pointer: "")
        assertProblem(bytes: Array(#"{"k":""#.utf8) + [0xC3] + Array(#""}"#.utf8), kind: "invalid-utf8", pointer: "/k")
        assertProblem(bytes: Array(#"{"k":["ok","a\n"#.utf8) + [0xED, 0xA0, 0x80] + Array(#""]}"#.utf8),
                      kind: "invalid-utf8", pointer: "/k/1")
        // A bad member name: the pointer names the object.
        assertProblem(bytes: Array(#"{"a":{""#.utf8) + [0xC0, 0x80] + Array(#"":1}}"#.utf8), kind: "invalid-utf8", pointer: "/a")
        let bad: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xC2, 0x41], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xE2, 0x82], [0xE2, 0x28, 0xA1], [0xF0, 0x80, 0x80, 0x80],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF0, 0x9F, 0x98],
            [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF], [0xC3, 0xA9, 0xA9],
        ]
        for sequence in bad {
            for (before, after) in [("", ""), ("x", "y"), (#"\n"#, #"\u00e9"#), ("é", "😀")] {
                let body = Array(#"{"s":[""#.utf8) + Array(before.utf8) + sequence + Array(after.utf8) + Array(#""]}"#.utf8)
                assertProblem(bytes: body, kind: "invalid-utf8", pointer: "/s/0")
            }
        }
        // Well-formed boundaries are accepted.
        let good: [String] = ["\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{FFFF}",
                              "\u{10000}", "\u{10FFFF}", "\u{FEFF}", "\u{2028}"]
        for scalar in good {
            XCTAssertEqual(try JSONReader.parse(Array(("\"" + scalar + "\"").utf8), maxDepth: 1), .string(scalar))
        }
        // Outside strings any non-ASCII byte is a syntax error.
        assertProblem(bytes: [0x5B, 0x31, 0x2C, 0xC3, 0xA9, 0x5D], kind: "malformed-json", pointer: "/1")
        assertProblem(bytes: [0xEF, 0xBB, 0xBF, 0x31], kind: "malformed-json", pointer: "")  // BOM
    }

    func testDuplicateMemberNames() throws {
        assertProblem(#"{"a":1,"a":2}"#, kind: "malformed-json", pointer: "/a")
        assertProblem(#"{"x":[{"b":1,"c":2,"b":3}]}"#, kind: "malformed-json", pointer: "/x/0/b")
        assertProblem(#"{"a":1,"\u0061":2}"#, kind: "malformed-json", pointer: "/a")   // equal after unescaping
        assertProblem(#"{"😀":1,"\ud83d\ude00":2}"#, kind: "malformed-json", pointer: "/😀")
        assertProblem(#"{"":1,"":2}"#, kind: "malformed-json", pointer: "/")
        // Canonically equivalent names are duplicates too (see the file comment).
        assertProblem(#"{"\u00e9":1,"e\u0301":2}"#, kind: "malformed-json", pointer: "/e\u{301}")
        // Same name in different objects, or differing only in case, is fine.
        XCTAssertNoThrow(try JSONReader.parse(Array(#"{"a":{"a":1},"b":{"a":2},"A":3}"#.utf8), maxDepth: 64))
    }

    func testPointerEscaping() throws {
        assertProblem(#"{"a/b":{"m~n":[1e400]}}"#, kind: "number-out-of-range", pointer: "/a~1b/m~0n/0")
        assertProblem(#"{"~1":[true,nul]}"#, kind: "malformed-json", pointer: "/~01/1")
        assertProblem(#"{"/":{"~":1,"~":2}}"#, kind: "malformed-json", pointer: "/~1/~0")
        assertProblem(#"{"a\/b":[1,2,"\uD800"]}"#, kind: "malformed-json", pointer: "/a~1b/2")
        assertProblem(#"{"~/~/":[0,01]}"#, kind: "malformed-json", pointer: "/~0~1~0~1/1")
        assertProblem(#"{" ":{"\"":[1.]}}"#, kind: "malformed-json", pointer: "/ /\"/0")
    }

    func testPointerEscapesEachScalar() throws {
        // RFC 6901 escapes the characters `~` and `/` of the member name, also when a combining
        // mark or a ZWJ follows them (one Swift Character, two scalars).
        let body = Array(#"{"a/\u0301":{"~\u200d":[1,1e400]}}"#.utf8)
        do throws(JSONSyntaxError) {
            _ = try JSONReader.parse(body, maxDepth: 64)
            XCTFail("accepted")
        } catch {
            XCTAssertEqual(error.kind.rawValue, "number-out-of-range")
            let expected = "/a~1\u{301}/~0\u{200D}/1"
            XCTAssertTrue(samePointer(error.pointer.description, ["a/\u{301}", "~\u{200D}", "1"]),
                          "\((error.pointer.description).unicodeScalars.map { String($0.value, radix: 16) }), expected \(expected.debugDescription)")
        }
    }

    func testDocumentedFoundationDivergences() throws {
        // Our reader refuses all of these; Foundation's verdict is only reported.
        let cases: [(String, [UInt8])] = [
            ("trailing comma in array", Array("[1,2,]".utf8)), ("trailing comma in object", Array(#"{"a":1,}"#.utf8)),
            ("duplicate names", Array(#"{"a":1,"a":2}"#.utf8)), ("leading BOM", [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)),
            ("NUL after value", [0x31, 0x00]), ("NUL before value", [0x00, 0x31]),
            ("65 levels", Array((String(repeating: "[", count: 65) + String(repeating: "]", count: 65)).utf8)),
            ("canonically equivalent names", Array(#"{"\u00e9":1,"e\u0301":2}"#.utf8)),
        ]
        var accepted: [String] = []
        for (label, bytes) in cases {
            XCTAssertThrowsError(try JSONReader.parse(bytes, maxDepth: 64), label)
            if (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil { accepted.append(label) }
        }
        print("JSONReaderPropertyTests: JSONSerialization accepts: \(accepted.joined(separator: ", "))")
        // Values: −0 and U+FEFF (the reader keeps both).
        XCTAssertEqual(try number("-0").bitPattern, (-0.0).bitPattern)
        XCTAssertEqual(try JSONReader.parse(Array("[\"\u{FEFF}a\"]".utf8), maxDepth: 2), .array([.string("\u{FEFF}a")]))
    }

    func testRFC8259Grammar() throws {
        let invalid: [(String, String)] = [
            ("", ""), ("  ", ""), ("[", "/0"), ("]", ""), ("{", ""), ("[1,]", "/1"), ("{\"a\":1,}", ""), ("[,1]", "/0"),
            ("[1,,2]", "/1"), ("[1 2]", ""), ("{\"a\" 1}", ""), ("{\"a\":}", "/a"), ("{a:1}", ""), ("{'a':1}", ""),
            ("['a']", "/0"), ("NaN", ""), ("-NaN", ""), ("Infinity", ""), ("-Infinity", ""), ("[+1]", "/0"),
            ("[01]", "/0"), ("[-01]", "/0"), ("[00]", "/0"), ("[1.]", "/0"), ("[.5]", "/0"), ("[1e]", "/0"),
            ("[1e+]", "/0"), ("[-]", "/0"), ("[0x10]", ""), ("[1_0]", ""), ("tru", ""), ("True", ""), ("nul", ""),
            ("nulll", ""), ("[true false]", ""), ("\"\\x\"", ""), ("\"\\u12\"", ""), ("\"\\u12G4\"", ""),
            ("\"\\uD800\"", ""), ("\"\\uDC00\"", ""), ("\"\\uD83D\\u0041\"", ""), ("\"\\uD83Dx\"", ""),
            ("\"\\uD83D\\uD83D\"", ""), ("\"\t\"", ""), ("\"\u{0}\"", ""), ("\"\u{1F}\"", ""), ("\"abc", ""),
            ("\"\\", ""), ("1 2", ""), ("{} x", ""), ("[]]", ""), ("/*c*/1", ""), ("1 //c", ""), ("\u{C}1", ""),
            ("[1]\u{0}", ""), ("\"\\'\"", ""), ("\"\\U0041\"", ""),
        ]
        for (text, pointer) in invalid {
            assertProblem(text, kind: "malformed-json", pointer: pointer)
        }
        let valid: [(String, JSONValue)] = [
            ("1", .number(1)), (" \t\r\n1\n", .number(1)), ("true", .bool(true)), ("false", .bool(false)), ("null", .null),
            ("\"\"", .string("")), ("[]", .array([])), ("{}", .object([])), ("[ ]", .array([])), ("{ }", .object([])),
            (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")), (#""\u0000\u001f\u007F""#, .string("\u{0}\u{1F}\u{7F}")),
            (#""\uD83D\uDE00\ud83d\ude00😀""#, .string("😀😀😀")), (#""\uDBFF\uDFFF""#, .string("\u{10FFFF}")),
            (#""\uFFFF\uFEFF""#, .string("\u{FFFF}\u{FEFF}")), ("\"\u{7F}\"", .string("\u{7F}")),
            (#"{"a":[1,{"b":null}],"c":"d"}"#, .object([.init("a", .array([.number(1), .object([.init("b", .null)])])), .init("c", .string("d"))])),
        ]
        for (text, expected) in valid {
            do throws(JSONSyntaxError) {
                let value = try JSONReader.parse(Array(text.utf8), maxDepth: 64)
                XCTAssertNil(exactDifference(value, expected), text)
            } catch {
                XCTFail("\(text.debugDescription) rejected: \(error.kind) \(error.detail)")
            }
        }
        // Member order is kept.
        let object = try JSONReader.parse(Array(#"{"z":1,"a":2,"m":3}"#.utf8), maxDepth: 64)
        guard case .object(let members) = object else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), ["z", "a", "m"])
    }

    // MARK: Helpers

    private func number(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        guard case .number(let value) = try JSONReader.parse(Array(text.utf8), maxDepth: 1) else {
            XCTFail("\(text) is not a number", file: file, line: line)
            return .nan
        }
        return value
    }

    private func assertProblem(_ text: String, maxDepth: Int = 64, kind: String, pointer: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        assertProblem(bytes: Array(text.utf8), maxDepth: maxDepth, kind: kind, pointer: pointer, file: file, line: line)
    }

    private func assertProblem(bytes: [UInt8], maxDepth: Int = 64, kind: String, pointer: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        do throws(JSONSyntaxError) {
            let value = try JSONReader.parse(bytes, maxDepth: maxDepth)
            XCTFail("\(printable(bytes)) accepted as \(printable(value.bytes))", file: file, line: line)
        } catch {
            XCTAssertEqual(error.kind.rawValue, kind, "\(printable(bytes)): \(error.detail)", file: file, line: line)
            XCTAssertEqual(error.pointer.description, pointer, "\(printable(bytes)): \(error.detail)", file: file, line: line)
        }
    }

    private func report(_ failures: [String], file: StaticString = #filePath, line: UInt = #line) {
        for failure in failures.prefix(25) { XCTFail(failure, file: file, line: line) }
        if failures.count > 25 { XCTFail("… and \(failures.count - 25) more failures", file: file, line: line) }
    }
}

// MARK: - Comparisons

extension JSONValue {
    fileprivate var depth: Int {
        switch self {
        case .array(let elements): 1 + (elements.map(\.depth).max() ?? 0)
        case .object(let members): 1 + (members.map(\.value.depth).max() ?? 0)
        default: 0
        }
    }
}

/// Exact structural difference (nil when equal): numbers bit for bit, strings and names scalar for
/// scalar (`String ==` would equate canonically equivalent text), members in order.
private func exactDifference(_ actual: JSONValue, _ expected: JSONValue, zeroSignErased: Bool = false, at path: String = "") -> String? {
    switch (actual, expected) {
    case (.null, .null):
        return nil
    case (.bool(let a), .bool(let b)):
        return a == b ? nil : "\(path): \(a) ≠ \(b)"
    case (.number(let a), .number(let b)):
        let b = zeroSignErased && b == 0 ? 0 : b
        return a.bitPattern == b.bitPattern ? nil : "\(path): \(a) ≠ \(b) (bits \(String(a.bitPattern, radix: 16)) vs \(String(b.bitPattern, radix: 16)))"
    case (.string(let a), .string(let b)):
        return a.unicodeScalars.elementsEqual(b.unicodeScalars) ? nil : "\(path): \(a.debugDescription) ≠ \(b.debugDescription)"
    case (.array(let a), .array(let b)):
        guard a.count == b.count else { return "\(path): \(a.count) elements ≠ \(b.count)" }
        for (i, (x, y)) in zip(a, b).enumerated() {
            if let difference = exactDifference(x, y, zeroSignErased: zeroSignErased, at: "\(path)/\(i)") { return difference }
        }
        return nil
    case (.object(let a), .object(let b)):
        guard a.count == b.count else { return "\(path): \(a.count) members ≠ \(b.count)" }
        for (x, y) in zip(a, b) {
            guard x.key.unicodeScalars.elementsEqual(y.key.unicodeScalars) else {
                return "\(path): name \(x.key.debugDescription) ≠ \(y.key.debugDescription)"
            }
            if let difference = exactDifference(x.value, y.value, zeroSignErased: zeroSignErased, at: "\(path)/\(x.key)") { return difference }
        }
        return nil
    default:
        return "\(path): \(actual.typeName) ≠ \(expected.typeName)"
    }
}

private func isFoundationBool(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

/// The double a Foundation number stands for. NSDecimalNumber's `doubleValue` is not correctly
/// rounded on Linux, so its exact decimal text is re-read instead.
private func foundationDouble(_ number: NSNumber) -> Double {
    if let decimal = number as? NSDecimalNumber { return Double(decimal.description) ?? .nan }
    switch String(cString: number.objCType) {
    case "d", "f": return number.doubleValue
    case "Q": return Double(number.uint64Value)
    default: return Double(number.int64Value)
    }
}

/// Difference between a JSONSerialization object and a value (nil when equal).
private func foundationDifference(_ object: Any, _ expected: JSONValue, at path: String = "") -> String? {
    switch expected {
    case .null:
        return object is NSNull ? nil : "\(path): \(type(of: object)) for null"
    case .bool(let flag):
        guard let number = object as? NSNumber, isFoundationBool(number) else { return "\(path): \(type(of: object)) for a boolean" }
        return number.boolValue == flag ? nil : "\(path): \(number.boolValue) ≠ \(flag)"
    case .number(let value):
        guard let number = object as? NSNumber, !isFoundationBool(number) else { return "\(path): \(type(of: object)) for a number" }
        let read = foundationDouble(number)
        if read.bitPattern == value.bitPattern { return nil }
        // Foundation reads an integer literal `-0` as the integer 0.
        if value == 0 && read == 0 && String(cString: number.objCType) != "d" { return nil }
        if value == 0 && read == 0 && number is NSDecimalNumber { return nil }
        return "\(path): Foundation \(read) (\(number), \(type(of: number)) '\(String(cString: number.objCType))') ≠ \(value)"
    case .string(let text):
        guard let string = object as? String else { return "\(path): \(type(of: object)) for a string" }
        return sameIgnoringBOM(string, text) ? nil : "\(path): \(string.debugDescription) ≠ \(text.debugDescription)"
    case .array(let elements):
        guard let array = object as? [Any] else { return "\(path): \(type(of: object)) for an array" }
        guard array.count == elements.count else { return "\(path): \(array.count) elements ≠ \(elements.count)" }
        for (i, (x, y)) in zip(array, elements).enumerated() {
            if let difference = foundationDifference(x, y, at: "\(path)/\(i)") { return difference }
        }
        return nil
    case .object(let members):
        guard let dictionary = object as? [String: Any] else { return "\(path): \(type(of: object)) for an object" }
        // Names that differ only in U+FEFF may collapse into one in Foundation (see above); the
        // value of such a name is not compared.
        var groups: [String: Int] = [:]
        for member in members { groups[String(member.key.unicodeScalars.filter { $0 != "\u{FEFF}" }), default: 0] += 1 }
        guard dictionary.count == groups.count else { return "\(path): \(dictionary.count) members ≠ \(members.count)" }
        for member in members where groups[String(member.key.unicodeScalars.filter { $0 != "\u{FEFF}" })] == 1 {
            guard let name = dictionary.keys.first(where: { sameIgnoringBOM($0, member.key) }) else {
                return "\(path): no member \(member.key.debugDescription)"
            }
            if let difference = foundationDifference(dictionary[name]!, member.value, at: "\(path)/\(member.key)") { return difference }
        }
        return nil
    }
}

/// Linux JSONSerialization drops a raw U+FEFF at the start of a string and right after an escape
/// sequence (it decodes each run between escapes with `String(data:encoding:)`, which strips a
/// BOM), so its strings are compared without U+FEFF.
private func sameIgnoringBOM(_ a: String, _ b: String) -> Bool {
    a.unicodeScalars.filter { $0 != "\u{FEFF}" }.elementsEqual(b.unicodeScalars.filter { $0 != "\u{FEFF}" })
}

/// Pointers compare scalar for scalar (`String ==` would equate canonically equivalent text).
private func samePointer(_ actual: String?, _ path: [String]) -> Bool {
    actual?.unicodeScalars.elementsEqual(pointer(path).unicodeScalars) ?? false
}

/// RFC 6901: each component after a `/`, with `~` as `~0` and `/` as `~1` (scalar by scalar).
private func pointer(_ path: [String]) -> String {
    var text = String.UnicodeScalarView()
    for component in path {
        text.append("/")
        for scalar in component.unicodeScalars {
            switch scalar {
            case "~": text.append(contentsOf: "~0".unicodeScalars)
            case "/": text.append(contentsOf: "~1".unicodeScalars)
            default: text.append(scalar)
            }
        }
    }
    return String(text)
}

private func printable(_ bytes: [UInt8]) -> String {
    var text = ""
    for byte in bytes.prefix(400) {
        if byte >= 0x20 && byte < 0x7F && byte != 0x5C { text.unicodeScalars.append(Unicode.Scalar(byte)) } else { text += "\\x" + String(format: "%02x", byte) }
    }
    return bytes.count > 400 ? text + "…(\(bytes.count) bytes)" : text
}
