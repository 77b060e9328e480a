/// The shortest decimal that reads back as a given double — the digits Swift's `description` prints.
///
/// For a finite, nonzero double v = c · 2^q (c the integer significand, q the binary exponent;
/// the sign is ignored), `ShortestDouble` finds integers `digits` = d and `exponent` = e such that
///
///  1. d · 10^e lies in v's rounding interval R: the reals that a correctly rounded reader turns
///     back into v — up to halfway to each neighbouring double, the two ends included exactly when
///     c is even (round half to even);
///  2. d has the fewest decimal digits of all decimals in R;
///  3. of those, d · 10^e is the closest to v, and an exact tie goes to the even d.
///
/// and d has no trailing zero. These are the three promises of the formatter in Swift's standard
/// library (accurate, short, close), so the digits agree with `description` for every double;
/// `Tests/SegueJSONTests/ShortestDoubleTests.swift` compares them on more than ten million doubles
/// and `Fuzz/ShortestDoubleFuzz.swift` on whatever libFuzzer finds.
///
/// The algorithm is Schubfach: Raffaello Giulietti, "The Schubfach way to render doubles" (2020,
/// revised 2021). The steps mirror the paper's outline (its Figure 4): the decomposition c · 2^q
/// and the scale 10^k with k = ⌊log10 2^q⌋ (§8); the choice among the four candidates
/// s′ · 10^(k+1), t′ · 10^(k+1), s · 10^k and t · 10^k (§9.4); the products rounded to odd (§9.10 and
/// Figure 5), here with a 128-bit table instead of the paper's 126 bits. The exactness of those
/// products is proved for this table by `scripts/powers-of-ten.py verify` (docs/numbers.md).
///
/// Edge cases, each handled before or by the general path and each named in the tests:
///   - subnormals (c < 2^52, q = −1074), including the least one, 5e-324;
///   - the asymmetric interval at a power of two (c = 2^52, q > −1074): the neighbour below is
///     half as far, so R's lower end is a quarter step below v and k = ⌊log10(3/4 · 2^q)⌋;
///   - the least normal double (c = 2^52, q = −1074), whose interval is symmetric;
///   - integers below 2^53 (0 ≤ −q ≤ 52 with no fraction bits) and dyadic short fractions
///     (`exactShort`), whose exact value is already the shortest decimal;
///   - zero, infinities and NaN are not handled here (`DoubleText` writes zero).
struct ShortestDouble: Equatable {
    /// d, without trailing zeros.
    var digits: UInt64
    /// e: the value is `digits` · 10^`exponent`.
    var exponent: Int

    init(digits: UInt64, exponent: Int) {
        self.digits = digits
        self.exponent = exponent
    }

    /// The shortest decimal of a finite, nonzero double given by its bits (the sign bit is ignored).
    @inline(__always)
    init(bits: UInt64) {
        let fraction = bits & Self.fractionMask
        let biased = Int(truncatingIfNeeded: bits >> Self.fractionBits) & Self.biasedExponentMask
        let c: UInt64
        let q: Int
        if biased == 0 {
            c = fraction
            q = Self.minimumExponent
        } else {
            c = fraction | Self.hiddenBit
            q = biased - Self.exponentBias
        }
        if let exact = Self.exactShort(c: c, q: q) {
            self = exact
        } else {
            // The interval is asymmetric only at a power of two above the least normal double.
            self = Self.schubfach(c: c, q: q, symmetric: fraction != 0 || biased <= 1)
        }
    }

    // MARK: Constants of binary64

    static let fractionBits = 52
    static let fractionMask: UInt64 = (1 << 52) - 1
    static let hiddenBit: UInt64 = 1 << 52
    static let biasedExponentMask = 0x7FF
    /// q = biased exponent − 1075 for normal doubles (the significand taken as an integer).
    static let exponentBias = 1075
    /// q of the subnormals and of the least normal binade.
    static let minimumExponent = -1074
    /// The most fraction digits `exactShort` writes (their significand · 5^d stays below 2^64).
    static let shortFractionDigits = 4

    // MARK: Fast path

    /// The exact value of v as its decimal when that is certainly the shortest (§8.2–8.3 of the paper
    /// for integers; the dyadic case is the same argument):
    ///   - v an integer below 2^53 (−52 ≤ q ≤ 0 and v = c / 2^−q exactly): R is narrower than 1 and
    ///     holds no other integer, and every non-integer decimal is longer.
    ///   - v = m / 2^f exactly with m odd and 1 ≤ f ≤ 4, so v = (m · 5^f) / 10^f has f fraction
    ///     digits, when the step 2^q between doubles is below 10^−f: then R (no wider than one
    ///     step) holds no other multiple of 10^−f, so every other decimal in R has more fraction
    ///     digits — and, as R holds no integer and no power of ten other than v itself, more
    ///     significant digits. The exact value is also the closest, so the result is Schubfach's.
    ///     2^q < 10^−f ⟺ q + ⌊f · log2 10⌋ + 1 ≤ 0.
    /// Both cases need −56 ≤ q ≤ 0 (a normal c has at most 52 trailing zero bits), which most
    /// doubles outside 2^−4…2^53 fail at the first comparison.
    @inline(__always)
    static func exactShort(c: UInt64, q: Int) -> ShortestDouble? {
        guard q <= 0 && q >= -(fractionBits + shortFractionDigits) else { return nil }
        let zeros = c.trailingZeroBitCount
        let scale = q + zeros               // v = (c >> zeros) · 2^scale, c >> zeros odd
        if scale >= 0 {                     // then q ≥ −52
            return stripped(c &>> UInt64(-q), 0)
        }
        let fractionDigits = -scale
        guard fractionDigits <= shortFractionDigits, q + floorLog2Pow10(fractionDigits) + 1 <= 0 else { return nil }
        var m = c &>> UInt64(zeros)
        for _ in 0..<fractionDigits { m &*= 5 }
        return ShortestDouble(digits: m, exponent: scale)
    }

    // MARK: Schubfach

    /// The general path. With c̄ = 4c and R's ends ū = c̄ − 2 (or c̄ − 1 at an asymmetric power of two)
    /// and w̄ = c̄ + 2 in quarter steps, the scaled points v̄ = c̄ · 2^q · 10^−k etc. are computed
    /// rounded to odd, which compares exactly with every even integer (docs/numbers.md). Then, with
    /// s = ⌊v · 10^−k⌋ and t = s + 1 (§9.4):
    ///   1. R holds at most one multiple of 10^(k+1) (R is narrower than 10^(k+1)); if it holds
    ///      s′ · 10^(k+1) or t′ · 10^(k+1) (s′ = ⌊s / 10⌋, t′ = s′ + 1), that one is the shortest
    ///      (after its own trailing zeros are removed);
    ///   2. otherwise R holds s · 10^k or t · 10^k (R is at least 10^k wide); if only one, it is
    ///      the answer; if both, the closer to v, s on a tie when s is even. (When only one is in
    ///      R it is also the closer, so "s if s is in R and closer, else t" says the same.)
    @inline(__always)
    static func schubfach(c: UInt64, q: Int, symmetric: Bool) -> ShortestDouble {
        let open: UInt64 = c & 1            // R excludes its ends when c is odd
        let cb = c << 2
        let cbr = cb + 2
        let cbl: UInt64
        let k: Int
        if symmetric {
            cbl = cb - 2
            k = floorLog10Pow2(q)
        } else {
            cbl = cb - 1
            k = floorLog10ThreeQuartersPow2(q)
        }
        let scale = ScaledPowerOfTen(exponent: -k)
        let shift = UInt64(q + floorLog2Pow10(-k) + 1)   // 1...4: keeps c̄ << shift below 2^59
        let vb = scale.roundedToOdd(cb &<< shift)
        let vbl = scale.roundedToOdd(cbl &<< shift)
        let vbr = scale.roundedToOdd(cbr &<< shift)

        let s = vb >> 2
        let sp = s / 10                     // s′; t′ = s′ + 1
        let upin = vbl + open <= sp &* 40   // s′ · 10^(k+1) in R: 4 · 10 · s′ in quarter steps
        let wpin = (sp + 1) &* 40 + open <= vbr
        let uin = vbl + open <= s << 2      // s · 10^k in R
        let midpoint = (s << 2) + 2         // 4 · (s + 1/2) in the units of vb
        // v is closer to s than to t = s + 1, or halfway with s even: v̄ < m, or v̄ = m and s even,
        // for v̄ = 4v · 10^−k and m = 4s + 2. vb is v̄ rounded to odd and m is even, so vb compares
        // with m as v̄ does, and vb + (s & 1) ≤ m says it all in one comparison.
        let closerToS = vb + (s & 1) <= midpoint
        // Step 2 needs only these two: when exactly one of s, t is in R it is also the closer
        // one (R reaches as far on both sides of v, or less far below it at a power of two), and
        // when both are, the closer wins. Both steps are computed and one is selected, so the
        // processor has no branch to guess.
        let shorter = upin != wpin
        let digits = shorter ? sp + (upin ? 0 : 1) : s + (uin && closerToS ? 0 : 1)
        return stripped(digits, shorter ? k + 1 : k)
    }

    /// `digits` · 10^`exponent` with the trailing zeros of `digits` (< 10^17, nonzero) moved into
    /// the exponent. Most results have none (step 2's s or t never ends in zero, step 1's s′ or t′
    /// seldom), so one test decides; otherwise four divisibility steps (by 10^8, 10^4,
    /// 10^2, 10) and a first one for 10^16.
    @inline(__always)
    static func stripped(_ digits: UInt64, _ exponent: Int) -> ShortestDouble {
        guard digits % 10 == 0 else { return ShortestDouble(digits: digits, exponent: exponent) }
        var d = digits
        var e = exponent
        if d % 10_000_000_000_000_000 == 0 { d /= 10_000_000_000_000_000; e += 16 }
        if d % 100_000_000 == 0 { d /= 100_000_000; e += 8 }
        if d % 10_000 == 0 { d /= 10_000; e += 4 }
        if d % 100 == 0 { d /= 100; e += 2 }
        if d % 10 == 0 { d /= 10; e += 1 }
        return ShortestDouble(digits: d, exponent: e)
    }

    // MARK: Logarithms (constants derived and checked over these ranges by scripts/powers-of-ten.py)

    /// ⌊q · log10 2⌋ for q in −1074...971.
    @inline(__always)
    static func floorLog10Pow2(_ q: Int) -> Int {
        (q &* PowersOfTen.log10Of2Multiplier) >> PowersOfTen.log10Shift
    }

    /// ⌊log10(3/4 · 2^q)⌋ for q in −1073...971.
    @inline(__always)
    static func floorLog10ThreeQuartersPow2(_ q: Int) -> Int {
        (q &* PowersOfTen.log10Of2MultiplierForThreeQuarters &- PowersOfTen.log10OfThreeQuartersOffset) >> PowersOfTen.log10Shift
    }

    /// ⌊n · log2 10⌋ for n in −292...324.
    @inline(__always)
    static func floorLog2Pow10(_ n: Int) -> Int {
        (n &* PowersOfTen.log2Of10Multiplier) >> PowersOfTen.log2Shift
    }
}

/// G(n) ≈ 10^n · 2^(127 − ⌊log2 10^n⌋) from `PowersOfTen`, and the product rounded to odd.
struct ScaledPowerOfTen {
    var high: UInt64
    var low: UInt64
    /// All ones when G(n) is exact (n in 0...55): then the whole 192-bit product counts for the
    /// sticky bit. Zero otherwise: G(n) is then up to one unit too large, which adds less than
    /// 2^64 to the product, so the lowest 64 bits are noise and are left out.
    var lowWordMask: UInt64

    @inline(__always)
    init(exponent n: Int) {
        let row = (n - PowersOfTen.minimumExponent) << 1
        high = PowersOfTen.halves[row]
        low = PowersOfTen.halves[row + 1]
        lowWordMask = PowersOfTen.exactExponents.contains(n) ? .max : 0
    }

    /// r(x) for x = 10^n · 2^(127 − ⌊log2 10^n⌋) · cp / 2^128 with the exact power of ten: ⌊x⌋ when x
    /// is an integer, else ⌊x⌋ | 1. Rounded to odd, x keeps its order against every even integer m
    /// (x < m ⟺ r(x) < m, x = m ⟺ r(x) = m), which is all that `ShortestDouble.schubfach` asks of
    /// it. Computed from the table's G(n) and the top 128 bits of the 192-bit product; that this
    /// is exact for every cp a double gives (cp < 2^59) is what `scripts/powers-of-ten.py verify`
    /// proves (docs/numbers.md "Why 128 bits are enough").
    @inline(__always)
    func roundedToOdd(_ cp: UInt64) -> UInt64 {
        let upper = high.multipliedFullWidth(by: cp)     // G_high · cp, weight 2^64
        let lower = low.multipliedFullWidth(by: cp)      // G_low · cp, weight 1
        let (middle, carry) = upper.low.addingReportingOverflow(lower.high)
        let integer = upper.high &+ (carry ? 1 : 0)
        let sticky = (middle | (lower.low & lowWordMask)) != 0
        return integer | (sticky ? 1 : 0)
    }
}
