/// The speed |P′(u)| of one cubic spline segment, its integral and its extrema — what
/// `ArcLengthTable` measures cubicPaced's arc length with (docs/keyframes.md "cubicPaced").
///
/// A segment is given per component by its power-basis coefficients (c₀, c₁, c₂, c₃) of
/// P(u) = c₀ + c₁u + c₂u² + c₃u³ (`KeyframeTrack.spline`), so per component
/// P′(u) = 3c₃u² + 2c₂u + c₁ and P″(u) = 6c₃u + 2c₂.
///
/// Edge cases: a segment of no components or with P′ ≡ 0 has speed 0 everywhere and no extrema;
/// a segment whose speed is constant (a straight segment run evenly, as two values give) has no
/// extrema either; an extremum where the speed is 0 (a cusp) is found like any other.
enum SplineSpeed {
    /// A Gauss–Legendre rule on [−1, 1]: its positive nodes and their weights (the rule is symmetric).
    struct Rule: Sendable {
        let nodes: [Double]
        let weights: [Double]
    }

    /// 8 points: exact for polynomials of degree 15. The table's rule.
    static let eightPoint = Rule(
        nodes: [
            0.183_434_642_495_649_804_9, 0.525_532_409_916_328_985_8, 0.796_666_477_413_626_739_6,
            0.960_289_856_497_536_231_7,
        ],
        weights: [
            0.362_683_783_378_361_983_0, 0.313_706_645_877_887_287_3, 0.222_381_034_453_374_470_5,
            0.101_228_536_290_376_259_2,
        ])
    /// 4 points: exact for polynomials of degree 7. The rule of each sample's local quadrature.
    static let fourPoint = Rule(
        nodes: [0.339_981_043_584_856_264_8, 0.861_136_311_594_052_575_2],
        weights: [0.652_145_154_862_546_142_6, 0.347_854_845_137_453_857_4])

    /// |P′(u)| = √Σₖ (3c₃u² + 2c₂u + c₁)².
    static func speed(_ segment: [SIMD4<Double>], _ u: Double) -> Double {
        var sum = 0.0
        for c in segment {
            let derivative = (3 * c.w * u + 2 * c.z) * u + c.y
            sum += derivative * derivative
        }
        return sum.squareRoot()
    }

    /// |P″(u)| = √Σₖ (6c₃u + 2c₂)². P″ is affine in u, so on an interval its norm is largest at an
    /// end; and |s″| = |P′·P″|/|P′| ≤ |P″|, which bounds the arc length's curvature in u.
    static func bend(_ segment: [SIMD4<Double>], _ u: Double) -> Double {
        var sum = 0.0
        for c in segment {
            let second = 6 * c.w * u + 2 * c.z
            sum += second * second
        }
        return sum.squareRoot()
    }

    /// ∫ₐᵇ |P′(u)| du (a ≤ b) by one panel of `rule`.
    static func integral(_ segment: [SIMD4<Double>], _ a: Double, _ b: Double, _ rule: Rule) -> Double {
        let middle = 0.5 * (a + b)
        let half = 0.5 * (b - a)
        var sum = 0.0
        for (x, w) in zip(rule.nodes, rule.weights) {
            sum += w * (speed(segment, middle - half * x) + speed(segment, middle + half * x))
        }
        return half * sum
    }

    /// The parameters in (0, 1) where d|P′|²/du = 2 Σₖ P′ₖP″ₖ changes sign: the speed's extrema,
    /// among them every zero of the speed and, in one dimension, every kink of |P′| (where P′
    /// changes sign). Sorted, at most three.
    ///
    /// g(u) = Σₖ P′ₖ(u) P″ₖ(u) is a cubic, 2A²u³ + 3ABu² + (B² + 2AC)u + BC per component with
    /// A = 3c₃, B = 2c₂, C = c₁. Its own critical points cut [0, 1] into pieces on which it is
    /// monotone; each piece whose ends differ in sign holds one root, found by bisection
    /// (`bisections`).
    static func extrema(_ segment: [SIMD4<Double>]) -> [Double] {
        var g = SIMD4<Double>()  // (u⁰, u¹, u², u³) coefficients
        for c in segment {
            let a = 3 * c.w, b = 2 * c.z, k = c.y
            g += SIMD4(b * k, b * b + 2 * a * k, 3 * a * b, 2 * a * a)
        }
        guard g != SIMD4() else { return [] }
        let turns = quadraticRoots(3 * g.w, 2 * g.z, g.y).filter { $0 > 0 && $0 < 1 }.sorted()
        let ends = [0.0] + turns + [1.0]
        var roots: [Double] = []
        for (low, high) in zip(ends, ends.dropFirst()) {
            let below = cubic(g, low), above = cubic(g, high)
            if below == 0 && low > 0 { roots.append(low) }
            if (below < 0 && above > 0) || (below > 0 && above < 0) {
                roots.append(bisect(g, low, high, rising: below < 0))
            }
        }
        return roots
    }

    /// g₀ + g₁u + g₂u² + g₃u³, by Horner.
    static func cubic(_ g: SIMD4<Double>, _ u: Double) -> Double { ((g.w * u + g.z) * u + g.y) * u + g.x }

    /// Halvings of a root's bracket: 2⁻⁶⁴ is below the last bit of any u ≥ 2⁻¹¹, and a node
    /// misplaced by δ costs the quadrature about δ² of the length.
    static let bisections = 64

    /// The sign change of the cubic `g` in (low, high), halving `bisections` times or until the
    /// bracket cannot shrink.
    static func bisect(_ g: SIMD4<Double>, _ low: Double, _ high: Double, rising: Bool) -> Double {
        var low = low, high = high
        for _ in 0..<bisections {
            let middle = 0.5 * (low + high)
            if middle <= low || middle >= high { break }
            if (cubic(g, middle) < 0) == rising { low = middle } else { high = middle }
        }
        return low
    }

    /// The real roots of a·x² + b·x + c (a linear or constant equation when a = 0), by the
    /// numerically stable pair q = −(b + sign(b)·√Δ)/2, roots q/a and c/q.
    static func quadraticRoots(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
        if a == 0 { return b == 0 ? [] : [-c / b] }
        let discriminant = b * b - 4 * a * c
        guard discriminant >= 0 else { return [] }
        let q = -0.5 * (b + (b < 0 ? -1 : 1) * discriminant.squareRoot())
        return q == 0 ? [0] : [q / a, c / q]
    }
}
