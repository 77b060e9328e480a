#if canImport(Glibc)
import Glibc
#endif

enum Environment {
    /// The process environment, read from the C library's `environ` (the service imports no
    /// Foundation, whose `ProcessInfo` would give it; docs/http.md "Imports and the runtime image").
    static var variables: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let equals = pair.firstIndex(of: "=") {
                result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
