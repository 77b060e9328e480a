@testable import SegueJSON
import SegueTestSupport
import XCTest

/// The hand-written formatter (`ShortestDouble`, `DoubleText`; docs/numbers.md) against Swift's
/// own `Double.description`, on more than ten million doubles in the categories of
/// `DoubleSamples`. For every sample v:
///   1. the bytes of `TextWriter.description(of: v)` equal those of `Double.write(to:)` — the path
///      the writer took before (`description`'s text without a `String`);
///   2. that text reads back (`Double(String)`, correctly rounded) to v bit for bit;
///   3. it is never longer than Swift's (implied by 1, checked separately so a failure says so);
///   4. `TextWriter.number(v)` writes what it wrote before the formatter: integral values below
///      2^63 as integers (−0 as "0"), everything else as `description`.
/// Failures are collected and reported together with their bit patterns (XCTest assertions per
/// sample would cost more than the checks).
final class ShortestDoubleTests: XCTestCase {

    func testTenMillionDoublesMatchSwiftsDescription() {
        var checker = DescriptionChecker()
        let start = ContinuousClock.now
        for category in DoubleSamples.Category.allCases {
            DoubleSamples.generate(category) { checker.check($0, category: category) }
        }
        let elapsed = ContinuousClock.now - start
        let summary = DoubleSamples.Category.allCases.map { "\($0): \(checker.counts[$0, default: 0])" }.joined(separator: ", ")
        print("ShortestDoubleTests: \(checker.total) doubles in \(elapsed) (\(summary))")
        XCTAssertGreaterThanOrEqual(checker.total, 10_000_000)
        XCTAssertEqual(checker.failures.count, 0, checker.failures.prefix(20).joined(separator: "\n"))
    }

    func testEdgeCasesByName() {
        let cases: [(Double, String)] = [
            (0, "0.0"), (-0.0, "-0.0"), (1, "1.0"), (-1, "-1.0"), (100, "100.0"), (0.1, "0.1"), (0.5, "0.5"),
            (0.0001, "0.0001"), (0.00012, "0.00012"), (1e-5, "1e-05"), (1.5e-7, "1.5e-07"), (123.456, "123.456"),
            (.leastNonzeroMagnitude, "5e-324"), (2 * .leastNonzeroMagnitude, "1e-323"),
            (.leastNormalMagnitude, "2.2250738585072014e-308"), (.leastNormalMagnitude.nextDown, "2.225073858507201e-308"),
            (.greatestFiniteMagnitude, "1.7976931348623157e+308"), (1e300, "1e+300"), (1e22, "1e+22"), (1e23, "1e+23"),
            (0x1p53, "9007199254740992.0"), (0x1p53 + 2, "9.007199254740994e+15"), (0x1p63, "9.223372036854776e+18"),
            (1e16, "1e+16"), (1e15, "1000000000000000.0"), (0.30000000000000004, "0.30000000000000004"),
            (4503599627370495.5, "4503599627370495.5"), (2.0 / 3, "0.6666666666666666"), (-2.25, "-2.25"),
            (0x1p-1022, "2.2250738585072014e-308"), (0x1p-1074 * 0xFFFFFFFFFFFFF, "2.225073858507201e-308"),
        ]
        for (value, text) in cases {
            var writer = TextWriter()
            writer.description(of: value)
            XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), text, "\(value.bitPattern)")
            XCTAssertEqual(value.description, text, "Swift's own text changed for \(value.bitPattern)")
        }
    }

    /// The fast path (`exactShort`) gives what the general path gives, for every integer and
    /// dyadic fraction it takes over a range of binary exponents and random significands.
    func testFastPathAgreesWithTheGeneralPath() {
        var random = SplitMix64(seed: 0xFA57)
        var taken = 0
        for q in -70...0 {
            for round in 0..<3000 {
                // Significands with many trailing zeros, so that short fractions come up often.
                let zeros = round % 53
                let c = ((random.next() >> 11 | 1 << 52) >> UInt64(zeros)) << UInt64(zeros)
                guard let fast = ShortestDouble.exactShort(c: c, q: q) else { continue }
                taken += 1
                let general = ShortestDouble.schubfach(c: c, q: q, symmetric: c != 1 << 52)
                XCTAssertEqual(ShortestDouble.stripped(fast.digits, fast.exponent), general, "c = \(c), q = \(q)")
            }
        }
        XCTAssertGreaterThan(taken, 10_000)
    }

    /// The lane arithmetic of `DecimalDigits.eightDigits` over its whole ranges, and the digits of
    /// integers of every length against `String`.
    func testDigitChunks() {
        for y in UInt64(0)..<10_000 { XCTAssertEqual((y * 10_486) >> 20, y / 100) }
        for y in UInt64(0)..<100 { XCTAssertEqual((y * 103) >> 10, y / 10) }
        var random = SplitMix64(seed: 0xD161)
        var values: [UInt64] = [1, 9, 10, 99_999_999, 100_000_000, 9_999_999_999_999_999, 10_000_000_000_000_000, .max]
        for _ in 0..<20_000 { values.append(random.next() >> (random.next() % 64)) }
        for value in values where value > 0 {
            var bytes = [UInt8](repeating: 0, count: 32)
            let digits = DecimalDigits(value)
            bytes.withUnsafeMutableBytes { digits.store(at: $0.baseAddress!) }
            XCTAssertEqual(String(decoding: bytes.prefix(digits.count), as: UTF8.self), String(value))
        }
        for value: Int64 in [0, 1, -1, 12, -1234567890123, .max, .min] {
            var writer = TextWriter()
            writer.integer(value)
            XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), String(value))
        }
    }
}

/// Checks one double at a time; keeps counts and failures.
struct DescriptionChecker {
    var total = 0
    var counts: [DoubleSamples.Category: Int] = [:]
    var failures: [String] = []

    mutating func check(_ value: Double, category: DoubleSamples.Category) {
        total += 1
        counts[category, default: 0] += 1
        var ours = TextWriter(capacity: 32)
        ours.description(of: value)
        var swift = TextWriter(capacity: 32)
        value.write(to: &swift)
        if ours.bytes != swift.bytes {
            fail(value, "wrote \(text(ours.bytes)), Swift writes \(text(swift.bytes))")
            return
        }
        if ours.bytes.count > swift.bytes.count {
            fail(value, "longer than Swift's \(text(swift.bytes))")
        }
        guard let reread = Double(text(ours.bytes)), reread.bitPattern == value.bitPattern else {
            fail(value, "\(text(ours.bytes)) does not read back")
            return
        }
        var number = TextWriter(capacity: 32)
        number.number(value)
        let before: String
        if value == value.rounded(.towardZero) && value.magnitude < 0x1p63 {
            before = String(Int64(value))
        } else {
            before = text(swift.bytes)
        }
        if text(number.bytes) != before {
            fail(value, "number() wrote \(text(number.bytes)), before the formatter \(before)")
        }
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    private mutating func fail(_ value: Double, _ message: String) {
        if failures.count < 100 {
            failures.append("0x\(String(value.bitPattern, radix: 16)): \(message)")
        }
    }
}
