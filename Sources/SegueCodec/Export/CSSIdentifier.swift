/// Escaping of user text in CSS (CSSOM "serialize an identifier" and "serialize a string"), for
/// view ids and custom channel names in exports.
enum CSSIdentifier {
    /// The text as the rest of an identifier (never its first character): letters, digits, `-`,
    /// `_` and non-ASCII as they are; NUL as U+FFFD; control characters as a hex escape and a
    /// space; any other ASCII character behind a backslash.
    static func escape(_ text: String) -> String {
        serialize(text) { value in
            (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
                || value == 0x2D || value == 0x5F || value >= 0x80
        }
    }

    /// The text inside double quotes: `"` and `\` behind a backslash, control characters escaped.
    static func string(_ text: String) -> String {
        "\"" + serialize(text) { $0 != 0x22 && $0 != 0x5C } + "\""
    }

    /// The shared rule: NUL → U+FFFD, control characters → `\hex `, what `keeps` as it is, the
    /// rest behind a backslash.
    private static func serialize(_ text: String, keeps: (UInt32) -> Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0: out += "\u{FFFD}"
            case 0x01...0x1F, 0x7F: out += "\\" + String(scalar.value, radix: 16) + " "
            case let value where keeps(value): out.unicodeScalars.append(scalar)
            default: out += "\\"; out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
