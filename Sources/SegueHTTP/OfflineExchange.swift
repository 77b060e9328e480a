import SegueCodec
import SegueJSON

// What a caller without a socket needs to answer as the server would: `segue curve`, `segue render`
// and `segue presets` (docs/cli.md "Byte identity with HTTP"). The pipeline itself is
// `SegueService.respond(to:)`; these are the two pieces the transport adds around it.

extension SegueService {
    /// The largest request body in bytes for a path, checked by the transport before the pipeline:
    /// `--max-batch-body` for `/v1/batch`, `--max-body` for the rest.
    public func bodyLimit(path: String) -> Int {
        path == BatchHandler.path ? configuration.limits.maxBatchBodyBytes : configuration.limits.maxBodyBytes
    }

    /// The transport's answer to a body over `bodyLimit(path:)` (`HTTPServer.BodyLimit`, docs/http.md
    /// "Early 413"): the same problem document, with the CORS headers.
    public func bodyOverLimit(path: String) -> HTTPResponse {
        problem(HTTPServer.BodyLimit(bytes: bodyLimit(path: path)).problem)
    }
}

extension HTTPResponse {
    /// Hands the body to `sink` in order: `body` at once, or a stream or a batch piece by piece
    /// (each about `SectionedBody.pieceBytes`, as the transport sends it), so a large answer is never held
    /// whole. Stops early when `sink` returns false; returns false then. A stream that fails
    /// midway throws its problem after the pieces already handed over.
    public func writeBody(to sink: ([UInt8]) -> Bool) throws(Problem) -> Bool {
        var writer = TextWriter(capacity: SectionedBody.pieceBytes + (SectionedBody.pieceBytes >> 2))
        if let batch {
            while try batch.writeNext(into: &writer) {
                guard sink(writer.bytes) else { return false }
                writer.bytes.removeAll(keepingCapacity: true)
            }
            return true
        }
        guard let stream else { return sink(body) }
        var cursor = SectionedBody.Cursor()
        while try stream.writeNext(&cursor, into: &writer) {
            guard sink(writer.bytes) else { return false }
            writer.bytes.removeAll(keepingCapacity: true)
        }
        return true
    }
}
