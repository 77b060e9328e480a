#if canImport(Glibc)
import Glibc
#endif
import SegueJSON

/// Percent-decoding of the request target, in place of libmicrohttpd's own (which decodes `%HH`
/// and leaves anything else as it is): the same decoding, plus a verdict. A target is refused with
/// 400 when it holds, raw or decoded, a NUL or another control byte (0x00–0x1F, 0x7F), or when the
/// decoded bytes are not UTF-8 (docs/http.md "Request target"). libmicrohttpd hands the path on as
/// a C string, so an unchecked `%00` would cut `/openapi.yaml%00.txt` to `/openapi.yaml`.
enum TargetUnescaping {
    /// Decodes the zero-terminated `text` in place; the decoded length (without the terminator),
    /// and false when the target must be refused.
    static func unescape(_ text: UnsafeMutablePointer<CChar>) -> (length: Int, valid: Bool) {
        let bytes = UnsafeMutableRawPointer(text).assumingMemoryBound(to: UInt8.self)
        // Most targets: printable ASCII with no escape, valid as they are.
        let count = strlen(text)
        if isPlain(UnsafeRawBufferPointer(start: bytes, count: count)) { return (count, true) }
        var read = 0
        var written = 0
        var valid = true
        var ascii = true
        while bytes[read] != 0 {
            var byte = bytes[read]
            if byte == UInt8(ascii: "%"), let high = hexValue(bytes[read + 1]), let low = hexValue(bytes[read + 2]) {
                byte = high << 4 | low
                read += 3
            } else {
                read += 1
            }
            if byte < 0x20 || byte == 0x7F { valid = false }
            if byte >= 0x80 { ascii = false }
            bytes[written] = byte
            written += 1
        }
        bytes[written] = 0
        // ASCII is UTF-8: only a target with a byte over 0x7F is decoded again to check it.
        if valid && !ascii && !isUTF8(UnsafeBufferPointer(start: bytes, count: written)) { valid = false }
        return (written, valid)
    }

    /// Whether `bytes` holds no `%`, no control byte (below 0x20, or 0x7F) and no byte over 0x7F:
    /// a target that decodes to itself and is valid. Eight bytes at a time (`ByteWord`), a target
    /// shorter than a word byte by byte. A flag only sends the target the long way, which decides.
    static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 8 else {
            return bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") }
        }
        return ByteWord.everyWord(count: bytes.count) { offset in
            let w = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            return ByteWord.below(0x20, in: w) | ByteWord.nonASCII(in: w) | ByteWord.equal(to: 0x25, in: w)
                | ByteWord.equal(to: 0x7F, in: w) == 0
        }
    }

    /// The value of an ASCII hexadecimal digit (a terminating 0 is none, so reading stops there).
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
