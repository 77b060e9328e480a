extension SceneCost {
    /// The curve route's `analysis` (docs/cost.md "What is counted, and when"): the evaluations of
    /// the curve it makes at most, each counted as one of the sampler's (`evaluation(of:)`) —
    /// three searches (halfway and two settling times) of at most `NewtonSearch.newtonSteps`
    /// Newton points and `NewtonSearch.halvings` halvings and, for a spring's tail,
    /// `NewtonSearch.doublings` jumps, besides the candidates of every supremum and the knots.
    /// A bound: an ordinary search takes a handful of Newton points and no halving.
    public static func curveAnalysis(_ curve: TimingCurve) -> Double {
        let searches = 3.0, search = Double(NewtonSearch.newtonSteps + NewtonSearch.halvings)
        let evaluations: Double
        switch curve {
        case .cubicBezier:
            // Four knots and eight velocity candidates at most.
            evaluations = searches * search + bezierCandidates
        case .steps(let steps):
            evaluations = searches * (log2(steps.count + 1) + 1)
        case .piecewiseLinear(let curve):
            // Per knot: its value, its left limit and its slope; one exact crossing per search.
            evaluations = 3 * Double(curve.points.count + 2) + searches
        case .spring, .durationSpring:
            evaluations = searches * (search + Double(NewtonSearch.doublings)) + springCandidates
        }
        return evaluations * evaluation(of: curve)
    }

    /// Knots and velocity candidates of a Bézier's analysis.
    static let bezierCandidates = 12.0
    /// Suprema candidates (twice five), knots walked and envelope checks of a spring's analysis.
    static let springCandidates = 24.0
}
