// `segue-bench numbers DIR` (docs/numbers.md "Cost"): nanoseconds per number written by
// `TextWriter.number` — today's formatter, and the path it replaced (`Double.write(to:)`, Swift's
// `description`) — over two streams of 10^7 doubles, each number followed by a comma:
//   render  what a render writes: the times, positions, progress and velocities of springs and
//           Béziers sampled at 60 fps over frames of points, with their integers and tails;
//   random  uniform 64-bit patterns (the finite ones): 17 digits and an exponent, the worst case.
// Each stream is also saved as DIR/NAME.f64 (little-endian doubles) for the C++ writer of
// Benchmarks/number-writer.cpp, which `make bench` runs on the same numbers. Lines (median of 5
// runs, after one untimed run):
//   numbers stream=NAME writer=swift-description ns_per_number=X bytes=B
//   numbers stream=NAME writer=swift-schubfach ns_per_number=X bytes=B identical=yes|NO
import SegueEngine
import SegueJSON
#if canImport(Glibc)
import Glibc
#endif

enum NumberBench {
    static let count = 10_000_000
    static let runs = 5

    static func run(directory: String) {
        for (name, values) in [("render", renderStream()), ("random", randomStream())] {
            save(values, to: "\(directory)/\(name).f64")
            let (before, beforeBytes) = measure(values) { values, bytes in LegacyNumberWriter.write(values, into: &bytes) }
            let (now, nowBytes) = measure(values) { values, bytes in
                var writer = TextWriter(capacity: 0)
                swap(&writer.bytes, &bytes)
                for value in values {
                    writer.number(value)
                    writer.byte(0x2C)
                }
                swap(&writer.bytes, &bytes)
            }
            print("numbers stream=\(name) writer=swift-description ns_per_number=\(rounded(before)) bytes=\(beforeBytes.count)")
            print("numbers stream=\(name) writer=swift-schubfach ns_per_number=\(rounded(now)) bytes=\(nowBytes.count) "
                  + "identical=\(beforeBytes == nowBytes ? "yes" : "NO")")
        }
    }

    /// Median nanoseconds per number of `write` over `runs` timed runs, and the bytes it wrote.
    /// Every run writes into the same buffer, emptied but with its capacity kept (as the C++
    /// writer reuses its buffer), so no run pays for fresh pages.
    static func measure(_ values: [Double], _ write: ([Double], inout [UInt8]) -> Void) -> (Double, [UInt8]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 25)
        write(values, &bytes)
        var perNumber: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<runs {
            bytes.removeAll(keepingCapacity: true)
            let start = clock.now
            write(values, &bytes)
            let elapsed = clock.now - start
            let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
            perNumber.append(nanoseconds / Double(values.count))
        }
        perNumber.sort()
        return (perNumber[perNumber.count / 2], bytes)
    }

    /// Springs (the parametrisations of `ExportBench`) and the CSS Béziers, each animating a point
    /// between random frames for its settling time at 60 fps: per frame the time, the position,
    /// the progress and the velocity.
    static func renderStream() -> [Double] {
        var random = BenchRandom(state: 0x5E6E_2026)
        let beziers: [CubicBezier] = [.ease, .easeIn, .easeOut, .easeInOut, CubicBezier(x1: 0.68, y1: -0.55, x2: 0.265, y2: 1.55)]
        var values: [Double] = []
        values.reserveCapacity(count + 1000)
        var animation = 0
        while values.count < count {
            let from = Double(random.next() % 1000), to = Double(random.next() % 1000)
            if animation % 2 == 0 {
                let spring = ExportBench.springs[(animation / 2) % ExportBench.springs.count].1
                let frames = Int(spring.settlingDuration * 60) + 1
                for frame in 0..<frames {
                    let t = Double(frame) / 60
                    let sample = spring.sample(at: t)
                    values += [t, from + (to - from) * sample.progress, sample.progress, (to - from) * sample.velocity]
                }
            } else {
                let curve = beziers[(animation / 2) % beziers.count]
                let duration = 0.25 + Double(random.next() % 8) / 8
                let frames = Int(duration * 60) + 1
                for frame in 0..<frames {
                    let t = Double(frame) / 60
                    let sample = curve.sample(min(1, t / duration))
                    values += [t, from + (to - from) * sample.progress, sample.progress, (to - from) * sample.slope / duration]
                }
            }
            animation += 1
        }
        return Array(values.prefix(count))
    }

    static func randomStream() -> [Double] {
        var random = BenchRandom(state: 0xD0_0B1E)
        var values: [Double] = []
        values.reserveCapacity(count)
        while values.count < count {
            let value = Double(bitPattern: random.next())
            if value.isFinite { values.append(value) }
        }
        return values
    }

    static func save(_ values: [Double], to path: String) {
        guard let file = fopen(path, "wb") else { fatalError("cannot write \(path)") }
        values.withUnsafeBufferPointer { buffer in
            _ = fwrite(buffer.baseAddress, MemoryLayout<Double>.size, buffer.count, file)
        }
        fclose(file)
    }

    static func rounded(_ x: Double) -> Double { (x * 100).rounded() / 100 }
}

/// `TextWriter.number` as it was before the formatter (for the comparison): integral values below
/// 2^63 by dividing by ten, everything else through `Double.write(to:)` (Swift's `description`).
struct LegacyNumberWriter: TextOutputStream {
    var bytes: [UInt8] = []

    mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }
    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }

    static func write(_ values: [Double], into bytes: inout [UInt8]) {
        var writer = LegacyNumberWriter()
        swap(&writer.bytes, &bytes)
        for value in values {
            if value == value.rounded(.towardZero) && value.magnitude < 0x1p63 {
                writer.integer(Int64(value))
            } else {
                value.write(to: &writer)
            }
            writer.bytes.append(0x2C)
        }
        swap(&writer.bytes, &bytes)
    }

    mutating func integer(_ value: Int64) {
        if value == 0 {
            bytes.append(0x30)
            return
        }
        var magnitude = value.magnitude
        if value < 0 { bytes.append(0x2D) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            var end = scratch.count
            while magnitude > 0 {
                end -= 1
                scratch[end] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: scratch[end...])
        }
    }
}

/// Knuth's MMIX linear congruential generator; its high bits (the sign, exponent and leading
/// significand bits of a random double) are the good ones. Deterministic, so every run writes the
/// same numbers.
struct BenchRandom {
    var state: UInt64

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}
