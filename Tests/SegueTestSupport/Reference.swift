import Foundation

/// Independent models the tests compute expectations from (shared/reference), written here by
/// other methods than the engine's so that a test never checks the implementation against itself.
public enum Reference {
    /// A cubic Bézier timing curve (docs/curves.md "Cubic Bézier curves"), solved by bisection on X(t) = x to the last
    /// bit — deliberately a different method from the engine's Newton + bisection.
    public struct Bezier: Sendable {
        public var x1: Double, y1: Double, x2: Double, y2: Double
        public static let easeInOut = Bezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        public static let linear = Bezier(x1: 0, y1: 0, x2: 1, y2: 1)

        public init(x1: Double, y1: Double, x2: Double, y2: Double) {
            self.x1 = x1
            self.y1 = y1
            self.x2 = x2
            self.y2 = y2
        }

        public func callAsFunction(_ x: Double) -> Double {
            if x <= 0 { return 0 }
            if x >= 1 { return 1 }
            if x1 == y1 && x2 == y2 { return x }  // the identity (docs/curves.md "Solving for the curve parameter")
            let cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx
            let cy = 3 * y1, by = 3 * (y2 - y1) - cy, ay = 1 - cy - by
            var lo = 0.0, hi = 1.0
            for _ in 0..<200 {
                let mid = (lo + hi) / 2
                if mid <= lo || mid >= hi { break }
                if ((ax * mid + bx) * mid + cx) * mid < x { lo = mid } else { hi = mid }
            }
            let t = (lo + hi) / 2
            return ((ay * t + by) * t + cy) * t
        }
    }

    /// UIKit's dampingRatio spring over a duration T with initial velocity 0 (docs/springs.md "UIKit duration-based springs"):
    /// ω = ln(ζ / (ε√(1−ζ²))) / (ζT), ε = 0.001 — the root UIKit's Newton iteration converges to —
    /// on the CASpringAnimation curve of docs/springs.md "Core Animation springs", and exactly 1 from T on (docs/rules.md "The curve route").
    public static func uikitSpring(ratio zeta: Double, duration: Double, at t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= duration { return 1 }
        let omega = log(zeta / (0.001 * (1 - zeta * zeta).squareRoot())) / (zeta * duration)
        let omegaD = omega * (1 - zeta * zeta).squareRoot()
        return 1 - exp(-zeta * omega * t) * (cos(omegaD * t) + zeta * omega / omegaD * sin(omegaD * t))
    }
}
