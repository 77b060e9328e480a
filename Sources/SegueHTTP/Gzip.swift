/// gzip content coding (RFC 1952) over DEFLATE (RFC 1951) in plain Swift, for
/// `Accept-Encoding: gzip` on bodies above 1 KiB (API.md §1). Segue links no C but libmicrohttpd,
/// so there is no zlib: this is a small, deterministic compressor.
///
/// Method: LZ77 over a 32 KiB window (3-byte hash chains, at most `maxChain` candidates, greedy
/// matching) and one final block with dynamic Huffman codes (RFC 1951 §3.2.7), so the ten digits
/// of long numbers cost about 3.5 bits each instead of 8.
enum Gzip {
    /// Bodies up to this size go out uncompressed.
    static let threshold = 1024
    static let windowSize = 1 << 15
    static let minMatch = 3
    static let maxMatch = 258
    static let maxChain = 48
    static let hashBits = 15

    /// Whether `Accept-Encoding` admits gzip (RFC 9110 §12.5.3: `gzip`, `x-gzip` or `*` with q > 0).
    static func accepted(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Double?, any: Double?
        for element in header.split(separator: ",") {
            let parts = element.split(separator: ";").map { $0.trimmingCharacters(in: " \t").lowercased() }
            guard let coding = parts.first else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if coding == "gzip" || coding == "x-gzip" { gzip = quality } else if coding == "*" { any = quality }
        }
        return (gzip ?? any ?? 0) > 0
    }

    static func compress(_ input: [UInt8]) -> [UInt8] {
        var out = BitWriter(capacity: input.count / 2 + 64)
        // Header: magic, CM = 8 (deflate), no flags, MTIME 0 (deterministic), XFL 0, OS 255.
        for byte: UInt8 in [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255] { out.bytes.append(byte) }
        deflate(input, into: &out)
        out.flush()
        appendLittleEndian(CRC32.checksum(input), to: &out.bytes)
        appendLittleEndian(UInt32(truncatingIfNeeded: input.count), to: &out.bytes)
        return out.bytes
    }

    private static func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// LZ77 tokens, then one final block with dynamic Huffman codes (BFINAL = 1, BTYPE = 10).
    static func deflate(_ input: [UInt8], into out: inout BitWriter) {
        let tokens = matchTokens(input)
        var literalFrequencies = [Int](repeating: 0, count: 286)
        var distanceFrequencies = [Int](repeating: 0, count: 30)
        for token in tokens {
            if token.distance == 0 {
                literalFrequencies[Int(token.value)] += 1
            } else {
                literalFrequencies[257 + Codes.lengthIndex(Int(token.value))] += 1
                distanceFrequencies[Codes.distanceIndex(Int(token.distance))] += 1
            }
        }
        literalFrequencies[256] = 1
        // Two distance codes at least, so that every decoder accepts the distance tree.
        if distanceFrequencies.filter({ $0 > 0 }).count < 2 {
            distanceFrequencies[0] = max(distanceFrequencies[0], 1)
            distanceFrequencies[1] = max(distanceFrequencies[1], 1)
        }
        let literalLengths = Huffman.lengths(literalFrequencies, limit: 15)
        let distanceLengths = Huffman.lengths(distanceFrequencies, limit: 15)
        let literalCodes = Huffman.codes(literalLengths)
        let distanceCodes = Huffman.codes(distanceLengths)

        let literalCount = max(257, (literalLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let distanceCount = max(1, (distanceLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let runs = Huffman.runLengths(Array(literalLengths[0..<literalCount]) + Array(distanceLengths[0..<distanceCount]))
        var lengthFrequencies = [Int](repeating: 0, count: 19)
        for run in runs { lengthFrequencies[run.symbol] += 1 }
        let lengthLengths = Huffman.lengths(lengthFrequencies, limit: 7)
        let lengthCodes = Huffman.codes(lengthLengths)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var lengthCount = 19
        while lengthCount > 4 && lengthLengths[order[lengthCount - 1]] == 0 { lengthCount -= 1 }

        out.write(1, count: 1)  // BFINAL
        out.write(2, count: 2)  // BTYPE = dynamic
        out.write(UInt32(literalCount - 257), count: 5)
        out.write(UInt32(distanceCount - 1), count: 5)
        out.write(UInt32(lengthCount - 4), count: 4)
        for i in 0..<lengthCount { out.write(UInt32(lengthLengths[order[i]]), count: 3) }
        for run in runs {
            out.write(lengthCodes[run.symbol], count: lengthLengths[run.symbol])
            out.write(UInt32(run.extra), count: run.extraBits)
        }
        for token in tokens {
            if token.distance == 0 {
                out.write(literalCodes[Int(token.value)], count: literalLengths[Int(token.value)])
                continue
            }
            let length = Int(token.value), distance = Int(token.distance)
            let li = Codes.lengthIndex(length), di = Codes.distanceIndex(distance)
            out.write(literalCodes[257 + li], count: literalLengths[257 + li])
            out.write(UInt32(length - Codes.lengthBase[li]), count: Codes.lengthExtra[li])
            out.write(distanceCodes[di], count: distanceLengths[di])
            out.write(UInt32(distance - Codes.distanceBase[di]), count: Codes.distanceExtra[di])
        }
        out.write(literalCodes[256], count: literalLengths[256])
    }

    /// A literal byte (distance 0) or a match of `value` bytes at `distance`.
    struct Token {
        var value: UInt16
        var distance: UInt16
    }

    /// Greedy LZ77 over a 32 KiB window with 3-byte hash chains.
    static func matchTokens(_ input: [UInt8]) -> [Token] {
        let n = input.count
        var tokens: [Token] = []
        tokens.reserveCapacity(n / 3)
        var head = [Int32](repeating: -1, count: 1 << hashBits)
        var previous = [Int32](repeating: -1, count: windowSize)
        input.withUnsafeBufferPointer { data in
            func hash(_ i: Int) -> Int {
                let value = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2])
                return Int((value &* 2_654_435_761) >> UInt32(32 - hashBits))
            }
            func insert(_ i: Int) {
                guard i + minMatch <= n else { return }
                let h = hash(i)
                previous[i & (windowSize - 1)] = head[h]
                head[h] = Int32(i)
            }
            var i = 0
            while i < n {
                var bestLength = 0, bestDistance = 0
                if i + minMatch <= n {
                    var candidate = Int(head[hash(i)])
                    var chain = maxChain
                    let limit = min(maxMatch, n - i)
                    while candidate >= 0 && i - candidate <= windowSize && chain > 0 {
                        if data[candidate + bestLength] == data[i + bestLength] {
                            var length = 0
                            while length < limit && data[candidate + length] == data[i + length] { length += 1 }
                            if length > bestLength {
                                bestLength = length
                                bestDistance = i - candidate
                                if length == limit { break }
                            }
                        }
                        let next = Int(previous[candidate & (windowSize - 1)])
                        if next >= candidate { break }
                        candidate = next
                        chain -= 1
                    }
                }
                if bestLength >= minMatch {
                    tokens.append(Token(value: UInt16(bestLength), distance: UInt16(bestDistance)))
                    for k in i..<(i + bestLength) { insert(k) }
                    i += bestLength
                } else {
                    tokens.append(Token(value: UInt16(data[i]), distance: 0))
                    insert(i)
                    i += 1
                }
            }
        }
        return tokens
    }
}

/// RFC 1951 §3.2.5 length and distance codes.
enum Codes {
    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
                                    115, 131, 163, 195, 227, 258]
    static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
                                      1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12,
                                       12, 13, 13]

    static func lengthIndex(_ length: Int) -> Int {
        var index = lengthBase.count - 1
        while lengthBase[index] > length { index -= 1 }
        return index
    }

    static func distanceIndex(_ distance: Int) -> Int {
        var index = distanceBase.count - 1
        while distanceBase[index] > distance { index -= 1 }
        return index
    }
}

/// Canonical Huffman codes (RFC 1951 §3.2.2).
enum Huffman {
    /// Code lengths for the frequencies, none longer than `limit`: a Huffman tree built by
    /// repeatedly merging the two lightest nodes; while it is too deep, the frequencies are
    /// halved (keeping used symbols ≥ 1) and the tree rebuilt, which flattens it.
    static func lengths(_ frequencies: [Int], limit: Int) -> [Int] {
        var weights = frequencies
        while true {
            let lengths = treeLengths(weights)
            if (lengths.max() ?? 0) <= limit { return lengths }
            weights = weights.map { $0 == 0 ? 0 : ($0 + 1) / 2 }
        }
    }

    private static func treeLengths(_ weights: [Int]) -> [Int] {
        var lengths = [Int](repeating: 0, count: weights.count)
        let used = weights.indices.filter { weights[$0] > 0 }
        if used.count == 1 { lengths[used[0]] = 1 }
        guard used.count > 1 else { return lengths }
        // Nodes: leaves first, then internal nodes; parent links give each leaf its depth.
        var weight = used.map { weights[$0] }
        var parent = [Int](repeating: -1, count: used.count)
        let queue = Array(weight.indices).sorted { (weight[$0], $0) < (weight[$1], $1) }
        var merged: [Int] = []
        var q = 0, m = 0
        func takeLightest() -> Int {
            if q < queue.count && (m >= merged.count || weight[queue[q]] <= weight[merged[m]]) {
                q += 1
                return queue[q - 1]
            }
            m += 1
            return merged[m - 1]
        }
        for _ in 0..<(used.count - 1) {
            let a = takeLightest(), b = takeLightest()
            weight.append(weight[a] + weight[b])
            parent.append(-1)
            let node = weight.count - 1
            parent[a] = node
            parent[b] = node
            merged.append(node)
        }
        for (leaf, symbol) in used.enumerated() {
            var depth = 0, node = leaf
            while parent[node] >= 0 {
                node = parent[node]
                depth += 1
            }
            lengths[symbol] = depth
        }
        return lengths
    }

    /// Canonical codes for the lengths, bit-reversed for the LSB-first stream.
    static func codes(_ lengths: [Int]) -> [UInt32] {
        let maxLength = lengths.max() ?? 0
        var counts = [Int](repeating: 0, count: maxLength + 1)
        for length in lengths where length > 0 { counts[length] += 1 }
        var next = [UInt32](repeating: 0, count: maxLength + 2)
        var code: UInt32 = 0
        if maxLength > 0 {
            for bits in 1...maxLength {
                code = (code + UInt32(counts[bits - 1])) << 1
                next[bits] = code
            }
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            defer { next[length] += 1 }
            return reversed(next[length], length)
        }
    }

    static func reversed(_ code: UInt32, _ length: Int) -> UInt32 {
        var result: UInt32 = 0
        for bit in 0..<length where code & (1 << UInt32(bit)) != 0 { result |= 1 << UInt32(length - 1 - bit) }
        return result
    }

    struct Run {
        var symbol: Int
        var extra: Int
        var extraBits: Int
    }

    /// The code-length alphabet's run-length encoding: 16 repeats the previous length 3–6 times,
    /// 17 and 18 write 3–10 and 11–138 zeros.
    static func runLengths(_ lengths: [Int]) -> [Run] {
        var runs: [Run] = []
        var i = 0
        while i < lengths.count {
            let value = lengths[i]
            var count = 1
            while i + count < lengths.count && lengths[i + count] == value { count += 1 }
            i += count
            if value == 0 {
                while count >= 11 { let n = min(count, 138); runs.append(Run(symbol: 18, extra: n - 11, extraBits: 7)); count -= n }
                if count >= 3 { runs.append(Run(symbol: 17, extra: count - 3, extraBits: 3)); count = 0 }
            } else {
                runs.append(Run(symbol: value, extra: 0, extraBits: 0))
                count -= 1
                while count >= 3 { let n = min(count, 6); runs.append(Run(symbol: 16, extra: n - 3, extraBits: 2)); count -= n }
            }
            for _ in 0..<count { runs.append(Run(symbol: value, extra: 0, extraBits: 0)) }
        }
        return runs
    }
}

/// Packs bits least-significant first, as DEFLATE streams do.
struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var filled = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func write(_ value: UInt32, count: Int) {
        guard count > 0 else { return }
        buffer |= UInt64(value) << UInt64(filled)
        filled += count
        while filled >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            filled -= 8
        }
    }

    /// Pads the last byte with zero bits.
    mutating func flush() {
        if filled > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0
        filled = 0
    }
}

/// CRC-32 (ISO 3309, polynomial 0xEDB88320 reflected), as gzip's trailer needs.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
