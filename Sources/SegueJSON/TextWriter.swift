/// Appends UTF-8 text to a byte buffer: the JSON of every response, and the CSV, CSS, SVG and log
/// lines written with its numbers and strings.
///
/// Numbers follow docs/rules.md "Conventions" and rule 23: the shortest text that reads back to the same double
/// (byte for byte Swift's `description`, written by `DoubleText` straight into `bytes`, see
/// docs/numbers.md), integral values without a fraction, and −0 as 0. Callers never pass
/// non-finite numbers: the engine's results are checked before writing.
public struct TextWriter: TextOutputStream {
    public var bytes: [UInt8]

    /// Bytes reserved when no capacity is given: most writers (a body's head, a log line) need
    /// fewer, and an array of this size (with its 32-byte header) still comes from glibc's
    /// per-thread cache (blocks up to 1032 bytes); 1 KiB took malloc's slow path on every request.
    public static let defaultCapacity = 480

    public init(capacity: Int = defaultCapacity) {
        bytes = []
        // `reserveCapacity(0)` still takes the array's slow path: skip it when there is nothing to reserve.
        if capacity > 0 { bytes.reserveCapacity(capacity) }
    }

    /// Calls `write` with a writer that appends to `bytes` in place: the array is lent to the
    /// writer and given back, not copied.
    public static func appending(to bytes: inout [UInt8], _ write: (inout TextWriter) -> Void) {
        var writer = TextWriter(capacity: 0)
        swap(&writer.bytes, &bytes)
        write(&writer)
        swap(&writer.bytes, &bytes)
    }

    // MARK: TextOutputStream (the path `Double.write(to:)` takes)

    public mutating func write(_ string: String) {
        bytes.append(contentsOf: string.utf8)
    }

    public mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }

    // MARK: Pieces

    @inline(__always)
    public mutating func raw(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        append(count: count) { $0.copyMemory(from: text.utf8Start, byteCount: count) }
    }

    /// Appends the `count` bytes `write` puts at the pointer it is given: one capacity check, and
    /// a copy where `Array.append(contentsOf:)` goes through its generic sequence path.
    @inline(__always)
    private mutating func append(count: Int, _ write: (UnsafeMutableRawPointer) -> Void) {
        bytes.append(addingCapacity: count) { span in
            span.withUnsafeMutableBufferPointer { buffer, written in
                write(UnsafeMutableRawPointer(buffer.baseAddress!))
                written = count
            }
        }
    }

    @inline(__always)
    public mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// Integral doubles below 2^63 in magnitude print as integers; others as Swift's shortest
    /// round-trip text ("1e-05", "1.5", "1e+300").
    @inline(__always)
    public mutating func number(_ value: Double) {
        guard value.isFinite else {
            value.write(to: &self)
            return
        }
        appendText { Self.write(value, at: $0) }
    }

    /// Appends the text `write` puts at the pointer it is given (`numberRoom` bytes free there)
    /// and whose length it returns: no `String`, no array and no copy per number.
    @inline(__always)
    private mutating func appendText(_ write: (UnsafeMutableRawPointer) -> Int) {
        bytes.append(addingCapacity: Self.numberRoom) { span in
            span.withUnsafeMutableBufferPointer { buffer, written in
                written = write(UnsafeMutableRawPointer(buffer.baseAddress!))
            }
        }
    }

    /// Bytes a finite number's text may touch while it is written (`DoubleText.room`), and its
    /// separator.
    public static let numberRoom = DoubleText.room + 1

    /// Numbers `numbers` writes per capacity check. Its room (`numberRoom` each) is asked for
    /// before they are written and is mostly left unused (a number takes about half of it), so a
    /// bounded run keeps the spare room a writer may need at most `runRoom` bytes, whatever the
    /// column's length: asking for a whole column's room outgrew a body's estimate (and the
    /// 64 KiB piece of a streamed body) and copied the array into one twice as large.
    public static let numbersPerReservation = 32
    /// The most spare room `numbers` asks for at once.
    public static let runRoom = numbersPerReservation * numberRoom

    /// Writes the text of `number(value)` for a finite `value` at `p`, with `numberRoom` bytes
    /// free; returns its length. Integral exactly when truncating to Int64 and back changes nothing.
    @inline(__always)
    static func write(_ value: Double, at p: UnsafeMutableRawPointer) -> Int {
        if value.magnitude < 0x1p63 {
            let truncated = Int64(value)
            if Double(truncated) == value { return writeInteger(truncated, at: p) }
        }
        return DoubleText.write(value, at: p)
    }

    /// Appends `values[start..<end]` as numbers, each after `separator` but the one at index 0,
    /// the same bytes as `number` for each. Stops after the number that brings `bytes` to
    /// `byteLimit` bytes; returns the index after the last one written. One capacity check for
    /// every `numbersPerReservation` numbers instead of one per number: the column form of a
    /// sampled channel.
    public mutating func numbers(_ values: [Double], from start: Int, to end: Int, separator: UInt8, byteLimit: Int) -> Int {
        numbers(values, from: start, to: end, unseparatedAt: 0, separator: separator, byteLimit: byteLimit)
    }

    /// Appends frames `start..<end` of a column of `width` numbers per frame, each frame a JSON
    /// array and a comma before every frame but frame 0: the same bytes as `numbers(_:)` for each
    /// frame's slice. Stops after the frame that brings `bytes` to `byteLimit` bytes; returns the
    /// frame after the last one written.
    public mutating func arrays(_ values: [Double], width: Int, from start: Int, to end: Int, byteLimit: Int) -> Int {
        precondition(width > 0 && 0 <= start && start <= end && end * width <= values.count)
        var frame = start
        while frame < end && bytes.count < byteLimit {
            if frame > 0 { bytes.append(0x2C) }
            bytes.append(0x5B)
            let first = frame * width
            _ = numbers(values, from: first, to: first + width, unseparatedAt: first, separator: 0x2C, byteLimit: .max)
            bytes.append(0x5D)
            frame += 1
        }
        return frame
    }

    /// `values[start..<end]`, each after `separator` but the one at index `first`.
    private mutating func numbers(_ values: [Double], from start: Int, to end: Int, unseparatedAt first: Int,
                                  separator: UInt8, byteLimit: Int) -> Int {
        precondition(0 <= start && start <= end && end <= values.count)
        var next = start
        while next < end && bytes.count < byteLimit {
            let base = bytes.count
            let stop = min(end, next + Self.numbersPerReservation)
            values.withUnsafeBufferPointer { values in
                bytes.append(addingCapacity: (stop - next) * Self.numberRoom) { span in
                    span.withUnsafeMutableBufferPointer { buffer, written in
                        let p = UnsafeMutableRawPointer(buffer.baseAddress!)
                        var offset = 0
                        // A value equal bit for bit to the one before is a copy of its text:
                        // columns that hold (steps, a tick shown until the next, a motion at
                        // rest) repeat values in runs. The NaN pattern never matches a finite value.
                        var last = (bits: Double.nan.bitPattern, start: 0, length: 0)
                        while next < stop && base + offset < byteLimit && values[next].isFinite {
                            if next > first {
                                p.storeBytes(of: separator, toByteOffset: offset, as: UInt8.self)
                                offset += 1
                            }
                            let value = values[next]
                            if value.bitPattern == last.bits {
                                (p + offset).copyMemory(from: p + last.start, byteCount: last.length)
                                offset += last.length
                            } else {
                                let length = Self.write(value, at: p + offset)
                                last = (value.bitPattern, offset, length)
                                offset += length
                            }
                            next += 1
                        }
                        written = offset
                    }
                }
            }
            // A value that is not finite ("inf", "nan") takes the slow path of `number`.
            if next < stop && bytes.count < byteLimit && !values[next].isFinite {
                if next > first { bytes.append(separator) }
                number(values[next])
                next += 1
            }
        }
        return next
    }

    /// Exactly the bytes of `value.description` ("1.0", "0.1", "1e-05", "-0.0", "5e-324") with no
    /// `String` in between; non-finite values ("inf", "nan") go through `Double.write(to:)`.
    @inline(__always)
    public mutating func description(of value: Double) {
        if value.isFinite {
            appendText { DoubleText.write(value, at: $0) }
        } else {
            value.write(to: &self)
        }
    }

    /// The decimal text of an integer: "0", "42", "-9223372036854775808".
    public mutating func integer(_ value: Int64) {
        appendText { Self.writeInteger(value, at: $0) }
    }

    /// Writes the decimal text of `value` at `p` (up to 20 bytes, and up to eight more touched);
    /// returns its length.
    @inline(__always)
    static func writeInteger(_ value: Int64, at p: UnsafeMutableRawPointer) -> Int {
        if value == 0 {
            p.storeBytes(of: DoubleText.zero, as: UInt8.self)
            return 1
        }
        let sign = value < 0 ? 1 : 0
        if sign == 1 { p.storeBytes(of: DoubleText.minus, as: UInt8.self) }
        let digits = DecimalDigits(value.magnitude)
        digits.store(at: p + sign)
        return sign + digits.count
    }

    /// A JSON string literal with the mandatory escapes (a native string's bytes read in place).
    public mutating func string(_ text: String) { text.withUTF8InPlace { string(utf8: $0) } }

    /// A JSON string literal of UTF-8 text, with the mandatory escapes (`TextRun.string`).
    public mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        let room = TextRun.stringRoom(utf8)
        guard room == utf8.count + 2 else { return run(room: room) { $0.string(utf8: utf8) } }
        // Most strings, with nothing to escape: the quotes and the text in one piece, after one reading.
        append(count: room) { TextRun.quote(utf8, at: $0) }
    }

    /// `"key":` with the leading comma when `first` is false.
    @inline(__always)
    public mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(0x2C) }
        bytes.append(0x22)
        raw(name)
        raw("\":")
    }

    /// `[n, n, …]`.
    public mutating func numbers(_ values: [Double]) {
        bytes.append(0x5B)
        for (i, value) in values.enumerated() {
            if i > 0 { bytes.append(0x2C) }
            number(value)
        }
        bytes.append(0x5D)
    }

    /// Any JSON value, members in their stored order. Elements are read where they lie, by index:
    /// `for element in` copies each one, a retain and a release of whatever it holds.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): flag ? raw("true") : raw("false")
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements):
            bytes.append(0x5B)
            for i in elements.indices {
                if i > 0 { bytes.append(0x2C) }
                self.value(elements[i])
            }
            bytes.append(0x5D)
        case .object(let members):
            bytes.append(0x7B)
            for i in members.indices {
                if i > 0 { bytes.append(0x2C) }
                string(members[i].key)
                bytes.append(0x3A)
                self.value(members[i].value)
            }
            bytes.append(0x7D)
        }
    }
}

extension JSONValue {
    /// The compact JSON text of this value.
    public var bytes: [UInt8] {
        var writer = TextWriter()
        writer.value(self)
        return writer.bytes
    }
}
