import Foundation
import SegueJSON
import SegueTestSupport
import XCTest

// Property tests for `JSONReader` (and the writer's round trip), with three oracles:
//
// 1. the generator's own model of each random document (exact: numbers bit for bit as the
//    correctly rounded `Double(String)` reads the literal, strings scalar for scalar);
// 2. Foundation's `JSONSerialization` (an independent parser; on Linux swift-corelibs-foundation);
// 3. `ReferenceParser` below: a deliberately plain, independent transcription of the RFC 8259
//    grammar plus the reader's documented policy (failure kinds, pointers, nesting limit, no
//    duplicate names), used for random byte-level mutations whose validity is not known up front.
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

// MARK: - Deterministic randomness

/// Draws from SegueTestSupport's SplitMix64 (tiny, fast, and the same sequence on every platform).
private extension SplitMix64 {
    /// Uniform in 0..<bound (the modulo bias is irrelevant here).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func chance(_ probability: Double) -> Bool { Double(next() >> 11) * 0x1p-53 < probability }

    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    mutating func digits(_ count: Int, leadingNonZero: Bool) -> String {
        var text = ""
        for i in 0..<count {
            text.append(Character(Unicode.Scalar(UInt8(i == 0 && leadingNonZero ? 0x31 + below(9) : 0x30 + below(10)))))
        }
        return text
    }
}

// MARK: - Random document generator

private struct Site {
    var range: Range<Int>
    var path: [String]
}

/// A string literal: the offsets of its quotes and the pointer a failure inside it gets (the
/// value's own path, or the enclosing object's for a member name).
private struct StringSite {
    var open: Int
    var close: Int
    var path: [String]
}

private struct ContainerSite {
    var open: Int
    var close: Int
    var isObject: Bool
    var count: Int
    var path: [String]
    var keys: [(text: [UInt8], name: String)]
}

private struct GeneratedDocument {
    var text: [UInt8] = []
    var value: JSONValue = .null
    /// Offsets between tokens (outside strings, numbers and literals).
    var gaps: [Int] = []
    var strings: [StringSite] = []
    var numbers: [Site] = []
    var literals: [Site] = []
    var containers: [ContainerSite] = []
}

private struct DocumentGenerator {
    var rng: SplitMix64
    private var doc = GeneratedDocument()
    private var budget = 0
    private var deepMode = false

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func document() -> GeneratedDocument {
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
            doc.literals.append(Site(range: start..<doc.text.count, path: path))
            return .null
        case 1, 2:
            let flag = rng.chance(0.5)
            emit(flag ? "true" : "false")
            doc.literals.append(Site(range: start..<doc.text.count, path: path))
            return .bool(flag)
        case 3...7:
            let (text, number) = randomNumber(&rng)
            emit(text)
            doc.numbers.append(Site(range: start..<doc.text.count, path: path))
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
        doc.containers.append(ContainerSite(open: open, close: doc.text.count, isObject: false, count: count, path: path, keys: []))
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
        doc.containers.append(ContainerSite(open: open, close: doc.text.count, isObject: true, count: members.count, path: path, keys: keys))
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
        doc.strings.append(StringSite(open: open, close: doc.text.count, path: path))
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
            text = sign + (rng.chance(0.5) ? "\(mantissa)e\(exponent)" : decimalPoint(String(mantissa), exponent, &rng))
        case 10: text = shortest(Double(bitPattern: rng.next() & 0x800F_FFFF_FFFF_FFFF))          // subnormal
        case 11: text = sign + rng.digits(1 + rng.below(17), leadingNonZero: true) + "e" + String(270 + rng.below(39)) // huge
        default: text = String(Double(Int64(bitPattern: rng.next()) >> rng.below(64)).nextUp)     // integral-ish
        }
        if let value = Double(text), value.isFinite, isJSONNumber(text) { return (text, value) }
    }
}

/// `m × 10^e` written with a decimal point where possible (e.g. "12.345" for 12345e-3).
private func decimalPoint(_ mantissa: String, _ exponent: Int, _ rng: inout SplitMix64) -> String {
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

// MARK: - Invalid-by-construction mutations

private struct Mutant {
    var bytes: [UInt8]
    var label: String
    /// The expected failure kind, or nil when any is right.
    var kind: String?
    /// The expected pointer path, or nil when not predicted.
    var path: [String]?
    /// Why JSONSerialization may accept it (a documented leniency), or nil when it must refuse it.
    var foundationMayAccept: String?
}

private enum InvalidMutation: CaseIterable {
    case truncate, insertGarbage, trailingComma, invalidUTF8, loneSurrogate, nonFiniteOrMalformedNumber,
         leadingZero, numberOutOfRange, duplicateName, invalidEscape, controlCharacter, badLiteral,
         unquotedName, forbiddenByte, trailingData, tooDeep, emptyDocument

    func apply(to doc: GeneratedDocument, _ rng: inout SplitMix64) -> Mutant? {
        var bytes = doc.text
        switch self {
        case .truncate:
            // A proper prefix that ends before the top-level container's closing bracket (or a
            // top-level string's closing quote) can never be a complete document.
            let end: Int
            switch doc.value {
            case .array, .object: end = doc.containers.first { $0.path.isEmpty }!.close
            case .string: end = doc.strings.first { $0.path.isEmpty }!.close
            default: return nil
            }
            return Mutant(bytes: Array(bytes[..<rng.below(end + 1)]), label: "truncated", kind: "malformed-json", path: nil)

        case .insertGarbage:
            // A byte sequence that no JSON text contains outside a string.
            let garbage = rng.pick(["#", "@", ",", ":", "]", "}", "x", "'", "\\", "=", ";", "/", "*", "//c\n", "/*c*/",
                                    "\u{0}", "\u{1}", "\u{7F}", "\u{A0}", "\u{FEFF}", "NaN", "undefined", "+", ".",
                                    "True", "(", ")", "<", "\u{3000}", "\u{B}", "\u{C}", "e"])
            let at = rng.pick(doc.gaps)
            bytes.insert(contentsOf: garbage.utf8, at: at)
            // A comma may complete a trailing comma, which Foundation accepts.
            return Mutant(bytes: bytes, label: "garbage \(garbage.debugDescription)", kind: "malformed-json", path: nil,
                          foundationMayAccept: garbage == "," ? foundationLeniency(bytes) : encodingLeniency(bytes))

        case .trailingComma:
            guard let container = doc.containers.randomElement(&rng) else { return nil }
            bytes.insert(0x2C, at: container.close)
            return Mutant(bytes: bytes, label: container.count == 0 ? "comma in empty container" : "trailing comma",
                          kind: "malformed-json",
                          path: container.isObject ? container.path : container.path + [String(container.count)],
                          foundationMayAccept: container.count > 0 ? "trailing comma" : nil)

        case .invalidUTF8:
            guard let site = doc.strings.randomElement(&rng) else { return nil }
            let sequence = rng.pick(badUTF8)
            bytes.insert(contentsOf: sequence, at: rng.chance(0.5) ? site.open + 1 : site.close)
            return Mutant(bytes: bytes, label: "invalid UTF-8", kind: "invalid-utf8", path: site.path)

        case .loneSurrogate:
            guard let site = doc.strings.randomElement(&rng) else { return nil }
            // (escape, may stand at the start of the content): there a following `\uDC00…` of the
            // original content could complete a lone high half, so those go before the closing quote.
            let (escape, startAllowed) = rng.pick([(#"\uD800"#, false), (#"\udbff"#, false), (#"\uDC00"#, true),
                                                   (#"\uDFFF"#, true), (#"\uD83D\u0041"#, false), (#"\uD83Dx"#, false),
                                                   (#"\uDE00\uD83D"#, true), (#"\uD83D\uD83D"#, false), (#"\ud83d\n"#, false),
                                                   (#"\uD83D\"#, false), (#"\udc00\udc00"#, true)])
            bytes.insert(contentsOf: escape.utf8, at: startAllowed && rng.chance(0.5) ? site.open + 1 : site.close)
            return Mutant(bytes: bytes, label: "lone surrogate", kind: "malformed-json", path: site.path)

        case .nonFiniteOrMalformedNumber:
            guard let site = doc.numbers.randomElement(&rng) else { return nil }
            let replacement = rng.pick(["NaN", "-NaN", "Infinity", "-Infinity", "+Infinity", "nan", "inf", "-inf", "+1",
                                        "+0", ".5", "-.5", "1.", "-", "1e", "1e+", "1E-", "0x1A", "1_000", "1.5.2", "--1",
                                        "1e1.5", "-Infinity1", "1.e5", "٣", "１"])
            bytes.replaceSubrange(site.range, with: replacement.utf8)
            let pointed = !["0x1A", "1_000", "1.5.2", "1e1.5"].contains(replacement)
            return Mutant(bytes: bytes, label: "number \(replacement)", kind: "malformed-json",
                          path: pointed ? site.path : nil)

        case .leadingZero:
            guard let site = doc.numbers.randomElement(&rng) else { return nil }
            bytes.insert(0x30, at: bytes[site.range.lowerBound] == 0x2D ? site.range.lowerBound + 1 : site.range.lowerBound)
            return Mutant(bytes: bytes, label: "leading zero", kind: "malformed-json", path: site.path)

        case .numberOutOfRange:
            guard let site = doc.numbers.randomElement(&rng) else { return nil }
            let replacement = rng.pick(["1e400", "-1e400", "1e309", "1.8e308", "-1.7976931348623159e308",
                                        "123456789e999999999999", "1" + String(repeating: "0", count: 400), "0.1e310",
                                        "-" + String(repeating: "9", count: 310) + ".5"])
            bytes.replaceSubrange(site.range, with: replacement.utf8)
            return Mutant(bytes: bytes, label: "out of range \(replacement.prefix(12))", kind: "number-out-of-range", path: site.path,
                          foundationMayAccept: replacement.hasPrefix("1000") || replacement.hasPrefix("-999") ? "decimal literal" : nil)

        case .duplicateName:
            guard let object = doc.containers.filter({ $0.isObject && $0.count > 0 }).randomElement(&rng) else { return nil }
            let key = rng.pick(object.keys)
            bytes.insert(contentsOf: [0x2C] + key.text + Array(":0".utf8), at: object.close)
            return Mutant(bytes: bytes, label: "duplicate name", kind: "malformed-json", path: object.path + [key.name],
                          foundationMayAccept: "duplicate names")

        case .invalidEscape:
            guard let site = doc.strings.randomElement(&rng) else { return nil }
            let escape = rng.pick([#"\x41"#, #"\U0041"#, #"\u12"#, #"\u12G4"#, #"\'"#, #"\a"#, #"\0"#, #"\v"#, #"\ "#,
                                   #"\u-123"#, #"\u{41}"#, #"\e"#, "\\\u{E9}", #"\u"#])
            bytes.insert(contentsOf: escape.utf8, at: site.close)
            return Mutant(bytes: bytes, label: "invalid escape", kind: "malformed-json", path: site.path)

        case .controlCharacter:
            guard let site = doc.strings.randomElement(&rng) else { return nil }
            bytes.insert(UInt8(rng.below(0x20)), at: rng.chance(0.5) ? site.open + 1 : site.close)
            return Mutant(bytes: bytes, label: "control character", kind: "malformed-json", path: site.path)

        case .badLiteral:
            guard let site = doc.literals.randomElement(&rng) else { return nil }
            let replacement = rng.pick(["tru", "True", "TRUE", "nul", "NULL", "Null", "fals", "False", "undefined", "nil",
                                        "t", "n", "f", "truefalse", "nulll", "None", "yes"])
            bytes.replaceSubrange(site.range, with: replacement.utf8)
            let pointed = !["truefalse", "nulll"].contains(replacement)
            return Mutant(bytes: bytes, label: "literal \(replacement)", kind: "malformed-json", path: pointed ? site.path : nil)

        case .unquotedName:
            guard let object = doc.containers.filter({ $0.isObject && $0.count > 0 }).randomElement(&rng),
                  let site = doc.strings.first(where: { $0.open > object.open && $0.path == object.path && $0.open < object.close })
            else { return nil }
            if rng.chance(0.5) {
                bytes[site.open] = 0x27
                bytes[site.close] = 0x27
            } else {
                bytes.remove(at: site.close)
                bytes.remove(at: site.open)
            }
            return Mutant(bytes: bytes, label: "unquoted name", kind: "malformed-json", path: object.path)

        case .forbiddenByte:
            // Bytes that are invalid wherever they stand: never in UTF-8, or a control character.
            let at = rng.below(bytes.count)
            let isASCII = bytes[at] < 0x80
            let replacement: UInt8
            switch rng.below(3) {
            case 0: replacement = rng.pick([0xC0, 0xC1, 0xF5, 0xF8, 0xFE, 0xFF])
            case 1: replacement = rng.pick([0x00, 0x01, 0x08, 0x0B, 0x0C, 0x1B, 0x1F])
            default:
                guard isASCII else { return nil }
                replacement = UInt8(0x80 + rng.below(0x40))  // a stray continuation byte
            }
            bytes[at] = replacement
            return Mutant(bytes: bytes, label: "forbidden byte", kind: nil, path: nil, foundationMayAccept: encodingLeniency(bytes))

        case .trailingData:
            let tail = rng.pick([" 1", "{}", " []", "x", ",", "]", "}", " \"s\"", " null", "#", "\u{0}", " ,", "\u{FEFF}"])
            bytes.append(contentsOf: tail.utf8)
            return Mutant(bytes: bytes, label: "trailing \(tail.debugDescription)", kind: "malformed-json", path: [],
                          foundationMayAccept: encodingLeniency(bytes))

        case .tooDeep:
            // 65 levels around the document, or deeper than 64 inside an existing container.
            let levels = 64 + 1 + rng.below(3)
            let wrapped = Array(String(repeating: "[", count: levels).utf8) + bytes + Array(String(repeating: "]", count: levels).utf8)
            return Mutant(bytes: wrapped, label: "nesting over 64", kind: "nesting-too-deep",
                          path: Array(repeating: "0", count: 64), foundationMayAccept: "deeper than 64 (its limit is 512)")

        case .emptyDocument:
            let text = rng.pick(["", " ", "\n", "\r\n\t ", "\t"])
            return Mutant(bytes: Array(text.utf8), label: "empty", kind: "malformed-json", path: [])
        }
    }
}

private let badUTF8: [[UInt8]] = [
    [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
    [0xED, 0xBF, 0xBF], [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
    [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
    [0xE2, 0x28, 0xA1], [0xC3, 0xA9, 0xA9],
]

extension Array {
    fileprivate func randomElement(_ rng: inout SplitMix64) -> Element? { isEmpty ? nil : self[rng.below(count)] }
}

/// One random byte-level edit (the result may or may not be valid JSON).
private func randomEdit(_ bytes: inout [UInt8], _ rng: inout SplitMix64) {
    let interesting: [UInt8] = Array("{}[]\":,\\/ 0123456789-+.eEtrufalsn".utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
    func randomByte() -> UInt8 { rng.chance(0.7) ? rng.pick(interesting) : UInt8(truncatingIfNeeded: rng.next()) }
    let at = bytes.isEmpty ? 0 : rng.below(bytes.count)
    switch rng.below(6) {
    case 0 where !bytes.isEmpty: bytes[at] = randomByte()
    case 1: bytes.insert(randomByte(), at: rng.below(bytes.count + 1))
    case 2 where !bytes.isEmpty: bytes.remove(at: at)
    case 3 where bytes.count > 1:
        let other = rng.below(bytes.count)
        bytes.swapAt(at, other)
    case 4 where !bytes.isEmpty:
        let end = Swift.min(bytes.count, at + 1 + rng.below(8))
        bytes.insert(contentsOf: bytes[at..<end], at: rng.below(bytes.count + 1))
    default:
        if !bytes.isEmpty { bytes[at] ^= UInt8(1) << UInt8(rng.below(8)) }
    }
}

// MARK: - Reference parser

private struct ReferenceFailure: Error {
    var kind: String
    var path: [String]
}

/// A plain recursive-descent transcription of RFC 8259 §2–§8 plus the reader's policy: failure
/// kinds, pointers (the value being read; member-name and separator failures point at the
/// object or array), the nesting limit, no duplicate names. `lenient` adds the leniencies seen in
/// Linux JSONSerialization (BOM, trailing commas, duplicate names, 512 levels) to classify them.
private struct ReferenceParser {
    let input: [UInt8]
    let maxDepth: Int
    let lenient: Bool
    var at = 0

    static func parse(_ input: [UInt8], maxDepth: Int = 64, lenient: Bool = false) -> Result<JSONValue, ReferenceFailure> {
        var parser = ReferenceParser(input: input, maxDepth: lenient ? 512 : maxDepth, lenient: lenient)
        do { return .success(try parser.document()) } catch { return .failure(error) }
    }

    private var current: UInt8? { at < input.count ? input[at] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { at += 1 }
    }

    private func syntax(_ path: [String]) -> ReferenceFailure { ReferenceFailure(kind: "malformed-json", path: path) }

    mutating func document() throws(ReferenceFailure) -> JSONValue {
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
private func encodingLeniency(_ bytes: [UInt8]) -> String? {
    if bytes.prefix(4).contains(0) { return "NUL among the first bytes (UTF-16/32 sniffing)" }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return "BOM" }
    return nil
}

/// Why JSONSerialization may accept a document that RFC 8259 (and we) refuse, or nil.
private func foundationLeniency(_ bytes: [UInt8]) -> String? {
    if let reason = encodingLeniency(bytes), reason != "BOM" { return reason }
    if case .success = ReferenceParser.parse(bytes, lenient: true) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return "BOM" }
        return "trailing comma / duplicate name / nesting"
    }
    return nil
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
