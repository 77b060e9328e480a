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
