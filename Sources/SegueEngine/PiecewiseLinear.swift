/// CSS `linear()` easing: straight segments through resolved points
/// (CSS Easing 2, https://drafts.csswg.org/css-easing-2/#the-linear-easing-function).
///
/// Edge cases:
/// - Points sharing an input make a vertical jump: at that input the later point wins
///   (right-continuous), and the segment's slope is 0.
/// - Inputs beyond the first or last point continue the first or last segment; below a vertical
///   first segment the output is its second point's output (as the spec's algorithm gives).
/// - `init?(stops:)` fails for fewer than two stops. `init(points:)` expects at least two
///   points; fewer (a caller error) is padded so evaluation cannot trap: no points behave as
///   the identity, one point as a constant.
public struct PiecewiseLinear: Sendable, Equatable {
    /// One resolved point; inputs are fractions (50% is 0.5).
    public struct Point: Sendable, Equatable {
        public var input: Double
        public var output: Double

        public init(input: Double, output: Double) {
            self.input = input
            self.output = output
        }
    }

    /// One `<linear-stop>` as written: an output and zero, one or two input positions
    /// (fractions). A `secondInput` without an `input` is ignored.
    public struct Stop: Sendable, Equatable {
        public var output: Double
        public var input: Double?
        public var secondInput: Double?

        public init(output: Double, input: Double? = nil, secondInput: Double? = nil) {
            self.output = output
            self.input = input
            self.secondInput = secondInput
        }
    }

    public let points: [Point]

    /// The spec's "create a linear easing function" (numbered steps mirrored below).
    public init?(stops: [Stop]) {
        // 3. Fewer than two stops: failure.
        guard stops.count >= 2 else { return nil }
        // 2. largestInput starts at −infinity.
        var largestInput = -Double.infinity
        var inputs: [Double?] = []
        var outputs: [Double] = []
        // 4. Each stop gives a point; its input never goes below an earlier one.
        for (index, stop) in stops.enumerated() {
            outputs.append(stop.output)
            if let first = stop.input {
                largestInput = max(first, largestInput)
                inputs.append(largestInput)
                if let second = stop.secondInput {
                    largestInput = max(second, largestInput)
                    outputs.append(stop.output)
                    inputs.append(largestInput)
                }
            } else if index == 0 {
                largestInput = 0
                inputs.append(0)
            } else if index == stops.count - 1 {
                inputs.append(max(1, largestInput))
            } else {
                inputs.append(nil)
            }
        }
        // 5. Runs of missing inputs are spaced evenly between their known neighbours (the first
        //    and last inputs are always known).
        var resolved: [Point] = []
        resolved.reserveCapacity(inputs.count)
        var previous: (index: Int, input: Double)?
        for (index, input) in inputs.enumerated() {
            guard let input else { continue }
            if let previous {
                for gap in (previous.index + 1)..<index {
                    let fraction = Double(gap - previous.index) / Double(index - previous.index)
                    let gapInput = previous.input + (input - previous.input) * fraction
                    resolved.append(Point(input: gapInput, output: outputs[gap]))
                }
            }
            resolved.append(Point(input: input, output: outputs[index]))
            previous = (index, input)
        }
        points = resolved
    }

    /// Already-resolved points, in order of non-decreasing input (at least two).
    public init(points: [Point]) {
        switch points.count {
        case 0: self.points = [Point(input: 0, output: 0), Point(input: 1, output: 1)]
        case 1: self.points = [points[0], points[0]]
        default: self.points = points
        }
    }

    /// The spec's "calculate linear easing output progress".
    public func progress(_ x: Double) -> Double {
        let (a, b) = segment(for: x)
        if a.input == b.input { return b.output }
        return a.output + (b.output - a.output) * (x - a.input) / (b.input - a.input)
    }

    /// Derivative of the segment used at x; 0 on a vertical (equal-input) segment.
    public func slope(_ x: Double) -> Double {
        let (a, b) = segment(for: x)
        if a.input == b.input { return 0 }
        return (b.output - a.output) / (b.input - a.input)
    }

    /// pointA = the last point with input ≤ x (the first point if none; the one before the last
    /// if it is the last), pointB = the point after it. Binary search over the sorted inputs.
    func segment(for x: Double) -> (Point, Point) {
        var lo = 1, hi = points.count - 1
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if points[mid].input <= x { lo = mid + 1 } else { hi = mid }
        }
        return (points[lo - 1], points[lo])
    }
}
