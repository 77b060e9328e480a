/// An RFC 6901 JSON Pointer, built up while a request is read so that every error can name the
/// exact member at fault. Components are kept unescaped; `description` escapes `~` as `~0` and
/// `/` as `~1`.
public struct JSONPointer: Sendable, Equatable, CustomStringConvertible {
    public private(set) var components: [String]

    public init(_ components: [String] = []) { self.components = components }

    public static let root = JSONPointer()

    public func appending(_ key: String) -> JSONPointer {
        var copy = self
        copy.components.append(key)
        return copy
    }

    public func appending(_ index: Int) -> JSONPointer { appending(String(index)) }

    public static func / (lhs: JSONPointer, rhs: String) -> JSONPointer { lhs.appending(rhs) }
    public static func / (lhs: JSONPointer, rhs: Int) -> JSONPointer { lhs.appending(rhs) }

    public var description: String {
        var out = ""
        for component in components {
            out.append("/")
            // Per scalar, not per Character: "/" followed by a combining mark is one Character.
            for scalar in component.unicodeScalars {
                switch scalar {
                case "~": out.append("~0")
                case "/": out.append("~1")
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// How the pointer reads in a `detail` sentence: the pointer, or "the body" at the root.
    public var display: String { components.isEmpty ? "the body" : "`\(description)`" }
}
