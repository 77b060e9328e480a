/// A request's `Transfer-Encoding`, judged as RFC 9112 §6.1 asks (docs/http.md "Request target",
/// framing): the values of every `Transfer-Encoding` field line form one comma-separated list of
/// codings, the first applied first, so two lines `chunked` and `gzip` are the list
/// `chunked, gzip`. libmicrohttpd frames a body as chunked only when the first line's value is
/// `chunked`; every other list is either refused here or would be read as a body that never ends.
///
/// Fed one field value at a time while the head is read; allocates nothing until a coding other
/// than `chunked` is met (its name goes into the problem's detail).
struct TransferCodings {
    /// `Transfer-Encoding` field lines seen.
    private(set) var fieldLines = 0
    /// The first line's value is `chunked` and nothing else (in any case): what libmicrohttpd
    /// decodes. It reads the first line alone and compares it whole, spaces included.
    private var firstIsExactlyChunked = false
    /// How many codings the list holds (empty elements are not codings, RFC 9110 §5.6.1).
    private(set) var count = 0
    /// The last coding is `chunked` (with or without parameters).
    private var lastIsChunked = false
    /// `chunked` appears before the last place.
    private var chunkedBeforeLast = false
    /// The first coding that is not plain `chunked`, as sent (at most 40 bytes of it).
    private var unknown: String?
    /// An element is not a token with optional parameters.
    private var malformed = false

    /// What the list asks of the server.
    enum Verdict: Equatable {
        /// No `Transfer-Encoding` field.
        case absent
        /// Exactly `chunked`: libmicrohttpd decodes it.
        case chunked
        /// 400, then close: the body's end cannot be found — `chunked` is not the last coding, or
        /// is applied twice, or the list does not parse.
        case unframed(String)
        /// 501, then close: `chunked` comes last, but another coding comes before it (or `chunked`
        /// carries parameters), which Segue does not decode.
        case unsupported(String)
    }

    var verdict: Verdict {
        if count == 0 && !malformed { return fieldLines == 0 ? .absent : .unframed("the Transfer-Encoding field is empty") }
        if malformed { return .unframed("the Transfer-Encoding field is not a list of transfer codings") }
        if !lastIsChunked { return .unframed("chunked must be the last transfer coding, so that the body's end can be found") }
        if chunkedBeforeLast { return .unframed("the chunked transfer coding is applied more than once") }
        if let unknown { return .unsupported("the transfer coding \(unknown) is not supported; send the body with chunked alone") }
        if !firstIsExactlyChunked {
            return .unsupported("Transfer-Encoding is supported as one field line holding chunked and nothing else")
        }
        return .chunked
    }

    /// Adds one field line's value to the list.
    mutating func add(_ value: UnsafeRawBufferPointer) {
        fieldLines += 1
        if fieldLines == 1 { firstIsExactlyChunked = Self.chunked.withUnsafeBytes { ASCIICase.equal(value, lowercased: $0) } }
        var start = 0
        for index in 0...value.count where index == value.count || value[index] == UInt8(ascii: ",") {
            addElement(UnsafeRawBufferPointer(rebasing: value[start..<index]))
            start = index + 1
        }
    }

    /// Adds one field line's value given as text (tests, and the offline paths).
    mutating func add(_ value: String) {
        Array(value.utf8).withUnsafeBytes { add($0) }
    }

    /// One list element: `token *( OWS ";" OWS parameter )`, with optional whitespace around it.
    private mutating func addElement(_ element: UnsafeRawBufferPointer) {
        let trimmed = Self.trimmed(element)
        guard !trimmed.isEmpty else { return }
        let semicolon = trimmed.firstIndex(of: UInt8(ascii: ";")) ?? trimmed.endIndex
        let name = Self.trimmed(UnsafeRawBufferPointer(rebasing: trimmed[..<semicolon]))
        guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
            malformed = true
            return
        }
        let isChunked = Self.chunked.withUnsafeBytes { ASCIICase.equal(name, lowercased: $0) }
        if lastIsChunked { chunkedBeforeLast = true }
        lastIsChunked = isChunked
        count += 1
        // `chunked` has no parameters (RFC 9112 §7.1): with some, it is a coding Segue does not know.
        if (!isChunked || semicolon != trimmed.endIndex) && unknown == nil {
            unknown = String(decoding: trimmed.prefix(40), as: UTF8.self)
        }
    }

    private static let chunked = Array("chunked".utf8)

    /// `bytes` without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var lower = bytes.startIndex, upper = bytes.endIndex
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[lower..<upper])
    }

    /// A `tchar` of RFC 9110 §5.6.2.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
