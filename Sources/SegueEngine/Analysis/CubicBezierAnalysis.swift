extension CubicBezier {
    /// The analysis over [0, duration] (docs/curves.md "Motion analysis"), exactly from the
    /// parametric form: at parameter s the curve is at time D·X(s) with progress Y(s).
    ///
    /// - Progress is monotone between the roots of Y′(s) in (0, 1) (a quadratic), which with
    ///   s = 0 and 1 are the knots; halfway and settling times are refined by `NewtonSearch` on s.
    /// - |velocity| = |Y′/X′|/D is extreme at s = 0 and 1, at the roots of
    ///   (Y′/X′)′ ∝ Y″X′ − Y′X″ (a quadratic: the cubic terms cancel) and at the roots of X′, where
    ///   the slope is infinite.
    ///
    /// Edge cases:
    /// - slopes are the sampler's (`slope(atParameter:)`, the exact end slopes at s = 0 and 1), so
    ///   an infinite one is `Double.greatestFiniteMagnitude` and X′ = Y′ = 0 takes the limit Y″/X″;
    ///   a slope that is infinite stays the largest double whatever D, and a finite one that
    ///   overflows when divided by D is clamped to it;
    /// - with x1, x2 in [0, 1], X′ vanishes in [0, 1] only at s = 0 (x1 = 0), s = 1 (x2 = 1) and
    ///   s = ½ (x1 = 1, x2 = 0, a double root), all found exactly by the quadratic formula;
    /// - progress at s = 0 and 1 is exactly 0 and 1, as the sampler reads it;
    /// - the identity (x1 = y1, x2 = y2) has X ≡ Y, so the same computation gives slope 1 and no
    ///   interior knot.
    func analysis(duration: Double) -> CurveAnalysis {
        let interior = { (roots: [Double]) in roots.filter { $0 > 0 && $0 < 1 } }
        // A double root comes twice: the knots are 0, the distinct turns in order, and 1.
        var knotParameters = [0.0]
        for s in interior(SplineSpeed.quadraticRoots(3 * ay, 2 * by, cy)).sorted() where s != knotParameters.last {
            knotParameters.append(s)
        }
        knotParameters.append(1)
        let knots = knotParameters.map { s in
            let progress = progress(atParameter: s)
            return KnotProfile.Knot(time: time(atParameter: s, duration), left: progress, value: progress)
        }
        let bends = interior(SplineSpeed.quadraticRoots(3 * (ay * bx - ax * by), 3 * (ay * cx - ax * cy), by * cx - bx * cy))
        let poles = SplineSpeed.quadraticRoots(3 * ax, 2 * bx, cx).filter { $0 >= 0 && $0 <= 1 }
        let speeds = ([0, 1] + bends + poles).map { s in
            (time: time(atParameter: s, duration), speed: speed(atParameter: s, duration))
        }
        let profile = KnotProfile(knots: knots, speeds: speeds) { piece, level in
            time(atParameter: crossing(level, from: knotParameters[piece], to: knotParameters[piece + 1]), duration)
        }
        return profile.analysis()
    }

    /// The least s in [start, end], a monotone piece, where Y has passed `level` (Y ≥ level on a
    /// rising piece, ≤ on a falling one): Halley steps on Y − level (Y′ and Y″ are the
    /// polynomial's) from where the chord between the piece's ends meets the level.
    private func crossing(_ level: Double, from start: Double, to end: Double) -> Double {
        let low = progress(atParameter: start), high = progress(atParameter: end), rising = high > low
        let guess = start + (level - low) / (high - low) * (end - start)
        return NewtonSearch.boundary(start, end, from: guess) { s in
            let y = Self.cubic(ay, by, cy, s)
            return NewtonSearch.Probe(holds: rising ? y >= level : y <= level, correction: NewtonSearch.halleyStep(
                residual: level - y, slope: Self.derivative(ay, by, cy, s), curvature: 6 * ay * s + 2 * by))
        }
    }

    /// Y(s), exactly 0 and 1 at the ends.
    private func progress(atParameter s: Double) -> Double {
        s == 0 ? 0 : s == 1 ? 1 : Self.cubic(ay, by, cy, s)
    }

    /// D·X(s), exactly 0 and D at the ends.
    private func time(atParameter s: Double, _ duration: Double) -> Double {
        s == 0 ? 0 : s == 1 ? duration : duration * Self.cubic(ax, bx, cx, s)
    }

    /// |dy/dx|/D at s, as the sampler computes the slope there.
    private func speed(atParameter s: Double, _ duration: Double) -> Double {
        let slope = abs(s == 0 ? startSlope : s == 1 ? endSlope : slope(atParameter: s))
        if slope == .greatestFiniteMagnitude { return slope }
        return min(slope / duration, .greatestFiniteMagnitude)
    }
}
