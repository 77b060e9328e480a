/// SplitMix64 (Steele, Lea & Flood 2014): a tiny deterministic generator, the same sequence on
/// every platform, so every run of a property test checks the same samples.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    public init(seed: UInt64) {
        self.init(state: seed)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Draws built on `next()` alone rather than the standard library's `random(in:using:)` and
/// `randomElement(using:)`, whose algorithms may change between Swift releases: a seed keeps
/// drawing the same samples.
extension SplitMix64 {
    /// Uniform in 0..<bound (the modulo bias is irrelevant to test samples).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with the given probability (53 random bits against it).
    mutating func chance(_ probability: Double) -> Bool { Double(next() >> 11) * 0x1p-53 < probability }

    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    /// `count` random decimal digits, the first one non-zero when `leadingNonZero`.
    mutating func digits(_ count: Int, leadingNonZero: Bool) -> String {
        var text = ""
        for i in 0..<count {
            text.append(Character(Unicode.Scalar(UInt8(i == 0 && leadingNonZero ? 0x31 + below(9) : 0x30 + below(10)))))
        }
        return text
    }
}
