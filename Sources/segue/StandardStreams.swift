#if canImport(Glibc)
import Glibc
#endif

/// Reading a request file and writing answers with `read(2)` and `write(2)` on the descriptors
/// themselves: no buffering to flush before exit, partial writes and EINTR handled, and a closed
/// pipe reported as EPIPE (SIGPIPE is ignored by the offline commands; docs/cli.md "Exit codes").
enum StandardStreams {
    /// A failed system call: what was being done, and `errno`.
    struct Failure: Error {
        let action: String
        let code: Int32

        var message: String { "segue: \(action): \(String(cString: strerror(code)))\n" }
    }

    /// The contents of `path` (`-`: standard input), reading at most `limit` bytes: a caller that
    /// allows N bytes asks for N + 1 to learn that there are more.
    static func read(_ path: String, atMost limit: Int) throws(Failure) -> [UInt8] {
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(action: "cannot open \(path)", code: errno) }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(action: "cannot read \(path == "-" ? "standard input" : path)", code: errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }

    /// Writes all of `bytes` to `fd`, however many calls it takes.
    static func write(_ bytes: [UInt8], to fd: Int32) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(action: "cannot write \(fd == 1 ? "standard output" : fd == 2 ? "standard error" : "the output file")", code: errno)
            }
            offset += count
        }
    }

    /// A message on standard error, best effort (there is nowhere else to report its failure).
    static func printError(_ text: String) {
        try? write(Array(text.utf8), to: 2)
    }
}
