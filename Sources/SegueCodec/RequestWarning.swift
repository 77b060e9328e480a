import SegueEngine
import SegueJSON

/// A warning located by the JSON Pointer of the request member it is about: the form every
/// response writes in `warnings` (docs/rules.md "The render response", rule 12). The engine's
/// warnings become this with `relocated(_:)` once the codec knows where their subjects came from.
public typealias RequestWarning = Warning<JSONPointer>

extension Warning where Subject == JSONPointer {
    public init(pointer: JSONPointer, detail: String) {
        self.init(subject: pointer, detail: detail)
    }

    /// The request member the warning is about.
    public var pointer: JSONPointer { subject }

    /// `{"pointer": "/…", "detail": "…"}`.
    public var json: JSONValue {
        .object([.init("pointer", .string(pointer.description)), .init("detail", .string(detail))])
    }
}
