import Foundation

/// A fault in a web document the evaluators were asked to read: what was wrong and where.
public struct WebFormatError: Error, CustomStringConvertible, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// The few lexical operations the web evaluators need, on the subset of CSS syntax that Segue writes
/// (CSS Syntax 3, simplified: no escapes, no `url()` tokens). Every splitter keeps parentheses,
/// brackets and quoted strings whole.
enum CSSText {
    /// `text` with every `/* … */` comment replaced by a space (CSS Syntax 3 §4.3.2 "consume comments";
    /// a comment inside a quoted string is kept).
    static func strippingComments(_ text: String) -> String {
        var out = ""
        var quote: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let char = text[index]
            if let open = quote {
                out.append(char)
                if char == open { quote = nil }
                index = text.index(after: index)
            } else if char == "/", text[index...].hasPrefix("/*") {
                let bodyStart = text.index(index, offsetBy: 2)
                let close = text.range(of: "*/", range: bodyStart..<text.endIndex)
                index = close?.upperBound ?? text.endIndex
                out.append(" ")
            } else {
                if char == "\"" || char == "'" { quote = char }
                out.append(char)
                index = text.index(after: index)
            }
        }
        return out
    }

    /// The pieces of `text` between the `separator`s that stand outside parentheses, brackets and
    /// quotes, trimmed; empty pieces are kept only when `keepEmpty` is set.
    static func split(_ text: some StringProtocol, on separator: Character, keepEmpty: Bool = false) -> [String] {
        var pieces: [String] = []
        var current = ""
        var depth = 0
        var quote: Character?
        for char in text {
            if let open = quote {
                if char == open { quote = nil }
                current.append(char)
                continue
            }
            switch char {
            case "\"", "'": quote = char
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            default:
                if char == separator && depth == 0 {
                    pieces.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                    current = ""
                    continue
                }
            }
            current.append(char)
        }
        pieces.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
        return keepEmpty ? pieces : pieces.filter { !$0.isEmpty }
    }

    /// The whitespace-separated words of `text`, a parenthesised group staying with the word it follows
    /// (`translate(1px, 2px) rotate(0rad)` → two words).
    static func words(_ text: some StringProtocol) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        for char in text {
            if char == "(" { depth += 1 }
            if char == ")" { depth -= 1 }
            if depth == 0 && char.isWhitespace {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(char)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `name(arguments)` → the lower-cased name and the text between the parentheses; nil if `text`
    /// is not one whole function.
    static func function(_ text: some StringProtocol) -> (name: String, arguments: String)? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasSuffix(")"), let open = trimmed.firstIndex(of: "(") else { return nil }
        let name = trimmed[..<open].trimmingCharacters(in: .whitespaces).lowercased()
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { return nil }
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        return (name, String(inner))
    }

    /// A `<number>`, `<percentage>` or `<dimension>` token (CSS Syntax 3 §4.3.12 "consume a number"):
    /// `3.25px` → (3.25, "px"), `50%` → (50, "%"), `-1e-3` → (-0.001, ""). The unit is lower-cased.
    static func dimension(_ text: some StringProtocol) -> (value: Double, unit: String)? {
        let chars = Array(text.trimmingCharacters(in: .whitespacesAndNewlines))
        var index = 0
        func digits() -> Int {
            let start = index
            while index < chars.count, chars[index].isASCII, chars[index].isNumber { index += 1 }
            return index - start
        }
        if index < chars.count, chars[index] == "+" || chars[index] == "-" { index += 1 }
        var count = digits()
        if index < chars.count, chars[index] == "." {
            index += 1
            let fraction = digits()
            guard fraction > 0 else { return nil }
            count += fraction
        }
        guard count > 0 else { return nil }
        if index < chars.count, chars[index] == "e" || chars[index] == "E" {
            var probe = index + 1
            if probe < chars.count, chars[probe] == "+" || chars[probe] == "-" { probe += 1 }
            if probe < chars.count, chars[probe].isASCII, chars[probe].isNumber {
                index = probe
                _ = digits()
            }
        }
        guard let value = Double(String(chars[..<index])) else { return nil }
        let unit = String(chars[index...]).lowercased()
        guard unit == "%" || unit.allSatisfy({ $0.isLetter }) else { return nil }
        return (value, unit)
    }

    /// A plain `<number>` (no unit).
    static func number(_ text: some StringProtocol) -> Double? {
        guard let (value, unit) = dimension(text), unit.isEmpty else { return nil }
        return value
    }

    /// `text` without one pair of matching outer quotes, if it has them.
    static func unquoted(_ text: some StringProtocol) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.count >= 2, let first = trimmed.first, first == "\"" || first == "'", trimmed.last == first {
            return String(trimmed.dropFirst().dropLast())
        }
        return trimmed
    }
}
