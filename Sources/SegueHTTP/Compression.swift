import CZlib

/// The gzip content coding (RFC 9110 §8.4.1.3) through Debian's zlib: DEFLATE with the gzip wrapper
/// (`deflateInit2` with windowBits 31), zlib's default level. docs/rules.md "Conventions": `Accept-Encoding: gzip`
/// gives a gzip body above 1 KiB; smaller bodies go out as they are.
///
/// `gzip(_:)` codes a whole body; a `Compression.Stream` takes a body in pieces as a streamed body
/// gives them.
enum Compression {
    /// Bodies up to this size go out uncoded.
    static let threshold = 1024
    /// The content coding's name, as `Content-Encoding` gives it.
    static let coding = "gzip"

    /// Whether a body of `count` bytes goes out gzip-coded for this `Accept-Encoding`.
    static func applies(toBodyOf count: Int, acceptEncoding: String?) -> Bool {
        count > threshold && Negotiation.acceptsGzip(acceptEncoding)
    }

    /// `body` gzip-coded; nil when zlib fails (out of memory), and the body then goes out uncoded.
    static func gzip(_ body: [UInt8]) -> [UInt8]? {
        guard let stream = Stream() else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(body.count / 4 + 64)
        guard stream.write(body, into: &output), stream.finish(into: &output) else { return nil }
        return output
    }

    /// One gzip member written piece by piece. zlib keeps a pointer back to its `z_stream`, so the
    /// stream lives at a fixed address for its whole life.
    final class Stream {
        private let stream: UnsafeMutablePointer<z_stream>
        /// Output grows by this many bytes at a time.
        private static let chunk = 1 << 15

        init?(level: Int32 = Z_DEFAULT_COMPRESSION) {
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            // windowBits 15 + 16: a 32 KiB window and the gzip header and trailer; memLevel 8 is zlib's default.
            guard segue_deflate_init2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK else {
                stream.deinitialize(count: 1)
                stream.deallocate()
                return nil
            }
        }

        deinit {
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }

        /// Codes `input`, appending to `output` whatever zlib has ready (possibly nothing yet).
        func write(_ input: [UInt8], into output: inout [UInt8]) -> Bool {
            input.withUnsafeBufferPointer { run($0, flush: Z_NO_FLUSH, into: &output) }
        }

        /// Hands out everything given so far, ending on a byte boundary (`Z_SYNC_FLUSH`), so a
        /// reader can decode it before more arrives.
        func flush(into output: inout [UInt8]) -> Bool {
            run(UnsafeBufferPointer(start: nil, count: 0), flush: Z_SYNC_FLUSH, into: &output)
        }

        /// Ends the member: the rest of the coded data and the gzip trailer (CRC-32 and length).
        func finish(into output: inout [UInt8]) -> Bool {
            run(UnsafeBufferPointer(start: nil, count: 0), flush: Z_FINISH, into: &output)
        }

        /// zlib's loop (zpipe.c): deflate into fresh room at the end of `output` until zlib leaves
        /// room unused, which means it has consumed all input (and, with Z_FINISH, ended the stream).
        private func run(_ input: UnsafeBufferPointer<UInt8>, flush: Int32, into output: inout [UInt8]) -> Bool {
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            defer { stream.pointee.next_in = nil }
            var status: Int32
            repeat {
                let start = output.count
                output.append(contentsOf: repeatElement(0, count: Self.chunk))
                status = output.withUnsafeMutableBufferPointer { buffer in
                    stream.pointee.next_out = buffer.baseAddress! + start
                    stream.pointee.avail_out = UInt32(Self.chunk)
                    return deflate(stream, flush)
                }
                output.removeLast(Int(stream.pointee.avail_out))
                stream.pointee.next_out = nil
                if status == Z_STREAM_ERROR { return false }
            } while stream.pointee.avail_out == 0
            return flush != Z_FINISH || status == Z_STREAM_END
        }
    }
}

/// Codes a deterministic 200 body above the threshold with gzip when `Accept-Encoding` admits it,
/// adding `Content-Encoding` and keeping the identity bytes for the entity tag. A streamed body is
/// marked for coding, and coded piece by piece while it is sent.
struct CompressionMiddleware: Middleware {
    func respond<Failure: Error>(to request: HTTPRequest, next: (HTTPRequest) throws(Failure) -> HTTPResponse)
        throws(Failure) -> HTTPResponse {
        coded(try next(request), request)
    }

    /// The response, coded where it applies; taken (`consuming`), not copied (as `EntityTagMiddleware.tagged`).
    private func coded(_ response: consuming HTTPResponse, _ request: HTTPRequest) -> HTTPResponse {
        guard response.status == 200, response.isDeterministic else { return consume response }
        let accepted = request.headers[.acceptEncoding]
        if let stream = response.stream {
            guard Compression.applies(toBodyOf: stream.estimatedBytes, acceptEncoding: accepted) else { return consume response }
            response.gzipsStream = true
            response.headers.append(HeaderField("Content-Encoding", Compression.coding))
            return consume response
        }
        guard Compression.applies(toBodyOf: response.body.count, acceptEncoding: accepted),
              let coded = Compression.gzip(response.body) else { return consume response }
        response.uncodedBody = response.body
        response.body = coded
        response.headers.append(HeaderField("Content-Encoding", Compression.coding))
        return consume response
    }
}
