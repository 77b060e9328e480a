/// Strong entity tags (RFC 9110 §8.8.3) for deterministic responses: a 64-bit hash of the
/// content type, content coding and body, so the tag differs between codings (API.md §6 rule 23).
enum EntityTag {
    /// FNV-1a over 8-byte words with a final avalanche (the splitmix64 finaliser): one multiply
    /// per word, so a 3 KB body hashes in well under a microsecond.
    static func make(body: [UInt8], variant: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x0000_0100_0000_01b3
        for unit in variant.utf8 { hash = (hash ^ UInt64(unit)) &* prime }
        body.withUnsafeBytes { raw in
            let words = raw.count / 8
            for i in 0..<words {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* prime
                hash ^= hash >> 29
            }
            for i in (words * 8)..<raw.count { hash = (hash ^ UInt64(raw[i])) &* prime }
        }
        hash ^= UInt64(body.count)
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
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
