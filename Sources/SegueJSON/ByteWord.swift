/// Eight bytes tested at once, as one `UInt64` (a "SWAR" test, as in H. S. Warren, *Hacker's
/// Delight*, §6-1; docs/http.md "The log line in one reservation").
///
/// Each test returns the word with the high bit set in some byte when, and only when, at least
/// one byte of the word is what it looks for. The set byte is not always the one found (a borrow
/// from a found byte may also set the one above it), so a word a test clears is clean, and a word
/// it flags is read byte by byte where the position matters.
///
/// - `below(n, in: w)`: `(w − n·ones) & ~w & highs`, a byte below n (n in 1…0x80). A byte b ≥ n
///   subtracts without a borrow and keeps its high bit clear unless b itself had it, which `~w`
///   removes; a byte below n wraps and sets it.
/// - `equal(to: c, in: w)`: a zero byte of `w ^ c·ones`, found as `below(1, …)`.
/// - `nonASCII(in: w)`: `w & highs`, a byte at or over 0x80.
public enum ByteWord {
    /// 0x01 in every byte.
    @inlinable public static var ones: UInt64 { 0x0101_0101_0101_0101 }
    /// 0x80 in every byte.
    @inlinable public static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// Flags a byte of `word` below `bound` (1…0x80).
    @inlinable @inline(__always)
    public static func below(_ bound: UInt8, in word: UInt64) -> UInt64 {
        (word &- UInt64(bound) &* ones) & ~word & highs
    }

    /// Flags a byte of `word` equal to `byte`.
    @inlinable @inline(__always)
    public static func equal(to byte: UInt8, in word: UInt64) -> UInt64 {
        below(1, in: word ^ UInt64(byte) &* ones)
    }

    /// Flags a byte of `word` at or over 0x80.
    @inlinable @inline(__always)
    public static func nonASCII(in word: UInt64) -> UInt64 { word & highs }

    /// Whether `test` holds at every word offset of a text of `count` bytes (at least 8): 0, 8, …,
    /// and `count` − 8, the last eight bytes as one more word, reaching back over bytes already
    /// tested (a test that holds for clean bytes holds again).
    @inlinable @inline(__always)
    public static func everyWord(count: Int, _ test: (Int) -> Bool) -> Bool {
        precondition(count >= 8, "a text of at least one word")
        var offset = 0
        while offset + 8 <= count {
            guard test(offset) else { return false }
            offset += 8
        }
        return test(count - 8)
    }
}
