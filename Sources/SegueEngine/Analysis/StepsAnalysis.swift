extension Steps {
    /// The analysis over [0, duration] (docs/curves.md "Motion analysis"), from the jumps: step k
    /// (k = 0 … n) starts at D·k/n and holds one output until the next, the outputs never
    /// decrease, and they stay within [0, 1] there (CSS's clamps), ending at exactly 1.
    ///
    /// Edge cases:
    /// - velocity is 0 everywhere, jumps included, so the peak velocity is 0 with no time;
    /// - no overshoot, no undershoot and no sign change of progress − 1 (it reaches 1 and stops);
    /// - a jump at 0 (`jump-start`, `jump-both`) is the value at 0: `step-start` is halfway and
    ///   settled at 0;
    /// - each step's output is read from `progress` in the middle of the step, where x·n cannot
    ///   round onto a boundary; the last (k = n) at x = 1.
    func analysis(duration: Double) -> CurveAnalysis {
        let n = count
        func output(_ k: Int) -> Double { k < n ? progress((Double(k) + 0.5) / Double(n)) : progress(1) }
        func start(_ k: Int) -> Double { k == n ? duration : duration * Double(k) / Double(n) }
        func settle(_ band: Double) -> Double? {
            MonotoneSearch.firstIndex(in: 0...n) { abs(output($0) - 1) <= band }.map(start)
        }
        return CurveAnalysis(
            overshoot: CurveAnalysis.Extreme(), undershoot: CurveAnalysis.Extreme(), peakVelocity: CurveAnalysis.Extreme(),
            halfway: MonotoneSearch.firstIndex(in: 0...n) { output($0) >= CurveAnalysis.halfwayLevel }.map(start),
            settle: CurveAnalysis.Settle(coarse: settle(CurveAnalysis.Settle.coarseBand), fine: settle(CurveAnalysis.Settle.fineBand)),
            oscillations: 0)
    }
}
