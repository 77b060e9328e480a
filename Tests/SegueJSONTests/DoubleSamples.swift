import SegueTestSupport

/// The doubles `ShortestDoubleTests` checks against Swift's `description`: deterministic
/// (SplitMix64 with fixed seeds), grouped by what each group is after. About 11.9 million in all.
enum DoubleSamples {
    enum Category: String, CaseIterable {
        /// Uniform 64-bit patterns (the non-finite ones skipped): every exponent, both signs.
        case randomBits
        /// Each of the 2046 binary exponents of finite doubles, 500 random significands each plus
        /// the first and last significand of the binade, both signs.
        case everyBinade
        /// Random significands with exponents between about 1e-7 and 1e7: the magnitudes of
        /// progress values, times, points and colours that the service writes.
        case renderRange
        /// 10^k for k = −323…308 and the 200 doubles on either side of each.
        case powersOfTen
        /// Every subnormal with a significand below 200,000 or above 2^52 − 200,000, random ones,
        /// and the 1,000 doubles on either side of the least normal double.
        case subnormals
        /// 0…1,000,000, random integers below 2^53, random integral doubles from 2^53 to 2^70.
        case integers
        /// 2^n for n = −1074…1023 and the 64 doubles on either side (the asymmetric intervals).
        case powersOfTwo
        /// Decimals of 1 to 7 significant digits with exponents −30…30, the nearest double and the
        /// two on either side: values whose shortest text is short, or just misses being short.
        case shortDecimals
        /// (d + 1/2) · 10^e for d of 1 to 15 digits: doubles next to the midpoint between two
        /// candidates of the same length, where "closest" decides (±2 doubles).
        case midpoints
        /// n + 1/2, n + 1/4, n + 3/4 and m / 2^f for f ≤ 8: the dyadic fractions of the fast path
        /// and their neighbours.
        case dyadic
        /// Negated samples of the positive-only categories above.
        case negatives
    }

    /// Calls `body` with every sample of `category`.
    static func generate(_ category: Category, _ body: (Double) -> Void) {
        var random = SplitMix64(seed: 0x5D0_0000 &+ UInt64(Category.allCases.firstIndex(of: category)!))
        switch category {
        case .randomBits:
            for _ in 0..<3_000_000 {
                let value = Double(bitPattern: random.next())
                if value.isFinite { body(value) }
            }
        case .everyBinade:
            for biased in UInt64(1)...2046 {
                for sign in [UInt64(0), 1 << 63] {
                    let exponent = sign | biased << 52
                    body(Double(bitPattern: exponent))
                    body(Double(bitPattern: exponent | (1 << 52 - 1)))
                    for _ in 0..<500 { body(Double(bitPattern: exponent | random.next() >> 12)) }
                }
            }
        case .renderRange:
            for _ in 0..<1_500_000 {
                let biased = 1023 - 24 + random.next() % 48      // 2^-24 … 2^23
                body(Double(bitPattern: biased << 52 | random.next() >> 12))
            }
        case .powersOfTen:
            for k in -323...308 {
                around(Double("1e\(k)")!, 200, body)
            }
        case .subnormals:
            for c in UInt64(1)..<200_000 { body(Double(bitPattern: c)) }
            for c in (UInt64(1) << 52 - 200_000)..<(1 << 52) { body(Double(bitPattern: c)) }
            for _ in 0..<300_000 { body(Double(bitPattern: random.next() >> 12)) }
            around(.leastNormalMagnitude, 1000, body)
        case .integers:
            for n in 0...1_000_000 { body(Double(n)) }
            for _ in 0..<1_000_000 { body(Double(random.next() >> 11)) }
            for _ in 0..<200_000 { body(Double(random.next() >> 11) * Double(1 << (1 + random.next() % 17))) }
        case .powersOfTwo:
            for n in -1074...1023 {
                around(Double(sign: .plus, exponent: n, significand: 1), 64, body)
            }
        case .shortDecimals:
            for _ in 0..<300_000 {
                let digits = 1 + random.next() % 9_999_999
                let exponent = Int(random.next() % 61) - 30
                around(Double("\(digits)e\(exponent)")!, 2, body)
            }
        case .midpoints:
            for _ in 0..<200_000 {
                let length = 1 + random.next() % 15
                var digits: UInt64 = 1 + random.next() % 9
                for _ in 1..<length { digits = digits * 10 + random.next() % 10 }
                let exponent = Int(random.next() % 80) - 40
                around(Double("\(digits)5e\(exponent - 1)")!, 2, body)
            }
        case .dyadic:
            for _ in 0..<100_000 {
                let n = Double(random.next() % 10_000_000)
                for fraction in [0.5, 0.25, 0.75] { body(n + fraction) }
                let f = 1 + random.next() % 8
                body(Double(random.next() % (1 << 30)) / Double(1 << f))
                body((n + 0.5).nextUp)
            }
        case .negatives:
            for source in [Category.renderRange, .shortDecimals, .midpoints, .dyadic, .powersOfTen] {
                var count = 0
                generate(source) { value in
                    count += 1
                    if count % 10 == 0 { body(-value) }
                }
            }
        }
    }

    /// `value`, and `count` doubles on either side of it (staying finite and positive).
    private static func around(_ value: Double, _ count: Int, _ body: (Double) -> Void) {
        body(value)
        var up = value, down = value
        for _ in 0..<count {
            up = up.nextUp
            down = down.nextDown
            if up.isFinite { body(up) }
            if down > 0 { body(down) }
        }
    }
}
