/// An RFC 6901 JSON Pointer, built up while a request is read so that every error can name the
/// exact member at fault.
///
/// It is kept as its text, each component escaped as it is appended (`~` as `~0`, `/` as `~1`,
/// §3 of the RFC), not as an array of components: a request builds a pointer for every object it
/// reads whether or not an error names it, and the text of a short one ("/timing", "/duration")
/// fits in a `String` without an allocation (up to 15 bytes), where an array always took one.
/// Escaping is one-to-one, so two pointers are equal exactly when their components are.
public struct JSONPointer: Sendable, Equatable, CustomStringConvertible {
    /// The pointer's text: "" for the whole document, else "/" before each escaped component.
    public let description: String

    public init(_ components: [String] = []) {
        description = components.reduce(into: "") { text, component in Self.append(component, to: &text) }
    }

    private init(text: String) { description = text }

    public static let root = JSONPointer()

    public func appending(_ key: String) -> JSONPointer {
        var text = description
        Self.append(key, to: &text)
        return JSONPointer(text: text)
    }

    public func appending(_ index: Int) -> JSONPointer { appending(String(index)) }

    public static func / (lhs: JSONPointer, rhs: String) -> JSONPointer { lhs.appending(rhs) }
    public static func / (lhs: JSONPointer, rhs: Int) -> JSONPointer { lhs.appending(rhs) }

    /// "/" and `component` escaped. Per scalar, not per Character: "/" followed by a combining
    /// mark is one Character.
    private static func append(_ component: String, to text: inout String) {
        var component = component
        let plain = component.withUTF8 { tail in
            guard !tail.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return false }
            append(plain: tail, to: &text)
            return true
        }
        if plain { return }
        text.append("/")
        for scalar in component.unicodeScalars {
            switch scalar {
            case "~": text.append("~0")
            case "/": text.append("~1")
            default: text.unicodeScalars.append(scalar)
            }
        }
    }

    /// "/" and a component that needs no escape, the new text built at once: two `String.append`s
    /// cost about three times as much (each grows and re-checks the string), and a pointer is
    /// built for every member decoded.
    private static func append(plain tail: UnsafeBufferPointer<UInt8>, to text: inout String) {
        text = text.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + 1 + tail.count) { buffer in
                _ = buffer.initialize(fromContentsOf: head)
                buffer[head.count] = UInt8(ascii: "/")
                _ = buffer[(head.count + 1)...].initialize(fromContentsOf: tail)
                return head.count + 1 + tail.count
            }
        }
    }

    /// How the pointer reads in a `detail` sentence: the pointer, or "the body" at the root.
    public var display: String { description.isEmpty ? "the body" : "`\(description)`" }
}
