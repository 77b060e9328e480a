import Foundation

/// An `<easing-function>` of CSS Easing Functions Level 2 (§2 "Easing functions"), parsed from its text
/// and evaluated the way a browser evaluates it — written from the specification, independent of
/// SegueEngine's curves.
///
/// Equality is that of the computed value: the keywords `linear`, `ease`, `ease-in`, `ease-out` and
/// `ease-in-out` compute to themselves (§2.5 "Serialization": they are not converted), `step-start` and
/// `step-end` compute to `steps(1, start)` and `steps(1, end)` (§2.4), and `steps(n)` to `steps(n, end)`.
/// CSS Animations 2 §"Keyframes" merges keyframe blocks whose timing functions are equal in this sense.
public struct CSSEasing: Equatable, Sendable, CustomStringConvertible {
    /// A `<step-position>` (§2.4). `start` and `end` evaluate as `jump-start` and `jump-end` but stay
    /// distinct values.
    public enum StepPosition: String, Sendable {
        case jumpStart = "jump-start", jumpEnd = "jump-end", jumpNone = "jump-none", jumpBoth = "jump-both"
        case start, end
    }

    /// A linear easing point (§2.1): an input progress and its output.
    public struct LinearPoint: Equatable, Sendable {
        public var input: Double
        public var output: Double

        public init(input: Double, output: Double) {
            self.input = input
            self.output = output
        }
    }

    /// The three kinds of easing function of Level 2.
    public enum Function: Equatable, Sendable {
        /// A linear easing function (§2.1) with its points, every input already filled in.
        case linear([LinearPoint])
        /// A cubic Bézier easing function (§2.3) through (0, 0), P1, P2, (1, 1).
        case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
        /// A step easing function (§2.4).
        case steps(Int, StepPosition)
    }

    public let function: Function
    /// The keyword the function was written as (`linear`, `ease`, …), nil for a function.
    public let keyword: String?

    public init(_ function: Function, keyword: String? = nil) {
        self.function = function
        self.keyword = keyword
    }

    /// The `linear` keyword (§2.2 "The linear easing keyword"): the points (0, 0) and (1, 1), the identity.
    public static let linear = CSSEasing(.linear([LinearPoint(input: 0, output: 0), LinearPoint(input: 1, output: 1)]),
                                         keyword: "linear")
    /// `ease`, the initial value of `animation-timing-function` (CSS Animations 1).
    public static let ease = CSSEasing(.cubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1), keyword: "ease")

    public var description: String {
        if let keyword { return keyword }
        switch function {
        case .linear(let points):
            return "linear(" + points.map { "\($0.output) \($0.input * 100)%" }.joined(separator: ", ") + ")"
        case let .cubicBezier(x1, y1, x2, y2):
            return "cubic-bezier(\(x1), \(y1), \(x2), \(y2))"
        case let .steps(count, position):
            return "steps(\(count), \(position.rawValue))"
        }
    }

    /// The same as calling the easing function: `easing.progress(x)` is `easing(x)`.
    public func progress(_ input: Double, beforeFlag: Bool = false) -> Double {
        self(input, beforeFlag: beforeFlag)
    }

    /// The output progress value for `input` (§2 "input progress value" may be any real number).
    /// `beforeFlag` matters only to step easing functions (§2.4.1).
    public func callAsFunction(_ input: Double, beforeFlag: Bool = false) -> Double {
        switch function {
        case .linear(let points):
            return Self.linearOutput(points, input)
        case let .cubicBezier(x1, y1, x2, y2):
            return Self.cubicBezierOutput(x1: x1, y1: y1, x2: x2, y2: y2, input)
        case let .steps(count, position):
            return Self.stepsOutput(count: count, position: position, input, beforeFlag: beforeFlag)
        }
    }
}

// MARK: - Parsing

extension CSSEasing {
    static let keywords: [String: CSSEasing] = [
        "linear": .linear,
        "ease": .ease,
        "ease-in": CSSEasing(.cubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1), keyword: "ease-in"),
        "ease-out": CSSEasing(.cubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1), keyword: "ease-out"),
        "ease-in-out": CSSEasing(.cubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1), keyword: "ease-in-out"),
        "step-start": CSSEasing(.steps(1, .start)),
        "step-end": CSSEasing(.steps(1, .end)),
    ]

    /// Parses an `<easing-function>`: one of the keywords, `cubic-bezier()`, `steps()` or `linear()`.
    public static func parse(_ text: String) throws -> CSSEasing {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let keyword = keywords[trimmed.lowercased()] { return keyword }
        guard let (name, arguments) = CSSText.function(trimmed) else {
            throw WebFormatError("not an <easing-function>: \(text)")
        }
        let parts = CSSText.split(arguments, on: ",", keepEmpty: true)
        switch name {
        case "cubic-bezier": return try parseCubicBezier(parts, text)
        case "steps": return try parseSteps(parts, text)
        case "linear": return CSSEasing(.linear(try createLinearPoints(parts, text)))
        default: throw WebFormatError("unknown easing function \(name)(): \(text)")
        }
    }

    /// `cubic-bezier(<number [0,1]>, <number>, <number [0,1]>, <number>)` (§2.3): both x values must be in
    /// [0, 1] "or the definition is invalid".
    static func parseCubicBezier(_ parts: [String], _ text: String) throws -> CSSEasing {
        let numbers = parts.compactMap(CSSText.number)
        guard parts.count == 4, numbers.count == 4 else { throw WebFormatError("cubic-bezier() takes four numbers: \(text)") }
        guard (0...1).contains(numbers[0]), (0...1).contains(numbers[2]) else {
            throw WebFormatError("cubic-bezier() x values must be in [0, 1]: \(text)")
        }
        return CSSEasing(.cubicBezier(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3]))
    }

    /// `steps(<integer>[, <step-position>]?)` (§2.4): the count must be positive, and above 1 for
    /// `jump-none`; the position defaults to `end`.
    static func parseSteps(_ parts: [String], _ text: String) throws -> CSSEasing {
        guard (1...2).contains(parts.count), let count = CSSText.number(parts[0]), count == count.rounded(), count >= 1 else {
            throw WebFormatError("steps() takes a positive integer and an optional position: \(text)")
        }
        var position = StepPosition.end
        if parts.count == 2 {
            guard let named = StepPosition(rawValue: parts[1].lowercased()) else {
                throw WebFormatError("unknown <step-position> \(parts[1]): \(text)")
            }
            position = named
        }
        if position == .jumpNone && count < 2 { throw WebFormatError("steps(n, jump-none) needs n > 1: \(text)") }
        guard count <= Double(Int32.max) else { throw WebFormatError("steps() count too large: \(text)") }
        return CSSEasing(.steps(Int(count), position))
    }
}

// MARK: - linear()

extension CSSEasing {
    /// One `<linear-stop>` = `<number> && <linear-stop-length>?`, `<linear-stop-length>` =
    /// `<percentage>{1,2}` (§2.1.1): the output and zero to two input percentages, in either order.
    static func parseLinearStop(_ stop: String, _ text: String) throws -> (output: Double, inputs: [Double]) {
        let words = CSSText.words(stop)
        let values = words.compactMap(CSSText.dimension)
        let numberIndices = values.indices.filter { values[$0].unit.isEmpty }
        guard values.count == words.count, (1...3).contains(words.count), numberIndices.count == 1,
              values.allSatisfy({ $0.unit.isEmpty || $0.unit == "%" }),
              numberIndices[0] == 0 || numberIndices[0] == words.count - 1 else {
            throw WebFormatError("not a <linear-stop>: \(stop) in \(text)")
        }
        let inputs = values.filter { $0.unit == "%" }.map { $0.value / 100 }
        return (values[numberIndices[0]].value, inputs)
    }

    /// "Create a linear easing function" (§2.1.2 "Parsing"), step by step: explicit inputs are raised to the
    /// largest input so far, a second percentage adds an extra point with the same output, a first stop
    /// without input gets 0, a last stop without input gets max(1, largest input), and each run of
    /// missing inputs is spread evenly between its neighbours. Fewer than two stops is a failure.
    static func createLinearPoints(_ stops: [String], _ text: String) throws -> [LinearPoint] {
        guard stops.count >= 2, stops.allSatisfy({ !$0.isEmpty }) else {
            throw WebFormatError("linear() needs at least two stops: \(text)")
        }
        var points: [(input: Double?, output: Double)] = []
        var largestInput = -Double.infinity
        for (index, stop) in stops.enumerated() {
            let (output, inputs) = try parseLinearStop(stop, text)
            if !inputs.isEmpty {
                for input in inputs {
                    largestInput = max(input, largestInput)
                    points.append((largestInput, output))
                }
            } else if index == 0 {
                largestInput = 0
                points.append((0, output))
            } else if index == stops.count - 1 {
                points.append((max(1, largestInput), output))
            } else {
                points.append((nil, output))
            }
        }
        return fillLinearRuns(points)
    }

    /// The last step of §2.1.2: each run of points without input gets inputs interpolated linearly
    /// between the closest previous and next points that have one.
    static func fillLinearRuns(_ points: [(input: Double?, output: Double)]) -> [LinearPoint] {
        var inputs = points.map(\.input)
        var index = 0
        while index < inputs.count {
            guard inputs[index] == nil else { index += 1; continue }
            let before = index - 1  // the first point always has an input
            var after = index
            while inputs[after] == nil { after += 1 }  // so does the last
            let low = inputs[before]!, high = inputs[after]!
            for run in index..<after {
                inputs[run] = low + (high - low) * Double(run - before) / Double(after - before)
            }
            index = after
        }
        return zip(inputs, points).map { LinearPoint(input: $0!, output: $1.output) }
    }

    /// "Calculate linear easing output progress" (§2.1.4 "Output of a linear easing function"): point A is the last point whose input is at
    /// most `input` (or the first), moved back one if it is the last point; equal inputs of A and B give
    /// B's output; otherwise the line through A and B, extended beyond the ends.
    static func linearOutput(_ points: [LinearPoint], _ input: Double) -> Double {
        var aIndex = points.lastIndex(where: { $0.input <= input }) ?? 0
        if aIndex == points.count - 1 { aIndex -= 1 }
        let a = points[aIndex], b = points[aIndex + 1]
        if a.input == b.input { return b.output }
        let progressBetweenPoints = (input - a.input) / (b.input - a.input)
        return a.output + progressBetweenPoints * (b.output - a.output)
    }
}

// MARK: - cubic-bezier() and steps()

extension CSSEasing {
    /// The output of a cubic Bézier easing function (§2.3.1 "Output of a cubic bézier easing function"). Inside [0, 1] the curve parameter t with
    /// X(t) = input is found by bisection to the last bit (X is monotonic because x1, x2 ∈ [0, 1]) and
    /// Y(t) is returned. Outside, the curve continues along the tangent at the nearer end: through P1
    /// (or else P2) and P0 below 0, through P2 (or else P1) and P3 above 1, flat when neither exists.
    static func cubicBezierOutput(x1: Double, y1: Double, x2: Double, y2: Double, _ input: Double) -> Double {
        if input < 0 {
            if x1 > 0 { return input * y1 / x1 }
            if x2 > 0 { return input * y2 / x2 }
            return 0
        }
        if input > 1 {
            if x2 < 1 { return 1 + (input - 1) * (y2 - 1) / (x2 - 1) }
            if x1 < 1 { return 1 + (input - 1) * (y1 - 1) / (x1 - 1) }
            return 1
        }
        if input == 0 || input == 1 { return input }
        let t = bezierParameter(x1: x1, x2: x2, forX: input)
        return bezierCoordinate(y1, y2, t)
    }

    /// B(t) for the control values 0, `p1`, `p2`, 1: 3(1−t)²t·p1 + 3(1−t)t²·p2 + t³, in Horner form.
    static func bezierCoordinate(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
        let c = 3 * p1, b = 3 * (p2 - p1) - c, a = 1 - c - b
        return ((a * t + b) * t + c) * t
    }

    /// The t ∈ [0, 1] with X(t) = `x`, halving the bracket until it cannot shrink.
    static func bezierParameter(x1: Double, x2: Double, forX x: Double) -> Double {
        var low = 0.0, high = 1.0
        while true {
            let mid = (low + high) / 2
            if mid <= low || mid >= high { break }
            if bezierCoordinate(x1, x2, mid) < x { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// The output of a step easing function (§2.4.1 "Output of a step easing function"), its seven steps in order: the current step is
    /// ⌊input × steps⌋, plus one for jump-start and jump-both, minus one with the before flag at a step;
    /// clamped to 0 for input ≥ 0 and to the jump count for input ≤ 1; divided by the jump count.
    static func stepsOutput(count: Int, position: StepPosition, _ input: Double, beforeFlag: Bool) -> Double {
        let steps = Double(count)
        var currentStep = (input * steps).rounded(.down)
        if position == .jumpStart || position == .start || position == .jumpBoth { currentStep += 1 }
        if beforeFlag && (input * steps).truncatingRemainder(dividingBy: 1) == 0 { currentStep -= 1 }
        if input >= 0 && currentStep < 0 { currentStep = 0 }
        let jumps: Double
        switch position {
        case .jumpStart, .jumpEnd, .start, .end: jumps = steps
        case .jumpNone: jumps = steps - 1
        case .jumpBoth: jumps = steps + 1
        }
        if input <= 1 && currentStep > jumps { currentStep = jumps }
        return currentStep / jumps
    }
}
