import SegueCodec
import SegueJSON

/// What a deterministic response's bytes are made from, besides its negotiated media type and
/// content coding: the route, the query parameters that shape the body (`?format=`, `?expand=` and
/// the exports' `?tolerance=`, `?prefix=`, `?trigger=`, `?geometry=`, `?units=`; nil when absent)
/// and the request body. The response cache's key and a streamed
/// body's tag both start from it.
struct RepresentationSource: Hashable, Sendable {
    var path: String
    var format: String?, expand: String?
    var tolerance: String?, prefix: String?, trigger: String?, geometry: String?, units: String?
    var body: [UInt8]

    init(_ request: HTTPRequest) {
        path = request.path
        format = request.query[.format]
        expand = request.query[.expand]
        tolerance = request.query[.tolerance]
        prefix = request.query[.prefix]
        trigger = request.query[.trigger]
        geometry = request.query[.geometry]
        units = request.query[.units]
        body = request.body
    }
}

/// Strong entity tags (RFC 9110 §8.8.3) for deterministic responses: a 64-bit hash of the
/// content type and content coding, so the tag differs between codings (docs/rules.md rule 23),
/// and of either the body (`make(body:…)`) or, for a streamed body, of what determines its bytes
/// (`make(source:…)`).
///
/// FNV-1a over 8-byte words with a final avalanche (the splitmix64 finaliser): one multiply per
/// word. A body of 64 bytes or more is read 32 bytes at a time into four independent lanes, folded
/// into one at the end: a single chain waits for each multiply before the next, four chains
/// overlap.
struct EntityTag {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    private var pending: UInt64 = 0
    private var pendingCount = 0
    private var length = 0
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The tag of a representation of `contentType` in `contentCoding` (nil for identity): the
    /// variant "type;coding" goes in first, byte by byte.
    private init(contentType: String?, contentCoding: String?) {
        absorb(contentType ?? "")
        absorb(";")
        absorb(contentCoding ?? "")
    }

    /// Byte by byte, read from the string's storage (iterating `utf8` costs several times as much
    /// a byte).
    private mutating func absorb(_ text: String) {
        var text = text
        hash = text.withUTF8 { bytes in bytes.reduce(hash) { ($0 ^ UInt64($1)) &* Self.prime } }
    }

    static func make(body: [UInt8], contentType: String?, contentCoding: String?) -> String {
        var tag = EntityTag(contentType: contentType, contentCoding: contentCoding)
        tag.update(body)
        return tag.finish()
    }

    /// The tag of a body not yet written: its source and the `OutputRevision` of this build, each
    /// text field length-prefixed (nil apart from empty), the request body last. RFC 9110 §8.8.1
    /// lets a strong validator change without the bytes changing (a request with other
    /// whitespace), never the reverse; the revision keeps the reverse from happening across
    /// releases.
    static func make(source: RepresentationSource, contentType: String?, contentCoding: String?) -> String {
        var tag = EntityTag(contentType: contentType, contentCoding: contentCoding)
        for field in [OutputRevision.current, source.path, source.format, source.expand, source.tolerance, source.prefix,
                      source.trigger, source.geometry, source.units] {
            tag.mix(field.map { UInt64($0.utf8.count) + 1 } ?? 0)
            if let field { tag.absorb(field) }
        }
        tag.update(source.body)
        return tag.finish()
    }

    private mutating func mix(_ word: UInt64) {
        hash = Self.mixed(hash, word)
    }

    /// splitmix64's finaliser: every input bit reaches every output bit.
    private static func avalanche(_ value: UInt64) -> UInt64 {
        var h = (value ^ (value >> 30)) &* 0xbf58_476d_1ce4_e5b9
        h = (h ^ (h >> 27)) &* 0x94d0_49bb_1331_11eb
        return h ^ (h >> 31)
    }

    /// One word into a chain: FNV's xor and multiply, then the high bits folded down.
    private static func mixed(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let product = (hash ^ word) &* prime
        return product ^ (product >> 29)
    }

    /// Bodies at least this long are read in four lanes.
    private static let laneThreshold = 64

    /// Absorbs the body: blocks of four words in four lanes when it is long, then whole words,
    /// then up to 7 bytes left for `finish`. Once per tag.
    private mutating func update(_ bytes: [UInt8]) {
        length += bytes.count
        bytes.withUnsafeBytes { raw in
            func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
            var i = 0
            if raw.count >= Self.laneThreshold {
                var lanes = (hash, hash ^ 1, hash ^ 2, hash ^ 3)
                while i + 32 <= raw.count {
                    lanes.0 = Self.mixed(lanes.0, word(i))
                    lanes.1 = Self.mixed(lanes.1, word(i + 8))
                    lanes.2 = Self.mixed(lanes.2, word(i + 16))
                    lanes.3 = Self.mixed(lanes.3, word(i + 24))
                    i += 32
                }
                // Each lane avalanched before the fold: folding raw lanes (which `mix` does by
                // xor) let the same one-bit change in two lanes give the same tag.
                hash = Self.avalanche(lanes.0)
                mix(Self.avalanche(lanes.1))
                mix(Self.avalanche(lanes.2))
                mix(Self.avalanche(lanes.3))
            }
            while i + 8 <= raw.count {
                mix(word(i))
                i += 8
            }
            while i < raw.count {
                pending |= UInt64(raw[i]) << UInt64(8 * pendingCount)
                pendingCount += 1
                i += 1
            }
        }
    }

    private func finish() -> String {
        var hash = self.hash
        if pendingCount > 0 { hash = (hash ^ pending ^ UInt64(pendingCount) << 56) &* Self.prime }
        hash = Self.avalanche(hash ^ UInt64(length))
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

/// Tags every deterministic 200 with its strong `ETag` (docs/rules.md "Caching and CORS"): a body
/// written whole by the hash of its identity bytes, a streamed body — sampled and checked before
/// it got here, and written only while it is sent — by the hash of the request it answers and the
/// output revision; either with the content type and coding as the variant, so the tag differs
/// between codings (rule 23). Outside the compression stage, so it tags what goes out, coded or
/// not; inside the cache, which keeps tagged responses.
struct EntityTagMiddleware: Middleware {
    func respond<Failure: Error>(to request: HTTPRequest, next: (HTTPRequest) throws(Failure) -> HTTPResponse)
        throws(Failure) -> HTTPResponse {
        tagged(try next(request), request)
    }

    /// The response with its tag. It is taken (`consuming`): a `var` bound to what `next` returns
    /// would be a copy of the whole response, a retain of each of its arrays and strings.
    private func tagged(_ response: consuming HTTPResponse, _ request: HTTPRequest) -> HTTPResponse {
        guard response.status == 200, response.isDeterministic else { return consume response }
        let contentType = response.header("Content-Type"), contentCoding = response.header("Content-Encoding")
        let tag: String
        if response.stream != nil {
            tag = EntityTag.make(source: RepresentationSource(request), contentType: contentType, contentCoding: contentCoding)
        } else {
            // Each array passed where it lies: `uncodedBody ?? body` would be a copy of one of them.
            if let uncoded = response.uncodedBody {
                tag = EntityTag.make(body: uncoded, contentType: contentType, contentCoding: contentCoding)
            } else {
                tag = EntityTag.make(body: response.body, contentType: contentType, contentCoding: contentCoding)
            }
            response.uncodedBody = nil
        }
        response.headers.append(HeaderField("ETag", tag))
        return consume response
    }
}

/// Conditional requests (RFC 9110 §13.1.2): a tagged 200 whose `ETag` matches `If-None-Match`
/// becomes a 304 with the same headers but `Content-Type` and `Content-Encoding`, and no body.
/// Outside the cache, so that cached answers revalidate too.
struct ConditionalRequestMiddleware: Middleware {
    func respond<Failure: Error>(to request: HTTPRequest, next: (HTTPRequest) throws(Failure) -> HTTPResponse)
        throws(Failure) -> HTTPResponse {
        let response = try next(request)
        guard let condition = request.headers[.ifNoneMatch], response.status == 200,
              let tag = response.header("ETag"), EntityTag.matches(condition, tag) else { return response }
        return HTTPResponse(status: 304, headers: response.headers.filter { $0.name != "Content-Type" && $0.name != "Content-Encoding" })
    }
}
