/// A parsed JSON document.
///
/// Objects keep their members in document order (duplicates are rejected by the reader), so a
/// validator can report the first unknown member and the writer can echo input deterministically.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// Always finite: the reader refuses literals that do not fit a finite double.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])

    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The JSON type name used in error messages ("number", "object", …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
