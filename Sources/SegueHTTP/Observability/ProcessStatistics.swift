#if canImport(Glibc)
import Glibc
#endif

/// The process figures Prometheus client libraries export under their standard names, read from
/// procfs on every scrape (a few small files, a few µs):
///
/// - `process_resident_memory_bytes`: the second field of `/proc/self/statm` (pages) × the page size;
/// - `process_cpu_seconds_total`: user + system time, fields 14 and 15 of `/proc/self/stat`, in
///   clock ticks;
/// - `process_start_time_seconds`: the boot time (`btime` of `/proc/stat`) + field 22 of
///   `/proc/self/stat` (ticks after boot);
/// - `process_open_fds`: the entries of `/proc/self/fd`, less the one the count itself opens.
///
/// Each is nil where procfs cannot be read (not Linux).
enum ProcessStatistics {
    static func residentBytes() -> Int? {
        #if canImport(Glibc)
        guard let pages = fields("/proc/self/statm").flatMap({ $0.count > 1 ? Int($0[1]) : nil }) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
        #else
        return nil
        #endif
    }

    static func cpuSeconds() -> Double? {
        guard let stat = statFields(), stat.count > 12, let user = Double(stat[11]), let system = Double(stat[12]) else { return nil }
        return (user + system) / ticksPerSecond
    }

    static func startTimeSeconds() -> Double? {
        guard let stat = statFields(), stat.count > 19, let ticks = Double(stat[19]),
              let boot = fields("/proc/stat")?.split(separator: "btime").dropFirst().first?.first.flatMap({ Double($0) })
        else { return nil }
        return boot + ticks / ticksPerSecond
    }

    static func openFileDescriptors() -> Int? {
        #if canImport(Glibc)
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(3)) }
            if name[0] != 0x2E { count += 1 }  // not "." or ".."
        }
        return count - 1  // the directory's own descriptor
        #else
        return nil
        #endif
    }

    private static var ticksPerSecond: Double {
        #if canImport(Glibc)
        Double(sysconf(Int32(_SC_CLK_TCK)))
        #else
        100
        #endif
    }

    /// `/proc/self/stat`'s fields after the command name (which may hold spaces): field 3 first.
    private static func statFields() -> [String]? {
        guard let text = contents("/proc/self/stat"), let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    /// The whitespace-separated words of a small procfs file.
    private static func fields(_ path: String) -> [String]? {
        contents(path)?.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    private static func contents(_ path: String) -> String? {
        #if canImport(Glibc)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        #else
        return nil
        #endif
    }
}
