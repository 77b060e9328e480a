/// Checks `?trigger=` (docs/exports.md "Scoping and triggering", rule 43): the text must be one
/// complex selector of CSS Selectors 4 from the subset below, so that `S [data-P="v"]` is a valid
/// selector that matches what the author meant and nothing in it can end the rule it is written
/// into.
///
/// The subset, in the grammar's own terms:
///
///     complex  = compound ( combinator compound )*
///     combinator = ws* ( ">" | "+" | "~" ) ws* | ws+
///     compound = ( type | "*" )? subclass*     (at least one part)
///     subclass = "#" name | "." ident | ":" ident | "[" ws* ident ws* ( matcher ws* value ws* )? "]"
///     matcher  = "=" | "~=" | "|=" | "^=" | "$=" | "*="
///     value    = ident | '"' chars '"' | "'" chars "'"      (no quote of its kind, `\` or control character)
///     ident    = ( "-" ( letter | "_" | "-" ) | letter | "_" ) ( letter | digit | "_" | "-" )*
///
/// `letter` includes every non-ASCII scalar, as CSS's ident code points do. Left out on purpose:
/// selector lists (a comma would scope only the last selector), functional pseudo-classes,
/// pseudo-elements (they match no element to animate), namespaces and escapes.
enum CSSSelector {
    /// The longest selector taken (rule 43).
    static let maximumLength = 200

    /// Whether `text` is a selector of the subset above, at most `maximumLength` characters long.
    static func isValid(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty, scalars.count <= maximumLength else { return false }
        var reader = Reader(scalars: scalars)
        reader.skipSpace()
        guard reader.compound() else { return false }
        while !reader.atEnd {
            let spaced = reader.skipSpace()
            if reader.atEnd { return true }
            if let c = reader.peek, c == ">" || c == "+" || c == "~" {
                reader.index += 1
                reader.skipSpace()
            } else if !spaced {
                return false
            }
            guard reader.compound() else { return false }
        }
        return true
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        var atEnd: Bool { index >= scalars.count }
        var peek: Unicode.Scalar? { atEnd ? nil : scalars[index] }

        @discardableResult
        mutating func skipSpace() -> Bool {
            let start = index
            while let c = peek, c == " " || c == "\t" || c == "\n" { index += 1 }
            return index > start
        }

        static func isNameStart(_ c: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" || c.value >= 0x80
        }

        static func isName(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || ("0"..."9").contains(c) || c == "-" }

        /// An ident (see the grammar); false, and nothing read, when none starts here.
        mutating func ident() -> Bool {
            let start = index
            if peek == "-" {
                index += 1
                guard let c = peek, Self.isNameStart(c) || c == "-" else { index = start; return false }
            } else {
                guard let c = peek, Self.isNameStart(c) else { return false }
            }
            while let c = peek, Self.isName(c) { index += 1 }
            return true
        }

        /// An id's name: one or more name characters (it may start with a digit).
        mutating func name() -> Bool {
            let start = index
            while let c = peek, Self.isName(c) { index += 1 }
            return index > start
        }

        mutating func compound() -> Bool {
            var parts = 0
            if peek == "*" {
                index += 1
                parts += 1
            } else if ident() {
                parts += 1
            }
            while let c = peek {
                let read: Bool
                switch c {
                case "#": index += 1; read = name()
                case ".", ":": index += 1; read = ident()
                case "[": index += 1; read = attribute()
                default: return parts > 0
                }
                guard read else { return false }
                parts += 1
            }
            return parts > 0
        }

        /// After `[`: the name, an optional matcher and value, and `]`.
        mutating func attribute() -> Bool {
            skipSpace()
            guard ident() else { return false }
            skipSpace()
            if peek == "]" { index += 1; return true }
            if let c = peek, "~|^$*".unicodeScalars.contains(c) { index += 1 }
            guard peek == "=" else { return false }
            index += 1
            skipSpace()
            if let quote = peek, quote == "\"" || quote == "'" {
                index += 1
                while let c = peek, c != quote {
                    guard c != "\\", c.value >= 0x20, c.value != 0x7F else { return false }
                    index += 1
                }
                guard peek == quote else { return false }
                index += 1
            } else if !ident() {
                return false
            }
            skipSpace()
            guard peek == "]" else { return false }
            index += 1
            return true
        }
    }
}
