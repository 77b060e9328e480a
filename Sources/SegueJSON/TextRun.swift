/// Pieces of JSON text written one after another into room reserved once (`TextWriter.run`).
///
/// Every `TextWriter` call checks its array's capacity and uniqueness before it writes. A text of
/// many small pieces — a log line is fifteen — pays that once a piece; in a run it pays it once
/// (docs/http.md "The log line in one reservation").
///
/// Edge cases, in the order the code meets them:
/// - The room is the caller's promise. Each piece checks it before writing (a trap, never a write
///   past the reservation): `stringRoom` and `numberRoom` are the most a string or a number takes.
/// - A number takes up to `TextWriter.numberRoom` bytes while it is written, fewer when done.
/// - Numbers must be finite (as for `TextWriter.number`'s fast path); a run has no fallback text.
public struct TextRun: ~Copyable {
    @usableFromInline let start: UnsafeMutableRawPointer
    @usableFromInline var cursor: UnsafeMutableRawPointer
    @usableFromInline let end: UnsafeMutableRawPointer

    /// - Precondition: `room` is not empty.
    init(_ room: UnsafeMutableBufferPointer<UInt8>) {
        start = UnsafeMutableRawPointer(room.baseAddress!)
        cursor = start
        end = start + room.count
    }

    /// Bytes written so far.
    public var count: Int { cursor - start }

    /// The room a JSON string literal of `utf8` takes, exactly: its bytes and quotes, one more byte
    /// for each quote, backslash, line feed, carriage return and tab, five more for each other
    /// control character (`\u00XX`).
    public static func stringRoom(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        guard var next = firstEscape(in: utf8, from: 0) else { return utf8.count + 2 }
        var room = utf8.count + 2
        while true {
            switch utf8[next] {
            case 0x22, 0x5C, 0x0A, 0x0D, 0x09: room += 1
            default: room += 5
            }
            guard let after = firstEscape(in: utf8, from: next + 1) else { return room }
            next = after
        }
    }

    /// `stringRoom` of a string's UTF-8 (read in place when the string is native).
    public static func stringRoom(_ text: String) -> Int { text.withUTF8InPlace(stringRoom) }

    /// The room of any string literal of `count` UTF-8 bytes, without reading them: six bytes a
    /// byte. For short strings, where reading them would cost more than the room.
    public static func stringRoom(count: Int) -> Int { 6 * count + 2 }

    /// Fixed text.
    @inlinable @inline(__always)
    public mutating func raw(_ text: StaticString) {
        put(count: text.utf8CodeUnitCount) { $0.copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount) }
    }

    /// Writes `count` bytes with `write`, which is given the place they go.
    @inlinable @inline(__always)
    public mutating func put(count: Int, _ write: (UnsafeMutableRawPointer) -> Void) {
        precondition(count <= end - cursor, "a text run wrote past its room")
        write(cursor)
        cursor += count
    }

    /// A finite number, as `TextWriter.number` writes it.
    public mutating func number(_ value: Double) {
        precondition(value.isFinite && TextWriter.numberRoom <= end - cursor, "a text run wrote past its room")
        cursor += TextWriter.write(value, at: cursor)
    }

    /// `number(value)` (`value` finite: a run has no text for the others and traps), without
    /// searching for the shortest digits when `value` is the double
    /// nearest to a whole number u of 10^−`scale` (`scale` 0…15), u < 10^15: a duration measured
    /// in nanoseconds and given in seconds (scale 9).
    ///
    /// Such a double's shortest digits are u's own, less its trailing zeros: any two decimals of
    /// at most 15 significant digits are different doubles (15 is the decimal precision a double
    /// always keeps), so no other decimal of that many digits or fewer reads back as this double.
    /// So u's digits go to `DoubleText.layout` as the shortest digits would. Whether `value` is
    /// such a double is checked, not assumed: u is `value`·10^`scale` rounded, and the double
    /// nearest to u·10^−`scale` (a division of two exact doubles, correctly rounded) must be
    /// `value`; otherwise, and for an integral value (which `number` writes as an integer, without
    /// the search either), `number(value)` writes it.
    public mutating func number(_ value: Double, scale: Int) {
        precondition(0...15 ~= scale)
        let power = exactPowersOfTen[scale]
        let units = (value * power).rounded()
        guard units >= 0, units < 1e15, units / power == value, value.rounded(.towardZero) != value else {
            return number(value)
        }
        precondition(TextWriter.numberRoom <= end - cursor, "a text run wrote past its room")
        // Not an integer, so u ends in fewer than `scale` zeros and the exponent stays negative.
        var digits = UInt64(units), exponent = -scale
        while digits % 10 == 0 {
            digits /= 10
            exponent += 1
        }
        cursor += DoubleText.layout(ShortestDouble(digits: digits, exponent: exponent), exponentForm: false, at: cursor)
    }

    /// An integer, as `TextWriter.integer` writes it.
    public mutating func integer(_ value: Int64) {
        precondition(TextWriter.numberRoom <= end - cursor, "a text run wrote past its room")
        cursor += TextWriter.writeInteger(value, at: cursor)
    }

    /// A JSON string literal with the mandatory escapes (RFC 8259 §7): runs that need none are
    /// copied whole.
    public mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        guard let first = Self.firstEscape(in: utf8, from: 0) else { return quoted(utf8) }
        raw("\"")
        var start = 0
        var next: Int? = first
        while let i = next {
            copy(UnsafeBufferPointer(rebasing: utf8[start..<i]))
            escape(utf8[i])
            start = i + 1
            next = Self.firstEscape(in: utf8, from: start)
        }
        copy(UnsafeBufferPointer(rebasing: utf8[start...]))
        raw("\"")
    }

    /// Text that needs no escape between quotes, in one piece.
    mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        put(count: utf8.count + 2) { Self.quote(utf8, at: $0) }
    }

    /// Writes text that needs no escape between quotes at `p` (`utf8.count + 2` bytes).
    @inline(__always)
    static func quote(_ utf8: UnsafeBufferPointer<UInt8>, at p: UnsafeMutableRawPointer) {
        p.storeBytes(of: 0x22, as: UInt8.self)
        if let base = utf8.baseAddress { (p + 1).copyMemory(from: base, byteCount: utf8.count) }
        p.storeBytes(of: 0x22, toByteOffset: utf8.count + 1, as: UInt8.self)
    }

    /// A JSON string literal of `text` (a native string's bytes read in place).
    public mutating func string(_ text: String) { text.withUTF8InPlace { string(utf8: $0) } }

    private mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        put(count: bytes.count) { $0.copyMemory(from: base, byteCount: bytes.count) }
    }

    /// A quote, a backslash or a control character: what a JSON string escapes (RFC 8259 §7).
    @inline(__always)
    static func needsEscape(_ unit: UInt8) -> Bool { unit < 0x20 || unit == 0x22 || unit == 0x5C }

    /// The index of the first byte at or after `start` that `needsEscape`, or nil.
    ///
    /// Eight bytes at a time (`ByteWord`): a word that may hold one is read byte by byte, so the
    /// answer is exact. The bytes after the last whole word are tested as one more word: the
    /// text's last eight bytes, or, in a text shorter than a word, its bytes over a word of letters.
    static func firstEscape(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = utf8.baseAddress, start < utf8.count else { return nil }
        let count = utf8.count
        var i = start
        while i + 8 <= count {
            if mayNeedEscape(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) { break }
            i += 8
        }
        if i + 8 > count && i < count {
            var tail: UInt64 = 0x4141_4141_4141_4141
            if count >= 8 {
                tail = UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self)
            } else {
                withUnsafeMutableBytes(of: &tail) { $0.baseAddress!.copyMemory(from: base + i, byteCount: count - i) }
            }
            // The tail's word may reach back over clean bytes, or over bytes before `start`: a
            // hit there is found nowhere from `i` on, and the answer stays nil.
            if !mayNeedEscape(tail) { return nil }
        }
        while i < count {
            if needsEscape(base[i]) { return i }
            i += 1
        }
        return nil
    }

    /// Whether some byte of `w` may need an escape: a control byte, a quote or a backslash; never
    /// false when one does (`ByteWord`).
    @inline(__always)
    private static func mayNeedEscape(_ w: UInt64) -> Bool {
        ByteWord.below(0x20, in: w) | ByteWord.equal(to: 0x22, in: w) | ByteWord.equal(to: 0x5C, in: w) != 0
    }

    /// The escape of a quote, a backslash or a control character (RFC 8259 §7).
    private mutating func escape(_ unit: UInt8) {
        switch unit {
        case 0x22: raw("\\\"")
        case 0x5C: raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        default:
            put(count: 6) { p in
                p.copyMemory(from: StaticString("\\u00").utf8Start, byteCount: 4)
                p.storeBytes(of: Self.hexDigit(unit >> 4), toByteOffset: 4, as: UInt8.self)
                p.storeBytes(of: Self.hexDigit(unit & 0xF), toByteOffset: 5, as: UInt8.self)
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10 }
}

extension TextRun {
    /// Appends to `bytes` the pieces `write` puts into `room` bytes reserved at once.
    public static func append(to bytes: inout [UInt8], room: Int, _ write: (inout TextRun) -> Void) {
        precondition(room > 0, "a text run needs room")
        bytes.append(addingCapacity: room) { span in
            span.withUnsafeMutableBufferPointer { buffer, written in
                var run = TextRun(buffer)
                write(&run)
                written = run.count
            }
        }
    }

    /// Bytes as they are (a line written before).
    public mutating func copy(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { copy($0) }
    }
}

extension TextWriter {
    /// Appends the pieces `write` puts into `room` bytes reserved at once (`TextRun`).
    public mutating func run(room: Int, _ write: (inout TextRun) -> Void) {
        TextRun.append(to: &bytes, room: room, write)
    }
}
