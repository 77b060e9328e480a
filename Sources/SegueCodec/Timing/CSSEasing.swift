import SegueEngine
import SegueJSON

/// Parses a CSS `<easing-function>` (CSS Easing Level 2, https://drafts.csswg.org/css-easing-2/)
/// plus the UIKit names `easeIn`, `easeOut`, `easeInOut`, Core Animation's `easeInEaseOut` and
/// `default`, and SwiftUI's springs `smooth`, `snappy`, `bouncy` (rule 46).
///
/// Accepted: `linear`, `ease`, `ease-in`, `ease-out`, `ease-in-out`, `step-start`, `step-end`,
/// `cubic-bezier(x1, y1, x2, y2)` with x1, x2 in [0, 1], `steps(n[, position])` with n ≥ 1
/// (≥ 2 for `jump-none`), and `linear(stop, …)` with ≥ 2 stops, each `<number> &&
/// <percentage>{1,2}?`. Keywords and function names are ASCII case-insensitive, as in CSS.
/// Not supported: `calc()` and other math functions (a 422 like any invalid text).
public enum CSSEasing {
    public static func parse(_ text: String, at pointer: JSONPointer) throws(Problem) -> TimingSpec {
        func invalid(_ why: String) -> Problem {
            Problem.invalid("`\(text.prefix(200))` is not a valid easing function: \(why)", at: pointer)
        }
        let trimmed = text.trimmingCSSWhitespace()
        guard let open = trimmed.firstIndex(of: "(") else {
            let folded = trimmed.lowercased()
            guard let keyword = keywords.first(where: { $0.name.lowercased() == folded }) else {
                let names = keywords.map(\.name)
                throw invalid(Vocabulary.unknown("keyword", trimmed, known: names, listing: "the keywords are")
                              + ", and the functions " + Vocabulary.list(functions.map { $0 + "()" }))
            }
            return keyword.spec
        }
        guard trimmed.last == ")" else { throw invalid("missing `)`") }
        let name = trimmed[..<open].lowercased()
        let body = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        guard !body.contains("("), !body.contains(")") else { throw invalid("nested functions are not supported") }
        let arguments = body.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmingCSSWhitespace() }

        switch name {
        case "cubic-bezier":
            guard arguments.count == 4 else { throw invalid("cubic-bezier() takes four numbers") }
            var numbers: [Double] = []
            for argument in arguments {
                guard let number = cssNumber(argument) else { throw invalid("`\(argument)` is not a number") }
                numbers.append(number)
            }
            guard (0...1).contains(numbers[0]), (0...1).contains(numbers[2]) else {
                throw invalid("x1 and x2 must be in [0, 1]")
            }
            return .cubicBezier(CubicBezier(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3]))

        case "steps":
            guard arguments.count == 1 || arguments.count == 2 else { throw invalid("steps() takes one or two arguments") }
            guard let count = cssInteger(arguments[0]), count >= 1 else {
                throw invalid("the step count must be an integer ≥ 1")
            }
            var position = StepPosition.jumpEnd
            if arguments.count == 2 {
                switch arguments[1].lowercased() {
                case "jump-start": position = .jumpStart
                case "jump-end": position = .jumpEnd
                case "jump-none": position = .jumpNone
                case "jump-both": position = .jumpBoth
                case "start": position = .start
                case "end": position = .end
                default:
                    throw invalid(Vocabulary.unknown("step position", arguments[1], known: stepPositions,
                                                     listing: "the positions are"))
                }
            }
            guard position != .jumpNone || count >= 2 else { throw invalid("jump-none needs at least 2 steps") }
            return .steps(Steps(count: count, position: position))

        case "linear":
            var stops: [PiecewiseLinear.Stop] = []
            for argument in arguments {
                guard let stop = linearStop(argument) else { throw invalid("`\(argument)` is not a linear() stop") }
                stops.append(stop)
            }
            guard let curve = PiecewiseLinear(stops: stops) else { throw invalid("linear() needs at least two stops") }
            return .piecewiseLinear(curve)

        default:
            let given = trimmed[..<open].prefix(100) + "()", calls = functions.map { $0 + "()" }
            let hint = Vocabulary.hint(for: String(given), among: calls).map { ": " + $0 } ?? ""
            throw invalid("unknown function `\(given)`\(hint); the functions are " + Vocabulary.list(calls))
        }
    }

    /// The keywords a timing string may be (ASCII case-insensitive): CSS's, UIKit's and Core
    /// Animation's curve names, and SwiftUI's named springs (rule 46).
    static let keywords: [(name: String, spec: TimingSpec)] = [
        ("linear", .named(.linear)), ("ease", .named(.ease)), ("ease-in", .named(.easeIn)), ("ease-out", .named(.easeOut)),
        ("ease-in-out", .named(.easeInOut)), ("step-start", .steps(Steps(count: 1, position: .start))),
        ("step-end", .steps(Steps(count: 1, position: .end))), ("easeIn", .named(.easeIn)), ("easeOut", .named(.easeOut)),
        ("easeInOut", .named(.easeInOut)), ("easeInEaseOut", .named(.easeInOut)), ("default", .named(.default)),
    ] + SwiftUISpringPreset.allCases.map { preset in
        (preset.rawValue, .spring(SpringSpec(parameters: .swiftUIPreset(preset, duration: SwiftUISpringPreset.duration,
                                                                        extraBounce: 0), initialVelocity: 0)))
    }

    /// The functions a timing string may call.
    static let functions = ["cubic-bezier", "steps", "linear"]

    /// The positions of `steps()`.
    static let stepPositions = ["jump-start", "jump-end", "jump-none", "jump-both", "start", "end"]

    /// `<number> && <percentage>{1,2}?` — the number first or last, percentages adjacent.
    static func linearStop(_ text: String) -> PiecewiseLinear.Stop? {
        let tokens = text.split(whereSeparator: { $0.isCSSWhitespace }).map(String.init)
        guard (1...3).contains(tokens.count) else { return nil }
        let numberFirst = cssNumber(tokens[0]) != nil
        let output = numberFirst ? tokens[0] : tokens[tokens.count - 1]
        let percentages = numberFirst ? tokens.dropFirst() : tokens.dropLast()
        guard let value = cssNumber(output) else { return nil }
        var inputs: [Double] = []
        for token in percentages {
            guard token.hasSuffix("%"), let percent = cssNumber(String(token.dropLast())) else { return nil }
            inputs.append(percent / 100)
        }
        return PiecewiseLinear.Stop(output: value, input: inputs.first, secondInput: inputs.count == 2 ? inputs[1] : nil)
    }

    /// A CSS `<number>` token: `[+-]? (digits [. digits]? | . digits) ([eE] [+-]? digits)?`.
    static func cssNumber(_ token: String) -> Double? {
        var bytes = Array(token.utf8)[...]
        guard !bytes.isEmpty else { return nil }
        if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let isDigit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
        let integerDigits = bytes.prefix(while: isDigit).count
        bytes = bytes.dropFirst(integerDigits)
        var fractionDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fractionDigits = bytes.prefix(while: isDigit).count
            guard fractionDigits > 0 else { return nil }
            bytes = bytes.dropFirst(fractionDigits)
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            let exponentDigits = bytes.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return nil }
            bytes = bytes.dropFirst(exponentDigits)
        }
        guard bytes.isEmpty, let value = Double(token), value.isFinite else { return nil }
        return value
    }

    /// A CSS `<integer>` token (no fraction, no exponent), bounded so it never overflows.
    static func cssInteger(_ token: String) -> Int? {
        var digits = Substring(token)
        if digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}

extension Character {
    /// CSS whitespace: space, tab, line feed, carriage return, form feed.
    var isCSSWhitespace: Bool { self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\r\n" || self == "\u{0C}" }
}

extension String {
    func trimmingCSSWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isCSSWhitespace }),
              let last = lastIndex(where: { !$0.isCSSWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
