/// Where the jumps of a step easing function fall (CSS `<step-position>`; `start` behaves as
/// `jumpStart` and `end` as `jumpEnd`, kept apart only for serialisation).
public enum StepPosition: String, Sendable, CaseIterable {
    case jumpStart, jumpEnd, jumpNone, jumpBoth, start, end
}

/// CSS `steps(count, position)`, evaluated as CSS Easing 2 "Output of a step easing function"
/// (https://drafts.csswg.org/css-easing-2/#step-easing-algo); the numbered steps below mirror it.
///
/// Edge cases:
/// - Inputs outside [0, 1] are not clamped, except by the spec's two clamps (steps 4 and 6):
///   chained easings reach them (steps(2, jump-none) at 2.4 gives 4).
/// - Everything is computed in Double, so x = ±1e308, ±infinity or NaN cannot overflow an Int
///   conversion; they give ±infinity or NaN.
/// - The caller validates count ≥ 1 (≥ 2 for jumpNone); a count that leaves zero jumps gives
///   NaN or ±infinity, not a trap.
/// - x·count is rounded as a Double product, as in browsers: 0.6·5 is exactly 3.
public struct Steps: Sendable, Equatable {
    public let count: Int
    public let position: StepPosition

    public init(count: Int, position: StepPosition = .jumpEnd) {
        self.count = count
        self.position = position
    }

    /// Output progress for input x; `before` is the CSS before flag (animation in its before
    /// phase), which moves the output at a step boundary to the lower step.
    public func progress(_ x: Double, before: Bool = false) -> Double {
        let steps = Double(count)
        let scaled = x * steps
        // 1. current step = floor(x × steps).
        var current = scaled.rounded(.down)
        // 2. jump-start and jump-both add one.
        if position == .jumpStart || position == .start || position == .jumpBoth {
            current += 1
        }
        // 3. Before flag set and x × steps mod 1 = 0: subtract one.
        if before && scaled == scaled.rounded(.down) {
            current -= 1
        }
        // 4. x ≥ 0 and current step < 0: current step = 0.
        if x >= 0 && current < 0 {
            current = 0
        }
        // 5. jumps: steps for jump-start / jump-end, steps − 1 for jump-none, steps + 1 for jump-both.
        let jumps: Double
        switch position {
        case .jumpStart, .start, .jumpEnd, .end: jumps = steps
        case .jumpNone: jumps = steps - 1
        case .jumpBoth: jumps = steps + 1
        }
        // 6. x ≤ 1 and current step > jumps: current step = jumps.
        if x <= 1 && current > jumps {
            current = jumps
        }
        // 7. Output = current step / jumps.
        return current / jumps
    }
}
