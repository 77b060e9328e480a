// libFuzzer harness for the shortest-double formatter (`ShortestDouble`, `DoubleText`; see
// Fuzz/README.md, docs/numbers.md and scripts/fuzz.sh).
//
// Compiled into the same module as the SegueJSON sources (not through SwiftPM). Each input gives
// several doubles: every 8-byte word read as a bit pattern, the input read as decimal text by
// `Double(String)` when it is one, and both neighbours of each. For every finite one the
// formatter must write exactly the bytes of `Double.write(to:)` (Swift's `description`), the text
// must read back to the same bits and must not be longer; `JSONWriter.number` must keep its rule
// (integral values below 2^63 as integers). Any failed check ends in `fatalError`, which libFuzzer
// reports as a crash with the input.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    var words = 0
    while (words + 1) * 8 <= size {
        var bits: UInt64 = 0
        for i in 0..<8 { bits |= UInt64(input[words * 8 + i]) << (8 * i) }
        checkWithNeighbours(Double(bitPattern: bits))
        words += 1
    }
    if size > 0 && size <= 64, let value = Double(String(decoding: input, as: UTF8.self)) {
        checkWithNeighbours(value)
    }
    return 0
}

private func checkWithNeighbours(_ value: Double) {
    guard value.isFinite else { return }
    check(value)
    check(value.nextUp)
    check(value.nextDown)
}

private func check(_ value: Double) {
    guard value.isFinite else { return }
    var ours = JSONWriter(capacity: 32)
    ours.description(of: value)
    var swift = JSONWriter(capacity: 32)
    value.write(to: &swift)
    let text = String(decoding: ours.bytes, as: UTF8.self)
    let expected = String(decoding: swift.bytes, as: UTF8.self)
    guard ours.bytes == swift.bytes else {
        fatalError("0x\(String(value.bitPattern, radix: 16)): the formatter wrote \(text), Swift writes \(expected)")
    }
    guard ours.bytes.count <= swift.bytes.count else {
        fatalError("0x\(String(value.bitPattern, radix: 16)): \(text) is longer than Swift's \(expected)")
    }
    guard let reread = Double(text), reread.bitPattern == value.bitPattern else {
        fatalError("0x\(String(value.bitPattern, radix: 16)): \(text) does not read back")
    }
    var number = JSONWriter(capacity: 32)
    number.number(value)
    let integral = value == value.rounded(.towardZero) && value.magnitude < 0x1p63
    let before = integral ? String(Int64(value)) : expected
    guard String(decoding: number.bytes, as: UTF8.self) == before else {
        fatalError("0x\(String(value.bitPattern, radix: 16)): number() wrote \(String(decoding: number.bytes, as: UTF8.self)), not \(before)")
    }
}
