import CMicroHTTPD
import SegueJSON
#if canImport(Glibc)
import Glibc
#endif

/// What the transport itself reads of a request's header fields, gathered with those the service
/// reads in one pass over each of libmicrohttpd's lists at the access handler's first call
/// (docs/http.md "Request protocol"). Looking each name up instead walks the whole list again,
/// with a caseless compare per field: ten walks a request.
///
/// As `MHD_lookup_connection_value` does: names match without regard to ASCII case (header
/// fields and query arguments alike), and of a name given twice the first value counts.
struct RequestHead {
    /// The client's `X-Request-Id`, unchecked (`RequestID.resolve` judges it).
    var requestID: String?
    /// The first `Content-Length` value as a number (nil when there is none or it is not one, as
    /// `Int(String)` reads it), and how many `Content-Length` fields there are.
    var contentLength: Int?
    var contentLengthFields = 0
    /// Every `Transfer-Encoding` line, read as one list (docs/http.md "Request target").
    var transferCodings = TransferCodings()
    /// `Host` field lines: more than one is a 400 (RFC 9112 §3.2).
    var hostFields = 0
    /// A field name holds a space, a tab or a control byte — as `Host : x` gives, whose name
    /// libmicrohttpd keeps as `Host ` — which RFC 9112 §5.1 refuses with a 400.
    var nameHoldsSpace = false

    var hasTransferEncoding: Bool { transferCodings.fieldLines > 0 }

    /// Reads `connection`'s header fields and query arguments (libmicrohttpd has parsed the whole
    /// header block): those the service reads into `request`, the transport's into the head returned.
    static func read(_ connection: OpaquePointer, into request: inout HTTPRequest) -> RequestHead {
        var head = RequestHead()
        withUnsafeMutablePointer(to: &head) { head in
            withUnsafeMutablePointer(to: &request.headers) { fields in
                var pass = HeaderPass(head: head, fields: fields)
                _ = MHD_get_connection_values_n(connection, MHD_ValueKind.HEADER_KIND, readHeader, &pass)
            }
        }
        withUnsafeMutablePointer(to: &request.query) { query in
            _ = MHD_get_connection_values_n(connection, MHD_ValueKind.GET_ARGUMENT_KIND, readArgument, query)
        }
        return head
    }

    /// A header field the transport reads.
    enum Field: Sendable {
        case service(HeaderName), requestID, contentLength, transferEncoding, host
    }

    static let headerNames = FieldNames<Field>(
        HeaderName.allCases.map { ($0.rawValue, .service($0)) }
            + [("x-request-id", .requestID), ("content-length", .contentLength), ("transfer-encoding", .transferEncoding),
               ("host", .host)])

    static let queryNames = FieldNames<QueryName>(QueryName.allCases.map { ($0.rawValue, $0) })

    mutating func note(_ field: Field, _ value: Value, fields: inout HeaderFields) {
        switch field {
        case .service(let name):
            if fields[name] == nil { fields[name] = value.text }
        case .requestID:
            if requestID == nil { requestID = value.text }
        case .contentLength:
            contentLengthFields += 1
            if contentLengthFields == 1 { contentLength = value.integer }
        case .transferEncoding:
            transferCodings.add(UnsafeRawBufferPointer(start: value.start, count: value.size))
        case .host:
            hostFields += 1
        }
    }

    /// Whether a field name holds a byte at or below the space (a space, a tab, a control byte),
    /// none of which a field name may hold (RFC 9110 §5.1): eight bytes at a time, as
    /// `ASCIICase.equal` reads names.
    static func holdsSpace(_ name: UnsafeRawBufferPointer) -> Bool {
        guard name.count >= 8 else { return name.contains { $0 <= 0x20 } }
        return !ByteWord.everyWord(count: name.count) { offset in
            ByteWord.below(0x21, in: name.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) == 0
        }
    }

    /// A value as libmicrohttpd hands it over: NUL-terminated, with its length.
    struct Value {
        let start: UnsafePointer<CChar>, size: Int

        /// The value up to its first NUL, as `String(cString:)` reads it, without measuring it again.
        /// A value in `commonValues` is that literal.
        var text: String {
            let bytes = UnsafeRawBufferPointer(start: start, count: strnlen(start, size))
            for common in Self.commonValues where common.utf8.count == bytes.count
                && common.utf8.withContiguousStorageIfAvailable({ memcmp($0.baseAddress!, start, bytes.count) == 0 }) == true {
                return common
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The value as `Int(String)` reads it, an optional sign and decimal digits, without making
        /// the `String`; nil when it is not one or overflows.
        var integer: Int? {
            let bytes = UnsafeRawBufferPointer(start: start, count: strnlen(start, size))
            guard let first = bytes.first else { return nil }
            let negative = first == UInt8(ascii: "-")
            let digits = negative || first == UInt8(ascii: "+") ? bytes.dropFirst() : bytes[...]
            guard !digits.isEmpty else { return nil }
            var value = 0
            for byte in digits {
                let digit = Int(byte) &- 0x30
                guard 0...9 ~= digit else { return nil }
                let (scaled, over) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = negative ? scaled.subtractingReportingOverflow(digit) : scaled.addingReportingOverflow(digit)
                guard !over, !carry else { return nil }
                value = sum
            }
            return value
        }

        /// Values clients send on request after request that are longer than a `String` holds
        /// inline (15 bytes): as literals they allocate nothing and are never reference counted,
        /// where a string made from the bytes is an allocation, a free and its atomics. The values
        /// of curl, browsers and the usual HTTP libraries for the fields the service reads.
        static let commonValues: [String] = [
            "application/json", "application/json; charset=utf-8", "gzip, deflate, br", "gzip, deflate, br, zstd",
            "application/json, text/plain, */*",
        ]
    }

    /// The pointers the header pass writes through.
    struct HeaderPass {
        let head: UnsafeMutablePointer<RequestHead>
        let fields: UnsafeMutablePointer<HeaderFields>
    }
}

/// Lowercase names and what each stands for, kept in one byte array so that a lookup touches no
/// reference count.
struct FieldNames<Field: Sendable>: Sendable {
    private let text: [UInt8]
    private let entries: [(start: Int, count: Int, field: Field)]

    init(_ names: [(String, Field)]) {
        var text: [UInt8] = [], entries: [(start: Int, count: Int, field: Field)] = []
        for (name, field) in names {
            let lowercased = Array(name.lowercased().utf8)
            entries.append((text.count, lowercased.count, field))
            text += lowercased
        }
        self.text = text
        self.entries = entries
    }

    /// What the name `key` stands for, compared without regard to ASCII case; nil when none.
    func field(named key: UnsafeRawBufferPointer) -> Field? {
        text.withUnsafeBytes { text in
            entries.withUnsafeBufferPointer { entries in
                for entry in entries where entry.count == key.count
                    && ASCIICase.equal(key, lowercased: UnsafeRawBufferPointer(rebasing: text[entry.start..<entry.start + entry.count])) {
                    return entry.field
                }
                return nil
            }
        }
    }
}

/// Comparison of ASCII text without regard to case (RFC 9110 §5.1 for field names).
enum ASCIICase {
    /// An ASCII capital as its small letter; any other byte as it is.
    @inline(__always)
    static func folded(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    /// Whether `bytes` equals `lowercased` (already small letters) letter for letter, ignoring case:
    /// eight bytes at a time (`folded(word:)`), the last eight as one more word (reaching back over
    /// bytes already compared); a text shorter than a word byte by byte.
    static func equal(_ bytes: UnsafeRawBufferPointer, lowercased: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == lowercased.count else { return false }
        guard bytes.count >= 8 else {
            for i in 0..<bytes.count where folded(bytes[i]) != lowercased[i] { return false }
            return true
        }
        return ByteWord.everyWord(count: bytes.count) { offset in
            folded(word: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                == lowercased.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }
    }

    /// `folded` of each of the eight bytes of `word`. For a byte b, `(b & 0x7F) + 0x3F` reaches
    /// 0x80 exactly when b & 0x7F ≥ 0x41 ("A"), and `(b & 0x7F) + 0x25` exactly when it is ≥ 0x5B
    /// (past "Z"); neither sum leaves its byte. Where the first does and the second does not, and
    /// b itself is below 0x80, b is a capital: its high bit, shifted to 0x20, makes the small letter.
    @inline(__always)
    static func folded(word: UInt64) -> UInt64 {
        let ones = ByteWord.ones, highs = ByteWord.highs
        let low = word & ~highs
        let capitals = (low &+ 0x3F &* ones) & ~(low &+ 0x25 &* ones) & ~word & highs
        return word | capitals >> 2
    }

    /// Whether `a` and `b` are the same text but for the case of ASCII letters.
    static func equal(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let compared = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                // The same bytes (a header name written as the literal it is looked up by): no folding.
                if x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 { return true }
                for i in 0..<x.count where folded(x[i]) != folded(y[i]) { return false }
                return true
            }
        }
        return compared.flatMap { $0 } ?? a.utf8.elementsEqual(b.utf8) { folded($0) == folded($1) }
    }
}

// libmicrohttpd's iterators: plain functions; what they fill arrives through `cls`. An argument
// without a value (`?format`) has none to read and stays absent.

private let readHeader: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    guard let cls, let key, let value else { return .YES }
    let name = UnsafeRawBufferPointer(start: key, count: keySize)
    let pass = cls.assumingMemoryBound(to: RequestHead.HeaderPass.self).pointee
    if RequestHead.holdsSpace(name) { pass.head.pointee.nameHoldsSpace = true }
    guard let field = RequestHead.headerNames.field(named: name) else { return .YES }
    pass.head.pointee.note(field, RequestHead.Value(start: value, size: valueSize), fields: &pass.fields.pointee)
    return .YES
}

private let readArgument: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    guard let cls, let key, let value,
          let name = RequestHead.queryNames.field(named: UnsafeRawBufferPointer(start: key, count: keySize))
    else { return .YES }
    let query = cls.assumingMemoryBound(to: QueryFields.self)
    if query.pointee[name] == nil { query.pointee[name] = RequestHead.Value(start: value, size: valueSize).text }
    return .YES
}
