import Foundation
import Synchronization
import SegueEngine
import SegueJSON
import SegueTestSupport
import XCTest
@testable import SegueCodec

/// `ColumnTextMemo` writes the bytes `TextWriter.column` writes, kept or not, and keeps what it
/// says it keeps (docs/http.md "The sample-time memo").
final class ColumnTextMemoTests: XCTestCase {
    /// `writer.column(column)` after `prefix`: what every memo write must equal.
    private static func plain(_ column: [Double], after prefix: String = "") -> [UInt8] {
        var writer = TextWriter()
        writer.write(prefix)
        writer.column(column)
        return writer.bytes
    }

    private static func memoized(_ column: [Double], _ memo: ColumnTextMemo, after prefix: String = "") -> [UInt8] {
        var writer = TextWriter()
        writer.write(prefix)
        memo.write(column, into: &writer)
        return writer.bytes
    }

    /// Columns of every kind of number: grids, random bits, integers, tiny and huge values.
    private static func columns(_ count: Int, seed: UInt64) -> [[Double]] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { k in
            let length = 1 + Int(random.next() % 200)
            switch k % 3 {
            case 0: return (0..<length).map { Double($0) / Double(max(1, length - 1)) * Double(1 + k) }
            case 1: return (0..<length).map { _ in
                let value = Double(bitPattern: random.next())
                return value.isFinite ? value : 0.5
            }
            default: return (0..<length).map { _ in Double(Int64(bitPattern: random.next()) >> 40) }
            }
        }
    }

    func testMissesAndHitsWriteTheColumnsBytes() {
        let memo = ColumnTextMemo()
        for column in Self.columns(40, seed: 7) {
            let expected = Self.plain(column, after: "[\"t\":[")
            XCTAssertEqual(Self.memoized(column, memo, after: "[\"t\":["), expected, "miss")
            XCTAssertEqual(Self.memoized(column, memo, after: "[\"t\":["), expected, "hit")
            XCTAssertTrue(memo.keys.contains(column), "the column just written is kept")
        }
    }

    func testTheHitIsFoundByValueBitForBit() {
        let memo = ColumnTextMemo()
        _ = Self.memoized([0.0, 1.0], memo)
        // -0 prints as 0 (rule 23), yet it is another key: a miss, the same bytes.
        XCTAssertEqual(Self.memoized([-0.0, 1.0], memo), Self.plain([-0.0, 1.0]))
        XCTAssertEqual(memo.keys.count, 2)
        // A prefix of a kept column, or a column it is a prefix of, is another column.
        XCTAssertEqual(Self.memoized([0.0], memo), Array("0".utf8))
        XCTAssertEqual(Self.memoized([0.0, 1.0, 2.0], memo), Array("0,1,2".utf8))
        XCTAssertEqual(memo.keys.count, 4)
        XCTAssertEqual(Self.memoized([0.0, 1.0], memo), Array("0,1".utf8))
        XCTAssertEqual(memo.keys.count, 4, "a hit adds nothing")
        // Two grids of one length and one start, differing at their last number.
        XCTAssertEqual(Self.memoized([0, 0.5, 1], memo), Array("0,0.5,1".utf8))
        XCTAssertEqual(Self.memoized([0, 0.5, 2], memo), Array("0,0.5,2".utf8))
        XCTAssertEqual(memo.keys.count, 6)
    }

    func testItKeepsAtMostCapacityColumnsReplacingTheOldest() {
        let memo = ColumnTextMemo()
        let written = (0...ColumnTextMemo.capacity).map { [Double($0), 0.25] }
        for column in written { _ = Self.memoized(column, memo) }
        // The first was replaced by the last; the rest stay, in the order they came.
        XCTAssertEqual(memo.keys, [written.last!] + written[1..<ColumnTextMemo.capacity])
        XCTAssertEqual(Self.memoized(written[0], memo), Self.plain(written[0]), "written again after it was replaced")
        XCTAssertEqual(memo.keys.first, written.last, "the oldest slot moves on")
        XCTAssertEqual(memo.keys[1], written[0])
    }

    func testAColumnOverTheLongestKeptIsWrittenNotKept() {
        let memo = ColumnTextMemo()
        let long = (0...ColumnTextMemo.maxCount).map { Double($0) / 7 }
        let longest = Array(long.dropLast())
        XCTAssertEqual(Self.memoized(long, memo), Self.plain(long))
        XCTAssertEqual(memo.keys, [])
        XCTAssertEqual(Self.memoized(longest, memo), Self.plain(longest))
        XCTAssertEqual(memo.keys, [longest])
    }

    /// Threads sharing one memo, with more columns than it keeps (so entries are replaced while
    /// others read), each get their own column's bytes every time.
    func testThreadsSharingAMemoEachGetTheirColumn() {
        let memo = ColumnTextMemo()
        let all = Self.columns(3 * ColumnTextMemo.capacity, seed: 11)
        let expected = all.map { Self.plain($0) }
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var random = SplitMix64(seed: UInt64(thread))
            for _ in 0..<2_000 {
                let k = Int(random.next() % UInt64(all.count))
                if Self.memoized(all[k], memo) != expected[k] { failures.withLock { $0 += 1 } }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
        XCTAssertEqual(memo.keys.count, ColumnTextMemo.capacity)
    }
}
