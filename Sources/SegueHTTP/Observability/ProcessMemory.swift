#if canImport(Glibc)
import Glibc
#endif

/// The process's resident set size, as Prometheus client libraries export it
/// (`process_resident_memory_bytes`): the second field of `/proc/self/statm` (pages) times the
/// page size. Read on every scrape — one `open`/`read`/`close` of a 30-byte file, a few µs.
enum ProcessMemory {
    /// Resident bytes, or nil where `/proc/self/statm` cannot be read (not Linux, no procfs).
    static func residentBytes() -> Int? {
        #if canImport(Glibc)
        guard let pages = statmField(1) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
        #else
        return nil
        #endif
    }

    #if canImport(Glibc)
    /// The `index`th (from 0) space-separated decimal field of `/proc/self/statm`.
    private static func statmField(_ index: Int) -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let fields = buffer[..<count].split(whereSeparator: { $0 == 0x20 || $0 == 0x0A })
        guard index < fields.count else { return nil }
        return Int(String(decoding: fields[index], as: UTF8.self))
    }
    #endif
}
