extension SceneCost {
    /// The curve route's `compare` (docs/cost.md "What is counted, and when", docs/springs.md
    /// "Compare mode"), before any of it runs: every engine's simulation up to the comparison's
    /// horizon (`SpringComparison.simulationSteps`, each step as one unit of physics work), and per
    /// sample and engine its reading (a spring sample for the closed forms, a stored tick or a
    /// closed form for the physics engines), its deviation and its number printed.
    public static func springComparison(_ comparison: SpringComparison, samples: Int) -> Double {
        var work = 0.0
        for engine in comparison.engines {
            // A stored tick for the integrators, a closed form for the others.
            let reading = [.pop, .rebound, .objcio].contains(engine) ? physicsComponent : springSample
            work += comparison.simulationSteps(engine) * simulationStep
            work += Double(samples) * (reading + lerpComponent + numberWritten)
        }
        return work
    }
}
