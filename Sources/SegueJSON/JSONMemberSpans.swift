/// Where each member's value of a JSON object lies in the text that holds it, for a caller that
/// passes a value on as it was written (a batch line's `body` is answered exactly as the same bytes
/// posted alone would be; docs/batch.md "A line is a request").
///
/// The text must be a document `JSONReader` accepted: the scan only finds boundaries (strings,
/// nesting, the end of a scalar) and checks nothing. A key is decoded by the reader, so an
/// escaped key (`"b\u006fdy"`) names the same member as its plain spelling.
public enum JSONMemberSpans {
    public struct Span: Sendable, Equatable {
        public var key: String
        /// The value's bytes, offsets into the scanned text.
        public var value: Range<Int>
    }

    /// The members of the object that `text` holds, in order; empty when `text` is not an object.
    public static func members(of text: [UInt8]) -> [Span] {
        var spans: [Span] = []
        var i = skipWhitespace(text, from: 0)
        guard i < text.count, text[i] == UInt8(ascii: "{") else { return [] }
        i += 1
        while true {
            i = skipWhitespace(text, from: i)
            guard i < text.count, text[i] == UInt8(ascii: "\"") else { return spans }
            let keyEnd = endOfString(text, from: i)
            let key = decodedKey(Array(text[i..<keyEnd]))
            i = skipWhitespace(text, from: keyEnd) + 1  // past the colon
            let start = skipWhitespace(text, from: i)
            let end = endOfValue(text, from: start)
            spans.append(Span(key: key, value: start..<end))
            i = skipWhitespace(text, from: end)
            guard i < text.count, text[i] == UInt8(ascii: ",") else { return spans }
            i += 1
        }
    }

    private static func decodedKey(_ literal: [UInt8]) -> String {
        guard case .string(let key)? = try? JSONReader.parse(literal, maxDepth: 1) else { return "" }
        return key
    }

    private static func skipWhitespace(_ text: [UInt8], from start: Int) -> Int {
        var i = start
        while i < text.count, text[i] == 0x20 || text[i] == 0x09 || text[i] == 0x0A || text[i] == 0x0D { i += 1 }
        return i
    }

    /// The offset just past the string literal that opens at `start` (its closing quote included).
    private static func endOfString(_ text: [UInt8], from start: Int) -> Int {
        var i = start + 1
        while i < text.count {
            switch text[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): return i + 1
            default: i += 1
            }
        }
        return text.count
    }

    /// The offset just past the value that starts at `start`: a string, an array or object with
    /// everything nested in it, or a scalar (a number or a literal) up to the next delimiter.
    private static func endOfValue(_ text: [UInt8], from start: Int) -> Int {
        guard start < text.count else { return start }
        switch text[start] {
        case UInt8(ascii: "\""):
            return endOfString(text, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < text.count {
                switch text[i] {
                case UInt8(ascii: "\""): i = endOfString(text, from: i); continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default: break
                }
                i += 1
            }
            return text.count
        default:
            var i = start
            while i < text.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(text[i]) {
                i += 1
            }
            return i
        }
    }
}
