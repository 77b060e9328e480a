import SegueCodec
import SegueJSON

/// Strong entity tags (RFC 9110 §8.8.3) for deterministic responses: a 64-bit hash of the
/// content type, content coding and body, so the tag differs between codings (docs/rules.md rule 23).
///
/// FNV-1a over 8-byte words with a final avalanche (the splitmix64 finaliser): one multiply per
/// word, so a 3 KB body hashes in well under a microsecond. Incremental: a streamed body hashes
/// piece by piece to the same tag as the whole.
struct EntityTag {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    private var pending: UInt64 = 0
    private var pendingCount = 0
    private var length = 0
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The tag of a representation of `contentType` in `contentCoding` (nil for identity): the
    /// variant "type;coding" goes in first, byte by byte.
    init(contentType: String?, contentCoding: String?) {
        absorb(contentType ?? "")
        absorb(";")
        absorb(contentCoding ?? "")
    }

    private mutating func absorb(_ text: String) {
        for unit in text.utf8 { hash = (hash ^ UInt64(unit)) &* Self.prime }
    }

    static func make(body: [UInt8], contentType: String?, contentCoding: String?) -> String {
        var tag = EntityTag(contentType: contentType, contentCoding: contentCoding)
        tag.update(body)
        return tag.finish()
    }

    private mutating func mix(_ word: UInt64) {
        hash = (hash ^ word) &* Self.prime
        hash ^= hash >> 29
    }

    mutating func update(_ bytes: [UInt8]) {
        length += bytes.count
        bytes.withUnsafeBytes { raw in
            var i = 0
            // Complete a word left over from the previous piece.
            while pendingCount > 0 && i < raw.count {
                pending |= UInt64(raw[i]) << UInt64(8 * pendingCount)
                pendingCount += 1
                i += 1
                if pendingCount == 8 {
                    mix(pending)
                    pending = 0
                    pendingCount = 0
                }
            }
            while i + 8 <= raw.count {
                mix(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                i += 8
            }
            while i < raw.count {
                pending |= UInt64(raw[i]) << UInt64(8 * pendingCount)
                pendingCount += 1
                i += 1
            }
        }
    }

    func finish() -> String {
        var hash = self.hash
        if pendingCount > 0 { hash = (hash ^ pending ^ UInt64(pendingCount) << 56) &* Self.prime }
        hash ^= UInt64(length)
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        // `"` + 16 lowercase hex digits + `"`.
        return String(unsafeUninitializedCapacity: 18) { text in
            text[0] = 0x22
            for k in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: hash >> UInt64(60 - 4 * k)) & 0xF
                text[k + 1] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
            }
            text[17] = 0x22
            return 18
        }
    }

    /// `If-None-Match` matches when it is `*` or lists the tag (weak comparison, RFC 9110 §13.1.2).
    static func matches(_ header: String?, _ tag: String) -> Bool {
        guard let header else { return false }
        for candidate in header.split(separator: ",") {
            var item = candidate.trimmingCharacters(in: " \t")
            if item == "*" { return true }
            if item.hasPrefix("W/") { item.removeFirst(2) }
            if item == tag { return true }
        }
        return false
    }
}

/// Tags every deterministic 200 with its strong `ETag`: the hash of the identity bytes with the
/// content type and content coding as the variant, so the tag differs between codings
/// (docs/rules.md rule 23). Outside the compression stage, so it tags what goes out, coded or not; inside the
/// cache, which keeps tagged responses.
///
/// A streamed body is written once here, piece by piece into a reused buffer, to compute its tag
/// and to find non-finite values (a 422 before anything is sent); the transport writes it again
/// while sending, so memory stays flat.
struct EntityTagMiddleware: Middleware {
    func respond<Failure: Error>(to request: HTTPRequest, next: (HTTPRequest) throws(Failure) -> HTTPResponse)
        throws(Failure) -> HTTPResponse {
        var response = try next(request)
        guard response.status == 200, response.isDeterministic else { return response }
        let contentType = response.header("Content-Type"), contentCoding = response.header("Content-Encoding")
        let tag: String
        if let stream = response.stream {
            do {
                tag = try Self.tag(stream, contentType: contentType, contentCoding: contentCoding)
            } catch {
                return HTTPResponse(problem: error)
            }
        } else {
            tag = EntityTag.make(body: response.uncodedBody ?? response.body, contentType: contentType, contentCoding: contentCoding)
            response.uncodedBody = nil
        }
        response.headers.append(("ETag", tag))
        return response
    }

    static func tag(_ stream: SectionedBody, contentType: String?, contentCoding: String?) throws(Problem) -> String {
        var tag = EntityTag(contentType: contentType, contentCoding: contentCoding)
        var cursor = SectionedBody.Cursor()
        var writer = JSONWriter(capacity: 1 << 16)
        while try stream.writeNext(&cursor, into: &writer) {
            tag.update(writer.bytes)
            writer.bytes.removeAll(keepingCapacity: true)
        }
        return tag.finish()
    }
}

/// Conditional requests (RFC 9110 §13.1.2): a tagged 200 whose `ETag` matches `If-None-Match`
/// becomes a 304 with the same headers but `Content-Type` and `Content-Encoding`, and no body.
/// Outside the cache, so that cached answers revalidate too.
struct ConditionalRequestMiddleware: Middleware {
    func respond<Failure: Error>(to request: HTTPRequest, next: (HTTPRequest) throws(Failure) -> HTTPResponse)
        throws(Failure) -> HTTPResponse {
        let response = try next(request)
        guard let condition = request.headers["if-none-match"], response.status == 200,
              let tag = response.header("ETag"), EntityTag.matches(condition, tag) else { return response }
        return HTTPResponse(status: 304, headers: response.headers.filter { $0.name != "Content-Type" && $0.name != "Content-Encoding" })
    }
}
