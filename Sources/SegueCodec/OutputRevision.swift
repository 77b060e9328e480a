/// The revision of what Segue writes for a request: the engine's numbers, the number text and the
/// layout of every body. A streamed body's `ETag` is derived from the request and this revision
/// instead of from its bytes (docs/rules.md "Caching and CORS"), so a change that alters the bytes
/// of any response for the same request must change it — else a client or a cache would keep
/// bytes of an older release under a tag that still matches. `scripts/corpus.py` refuses to
/// record a corpus whose streamed bytes changed under an unchanged tag.
public enum OutputRevision {
    public static let current = "2026-11-27"
}
