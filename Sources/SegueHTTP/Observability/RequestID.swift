import SegueJSON
import Synchronization

/// The `X-Request-Id` of a request (docs/rules.md rule 30): the client's when it sent a valid one,
/// else a new one. Every response carries it and every log line of the request names it.
///
/// Valid: 1…`maxLength` characters, each a letter, digit or one of `. _ ~ : + / = -` (the token
/// and base64 characters, enough for UUIDs, ULIDs, W3C trace ids and base64 ids). Anything else —
/// empty, too long, a space, a control character, a quote, non-ASCII — is ignored and a new id is
/// made, so a log line or a header can never be forged through it.
///
/// New ids are 16 lowercase hex digits: SplitMix64 over a per-process counter that starts at a
/// 64-bit seed from the system's random source (`getrandom`). The mix is a bijection, so ids are
/// distinct within a process for 2^64 requests; across processes they collide with probability
/// about n²/2^65 for n ids in all. One atomic add per id, no lock, no system call.
public struct RequestID: Sendable, CustomStringConvertible {
    /// The header's name.
    public static let header = "X-Request-Id"
    /// Longest client id kept, in characters (bytes: all are ASCII). Range 1…128, default 128.
    public static let maxLength = 128

    /// A generated id is kept as its 64 bits and spelt where it is written (the response header,
    /// the log line): 16 characters are one more than a `String` holds without an allocation.
    private enum Form: Sendable {
        case generated(UInt64)
        case text(String)
    }

    private let form: Form

    /// An id with the given text, taken as it is: a log line escapes it. The transport takes its
    /// ids from `resolve`, which checks a client's.
    public init(_ text: String) { form = .text(text) }

    private init(generated value: UInt64) { form = .generated(value) }

    /// The id a request is answered and logged with: `clientValue` when it is valid, else a new one.
    public static func resolve(_ clientValue: String?) -> RequestID {
        if let clientValue, isValid(clientValue) { return RequestID(clientValue) }
        return generate()
    }

    /// Whether `value` may be used as a request id as it is.
    public static func isValid(_ value: String) -> Bool {
        let bytes = value.utf8
        return (1...maxLength).contains(bytes.count) && bytes.allSatisfy(isIDByte)
    }

    /// A new id: 16 lowercase hex digits.
    public static func generate() -> RequestID {
        var z = counter.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return RequestID(generated: z)
    }

    /// The id's text.
    public var description: String { withUTF8 { String(decoding: $0, as: UTF8.self) } }

    /// Calls `body` with the id's text as UTF-8; a generated id is spelt on the stack.
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch form {
        case .generated(let value):
            return try Self.withHex(value) { try body(UnsafeBufferPointer(rebasing: $0.dropLast())) }
        case .text(let text):
            return try text.withUTF8InPlace(body)
        }
    }

    /// Calls `body` with the id's text as a C string.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        switch form {
        case .generated(let value):
            return try Self.withHex(value) { hex in
                try hex.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
            }
        case .text(let text):
            return try text.withCString(body)
        }
    }

    /// The room `write(into:)` takes: a generated id's 16 digits and its quotes, or a client's
    /// text as a string literal.
    var jsonRoom: Int {
        switch form {
        case .generated: 18
        case .text(let text): TextRun.stringRoom(text)
        }
    }

    /// The id as a JSON string (a log line's `request_id`): a generated id's digits written in
    /// place, where they need no escape and no search for one; a client's text escaped.
    func write(into run: inout TextRun) {
        switch form {
        case .generated(let value):
            run.put(count: 18) { p in
                p.storeBytes(of: 0x22, as: UInt8.self)
                Self.hex(value, at: p + 1)
                p.storeBytes(of: 0x22, toByteOffset: 17, as: UInt8.self)
            }
        case .text(let text): run.string(text)
        }
    }

    private static let counter = Atomic<UInt64>(UInt64.random(in: .min ... .max))

    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: "+"),
             UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Calls `body` with `value` as 16 lowercase hex digits, zero-padded, and a NUL: 17 bytes on
    /// the stack.
    private static func withHex<R>(_ value: UInt64, _ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 17) { buffer in
            hex(value, at: UnsafeMutableRawPointer(buffer.baseAddress!))
            buffer[16] = 0
            return try body(buffer)
        }
    }

    /// `value`'s 16 lowercase hex digits, zero-padded, at `p`: eight digits a word (`hexWord`).
    static func hex(_ value: UInt64, at p: UnsafeMutableRawPointer) {
        p.storeBytes(of: hexWord(UInt32(truncatingIfNeeded: value >> 32)), as: UInt64.self)
        p.storeBytes(of: hexWord(UInt32(truncatingIfNeeded: value)), toByteOffset: 8, as: UInt64.self)
    }

    /// The eight hex digits of `half` as they lie in memory, the first digit first. Its nibbles are
    /// spread one to a byte, the most significant in the highest byte, which storing the word
    /// big-endian puts first; each byte n then becomes "0" + n, plus 0x27 more when n ≥ 10, which
    /// `(n + 6) >> 4` tells (0x27 = "a" − "0" − 10).
    static func hexWord(_ half: UInt32) -> UInt64 {
        let ones = ByteWord.ones
        var n = UInt64(half)
        n = (n | n << 16) & 0x0000_FFFF_0000_FFFF
        n = (n | n << 8) & 0x00FF_00FF_00FF_00FF
        n = (n | n << 4) & 0x0F0F_0F0F_0F0F_0F0F
        let letters = (n &+ 6 &* ones) >> 4 & ones
        let text = n &+ 0x30 &* ones &+ letters &* 0x27
        return text.bigEndian
    }
}
