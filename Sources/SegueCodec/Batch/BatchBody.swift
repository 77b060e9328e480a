/// An NDJSON batch body split into its lines (rule 36, docs/batch.md): one JSON object a line,
/// `\n` or `\r\n` line ends, and lines of nothing but spaces, tabs or a `\r` skipped. Lines are
/// counted from 1 among the non-empty ones, which is the `line` each answer carries.
///
/// Only the boundaries are kept (offsets into the body), so a batch of any length holds its
/// body and one range a line, not a parsed document a line.
public struct BatchBody: Sendable {
    public let bytes: [UInt8]
    /// The non-empty lines, each without its line end.
    public let lines: [Range<Int>]

    /// The lines of `bytes`; 413 past `maxBatchLines` (counted without reading further).
    public init(_ bytes: [UInt8], limits: Limits) throws(Problem) {
        self.bytes = bytes
        var lines: [Range<Int>] = []
        var start = 0
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var end = newline
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            if bytes[start..<end].contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
                guard lines.count < limits.maxBatchLines else {
                    throw Problem.tooLarge("the batch holds more than the limit of \(limits.maxBatchLines) lines")
                }
                lines.append(start..<end)
            }
            start = newline + 1
        }
        self.lines = lines
    }

    /// Line `index` (0-based) as its own array, the offsets of `BatchLine` relative to it.
    public func line(_ index: Int) -> [UInt8] { Array(bytes[lines[index]]) }
}
