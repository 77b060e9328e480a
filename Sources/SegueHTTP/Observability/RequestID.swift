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
public enum RequestID {
    /// The header's name.
    public static let header = "X-Request-Id"
    /// Longest client id kept, in characters (bytes: all are ASCII). Range 1…128, default 128.
    public static let maxLength = 128

    /// The id a request is answered and logged with: `clientValue` when it is valid, else a new one.
    public static func resolve(_ clientValue: String?) -> String {
        if let clientValue, isValid(clientValue) { return clientValue }
        return generate()
    }

    /// Whether `value` may be used as a request id as it is.
    public static func isValid(_ value: String) -> Bool {
        let bytes = value.utf8
        return (1...maxLength).contains(bytes.count) && bytes.allSatisfy(isIDByte)
    }

    /// A new id: 16 lowercase hex digits.
    public static func generate() -> String {
        var z = counter.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return hex(z)
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

    /// `value` as 16 lowercase hex digits, zero-padded.
    private static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for i in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: value >> (60 - 4 * UInt64(i))) & 0xF
                buffer[i] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
            }
            return 16
        }
    }
}
