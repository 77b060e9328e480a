/// Swift's text for a double (`description`), written from `ShortestDouble`'s digits straight into a
/// byte array's spare capacity (`TextWriter.appendText`): no `String`, no array and no copy per number.
///
/// With the shortest digits d (n of them, no trailing zero) and v = d · 10^e, let x = e + n − 1 be
/// the exponent of the first digit (v = d₁.d₂…dₙ · 10^x). Swift's layout (its standard library's
/// formatter; docs/numbers.md "The layout"), restated:
///
/// | case | text | examples |
/// |---|---|---|
/// | zero | `0.0`, `-0.0` | |
/// | x < −4, or \|v\| > 2^53 | d₁, then `.`d₂…dₙ if n > 1, `e`, the sign `+`/`-`, at least two exponent digits | `1e-05`, `1.5e-07`, `5e-324`, `1e+19`, `9.007199254740994e+15`, `1.7976931348623157e+308` |
/// | −4 ≤ x < 0 | `0.`, −x − 1 zeros, the digits | `0.0001`, `0.1`, `0.30000000000000004` |
/// | 0 ≤ x < n − 1 | the first x + 1 digits, `.`, the rest | `1.5`, `123.456` |
/// | 0 ≤ x, n ≤ x + 1 | the digits, x + 1 − n zeros, `.0` | `1.0`, `100.0`, `9007199254740992.0` |
///
/// and a leading `-` for negative values. 2^53 itself is the last double written without an
/// exponent (up to it every integer is a double, and Swift writes those in decimal form).
/// `TextWriter.number` writes integral values below 2^63 as integers first, so of this table it
/// uses only the exponent form (non-integers, and integers of 2^63 and more) and the middle rows.
enum DoubleText {
    /// Doubles whose magnitude's bits exceed these (2^53) always take the exponent form.
    static let exponentFormAbove: UInt64 = 0x4340_0000_0000_0000
    /// The first digit's exponent below which Swift switches to the exponent form.
    static let leastPlainExponent = -4
    /// Spare bytes a text may touch: 24 for the longest text ("-1.2345678901234567e-308"), and
    /// up to 33 for an integer's zeros written eight at a time ("-4503599627370496" then 16).
    static let room = 40
    static let minus: UInt8 = 0x2D, point: UInt8 = 0x2E, zero: UInt8 = 0x30, e: UInt8 = 0x65, plus: UInt8 = 0x2B

    /// Writes the text of a finite double at `p` (with `room` bytes free) and returns its length.
    @inline(__always)
    static func write(_ value: Double, at p: UnsafeMutableRawPointer) -> Int {
        let magnitude = value.bitPattern & ~(1 << 63)
        var i = 0
        if value.sign == .minus {
            p.storeBytes(of: minus, as: UInt8.self)
            i = 1
        }
        if magnitude == 0 {
            p.storeBytes(of: zero, toByteOffset: i, as: UInt8.self)
            p.storeBytes(of: point, toByteOffset: i + 1, as: UInt8.self)
            p.storeBytes(of: zero, toByteOffset: i + 2, as: UInt8.self)
            return i + 3
        }
        let decimal = ShortestDouble(bits: magnitude)
        return i + layout(decimal, exponentForm: magnitude > exponentFormAbove, at: p + i)
    }

    /// Writes the unsigned text of `decimal` at `p` by the table above; returns its length.
    @inline(__always)
    static func layout(_ decimal: ShortestDouble, exponentForm: Bool, at p: UnsafeMutableRawPointer) -> Int {
        let digits = DecimalDigits(significand: decimal.digits)
        let n = digits.count
        let x = decimal.exponent + n - 1
        if x < leastPlainExponent || exponentForm {
            if n == 1 {
                digits.store(at: p)
            } else {                            // d₁ moves left over the point: "d₁.d₂…"
                digits.store(at: p + 1)
                p.storeBytes(of: p.load(fromByteOffset: 1, as: UInt8.self), as: UInt8.self)
                p.storeBytes(of: point, toByteOffset: 1, as: UInt8.self)
            }
            let mantissa = n == 1 ? 1 : n + 1
            return mantissa + writeExponent(x, at: p + mantissa)
        }
        if x < 0 {                              // "0.", −x − 1 zeros (at most three), the digits
            p.storeBytes(of: DecimalDigits.asciiZeros, as: UInt64.self)
            p.storeBytes(of: point, toByteOffset: 1, as: UInt8.self)
            digits.store(at: p + (1 - x))
            return 1 - x + n
        }
        if x + 1 < n {                          // the first x + 1 digits move left over the point
            digits.store(at: p + 1)
            for i in 0...x {
                p.storeBytes(of: p.load(fromByteOffset: i + 1, as: UInt8.self), toByteOffset: i, as: UInt8.self)
            }
            p.storeBytes(of: point, toByteOffset: x + 1, as: UInt8.self)
            return n + 1
        }
        digits.store(at: p)                     // an integer below 2^53: zeros, then ".0"
        p.storeBytes(of: DecimalDigits.asciiZeros, toByteOffset: n, as: UInt64.self)
        p.storeBytes(of: DecimalDigits.asciiZeros, toByteOffset: n + 8, as: UInt64.self)
        p.storeBytes(of: point, toByteOffset: x + 1, as: UInt8.self)
        p.storeBytes(of: zero, toByteOffset: x + 2, as: UInt8.self)
        return x + 3
    }

    /// "e", the exponent's sign and at least two digits ("e-05", "e+19", "e-308") at `p`, in one
    /// eight-byte store and without a branch on the exponent's length; returns how many bytes.
    @inline(__always)
    static func writeExponent(_ x: Int, at p: UnsafeMutableRawPointer) -> Int {
        let magnitude = UInt64(x.magnitude)     // ≤ 324
        let hundreds = magnitude / 100
        let tens = (magnitude &- hundreds &* 100) / 10
        let ones = magnitude &- hundreds &* 100 &- tens &* 10
        let three = magnitude >= 100
        let digits = three ? (hundreds | tens << 8 | ones << 16) : (tens | ones << 8)
        let text = UInt64(e) | UInt64(x < 0 ? minus : plus) << 8 | (digits | 0x30_3030) << 16
        p.storeBytes(of: text.littleEndian, as: UInt64.self)
        return three ? 5 : 4
    }
}

/// The decimal digits of a positive integer (up to 20 of them) as ASCII, in at most three
/// eight-byte chunks ready to store: `head` (the leading 1…8 digits, shifted so that the first is
/// in the lowest byte), then full chunks of eight.
struct DecimalDigits {
    static let asciiZeros: UInt64 = 0x3030_3030_3030_3030
    static let hundredMillion: UInt64 = 100_000_000
    static let sixteenDigits: UInt64 = 1_000_000_000_000_000

    /// How many digits.
    var count: Int
    var head: UInt64
    var middle: UInt64 = 0
    var tail: UInt64 = 0
    /// 1, 2 or 3.
    var chunks: Int

    /// `value` ≥ 1.
    @inline(__always)
    init(_ value: UInt64) {
        if value < Self.hundredMillion {
            (head, count) = Self.leading(UInt32(truncatingIfNeeded: value))
            chunks = 1
            return
        }
        let high = value / Self.hundredMillion
        tail = Self.eightDigits(UInt32(truncatingIfNeeded: value &- high &* Self.hundredMillion)) | Self.asciiZeros
        if high < Self.hundredMillion {
            (head, count) = Self.leading(UInt32(truncatingIfNeeded: high))
            count += 8
            chunks = 2
            return
        }
        let top = high / Self.hundredMillion    // < 1845: 2^64 has 20 digits
        middle = Self.eightDigits(UInt32(truncatingIfNeeded: high &- top &* Self.hundredMillion)) | Self.asciiZeros
        (head, count) = Self.leading(UInt32(truncatingIfNeeded: top))
        count += 16
        chunks = 3
    }

    /// The digits of a `ShortestDouble` significand (< 10^17). Most doubles have 16 or 17 digits;
    /// those take no branch on which: a 17th leading digit goes into `head`, and when there is
    /// none the store of `middle` at the same place overwrites it.
    @inline(__always)
    init(significand value: UInt64) {
        guard value >= Self.sixteenDigits else {
            self.init(value)
            return
        }
        let high = value / Self.hundredMillion  // 10^7 ≤ high < 10^9
        let top = high / Self.hundredMillion    // 0…9
        self.init(count: top == 0 ? 16 : 17, head: top | Self.asciiZeros,
                  middle: Self.eightDigits(UInt32(truncatingIfNeeded: high &- top &* Self.hundredMillion)) | Self.asciiZeros,
                  tail: Self.eightDigits(UInt32(truncatingIfNeeded: value &- high &* Self.hundredMillion)) | Self.asciiZeros,
                  chunks: 3)
    }

    @inline(__always)
    init(count: Int, head: UInt64, middle: UInt64, tail: UInt64, chunks: Int) {
        self.count = count
        self.head = head
        self.middle = middle
        self.tail = tail
        self.chunks = chunks
    }

    /// Stores the `count` digits at `p`. Writes up to eight bytes from `p` even when `count` is
    /// smaller; bytes past the digits are garbage that the caller overwrites or leaves out.
    @inline(__always)
    func store(at p: UnsafeMutableRawPointer) {
        p.storeBytes(of: head.littleEndian, as: UInt64.self)
        if chunks == 1 { return }
        let headCount = count - 8 * (chunks - 1)
        if chunks == 3 {
            p.storeBytes(of: middle.littleEndian, toByteOffset: headCount, as: UInt64.self)
        }
        p.storeBytes(of: tail.littleEndian, toByteOffset: count - 8, as: UInt64.self)
    }

    /// The ASCII digits of 1 ≤ n < 10^8 without leading zeros (first digit in the lowest byte) and
    /// their number. The leading zeros are the low zero bytes of `eightDigits(n)`.
    @inline(__always)
    static func leading(_ n: UInt32) -> (UInt64, Int) {
        let digits = eightDigits(n)
        let zeroBits = digits.trailingZeroBitCount & ~7
        return ((digits | asciiZeros) &>> UInt64(zeroBits), 8 - zeroBits / 8)
    }

    /// The eight decimal digits of n < 10^8 as byte values 0…9, the most significant in the lowest
    /// byte (so a little-endian store writes them in reading order). Two lanes of four digits are
    /// split into four of two and then eight of one, all lanes at once: ⌊y / 100⌋ = ⌊y · 10486 / 2^20⌋
    /// for y < 10^4 and ⌊y / 10⌋ = ⌊y · 103 / 2^10⌋ for y < 100 (both checked over their whole
    /// ranges by the tests), and no lane's product reaches the next lane.
    @inline(__always)
    static func eightDigits(_ n: UInt32) -> UInt64 {
        let upper = n / 10_000
        let fours = UInt64(upper) | UInt64(n &- upper &* 10_000) << 32
        let hundreds = ((fours &* 10_486) >> 20) & 0x0000_007F_0000_007F
        let twos = hundreds | (fours &- hundreds &* 100) << 16
        let tens = ((twos &* 103) >> 10) & 0x000F_000F_000F_000F
        return tens | (twos &- tens &* 10) << 8
    }
}
