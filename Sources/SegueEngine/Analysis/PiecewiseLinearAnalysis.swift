extension PiecewiseLinear {
    /// The analysis over [0, duration] (docs/curves.md "Motion analysis"), from the vertices and
    /// the segment slopes: the knots are x = 0, x = 1 and every point input between, where the
    /// curve turns or jumps; a level is crossed on a segment at the x its line gives.
    ///
    /// Edge cases:
    /// - a jump (points sharing an input) has the earlier point's output as its left limit and
    ///   the later one's as its value (right-continuous, as `progress`); outputs of points
    ///   between those two are never taken and do not count;
    /// - a jump at x = 1 ends the domain: its left limit counts, then the last value;
    /// - beyond the first or last point the end segments continue, as `progress` has them;
    /// - |velocity| is each segment's |slope|/D from where the sampler starts using it: the
    ///   right-hand derivative, so a jump's zero-length segment never counts.
    func analysis(duration: Double) -> CurveAnalysis {
        let inputs = Array(Set([0, 1] + points.map(\.input).filter { $0 > 0 && $0 < 1 })).sorted()
        let knots = inputs.enumerated().map { i, x in
            KnotProfile.Knot(time: time(x, duration), left: i == 0 ? progress(x) : leftLimit(x), value: progress(x))
        }
        let speeds = inputs.map { x in (time: time(x, duration), speed: abs(slope(x)) / duration) }
        let profile = KnotProfile(knots: knots, speeds: speeds) { piece, level in
            let (a, b) = segment(for: inputs[piece])
            let x = a.input + (level - a.output) * (b.input - a.input) / (b.output - a.output)
            return time(x, duration)
        }
        return profile.analysis()
    }

    /// Progress as x approaches `x` from below: the segment used just before it, at x.
    func leftLimit(_ x: Double) -> Double {
        let (a, b) = segment(for: x.nextDown)
        if a.input == b.input { return b.output }
        return a.output + (b.output - a.output) * (x - a.input) / (b.input - a.input)
    }

    /// D·x, exactly D at x = 1.
    private func time(_ x: Double, _ duration: Double) -> Double {
        x == 1 ? duration : duration * x
    }
}
