/// Escaping of user text in CSS (CSSOM "serialize an identifier" and "serialize a string"), for
/// view ids and custom channel names in exports.
enum CSSIdentifier {
    /// The text as the rest of an identifier (never its first character): letters, digits, `-`,
    /// `_` and non-ASCII as they are; NUL as U+FFFD; control characters as a hex escape and a
    /// space; any other ASCII character behind a backslash.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0: out += "\u{FFFD}"
            case 0x01...0x1F, 0x7F: out += "\\" + String(scalar.value, radix: 16) + " "
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x5F, 0x80...: out.unicodeScalars.append(scalar)
            default: out += "\\"; out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The text inside double quotes: `"` and `\` behind a backslash, control characters escaped.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0: out += "\u{FFFD}"
            case 0x01...0x1F, 0x7F: out += "\\" + String(scalar.value, radix: 16) + " "
            case 0x22, 0x5C: out += "\\"; out.unicodeScalars.append(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
