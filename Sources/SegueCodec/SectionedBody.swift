import SegueEngine
import SegueJSON
/// A response body written in pieces, so that a large one can be produced while it is sent and
/// memory stays flat however many frames are asked for (the transport pulls pieces).
///
/// A body is a list of sections; a section is a prefix, `count` elements and a suffix. Pieces
/// cover up to `batch` elements of one section, the first with the prefix and the last with the
/// suffix, so writing every piece in order gives exactly the bytes of writing the whole body.
public struct SectionedBody: Sendable {
    public struct Section: Sendable {
        var prefix: [UInt8]
        var count: Int
        var elements: Elements
        var suffix: [UInt8]

        /// How a section's elements are written, comma-separated where they are numbers.
        enum Elements {
            /// Element i by a closure (it writes its own separators).
            case written(@Sendable (inout TextWriter, Int) -> Void)
            /// One number per element (`TextWriter.numbers`).
            case numbers([Double])
            /// `width` numbers per element, each element a JSON array (`TextWriter.arrays`).
            case arrays([Double], width: Int)
        }

        public init(prefix: [UInt8], count: Int = 0, suffix: [UInt8] = [],
                    element: @escaping @Sendable (inout TextWriter, Int) -> Void = { _, _ in }) {
            self.prefix = prefix
            self.count = count
            self.elements = .written(element)
            self.suffix = suffix
        }

        /// The numbers of `column`, comma-separated, between `prefix` and `suffix`
        /// (`TextWriter.numbers`): the bytes of writing each with `TextWriter.number`.
        public init(prefix: [UInt8], column: [Double], suffix: [UInt8]) {
            self.prefix = prefix
            count = column.count
            elements = .numbers(column)
            self.suffix = suffix
        }

        /// The frames of a column of `width` numbers per frame, each a JSON array, comma-separated,
        /// between `prefix` and `suffix` (`TextWriter.arrays`).
        public init(prefix: [UInt8], arrays column: [Double], width: Int, suffix: [UInt8]) {
            self.prefix = prefix
            count = column.count / width
            elements = .arrays(column, width: width)
            self.suffix = suffix
        }
    }

    /// Elements per piece at most.
    public static let batch = 4096
    /// A piece ends after the element that brings it to this many bytes, so a piece stays near
    /// 64 KiB however wide an element is (what a slow reader's connection holds).
    public static let pieceBytes = 1 << 16

    public var sections: [Section]
    /// A size estimate for choosing between buffering and streaming, bytes.
    public var estimatedBytes: Int
    /// Memory the sections' closures keep alive (sample times, for instance), bytes: what a
    /// streamed body holds besides its piece.
    public var retainedBytes: Int
    /// Checked before each element: writing stops with a 503 once it is set.
    public var cancellation: WorkCancellation?

    public init(sections: [Section], estimatedBytes: Int, retainedBytes: Int = 0) {
        self.sections = sections
        self.estimatedBytes = estimatedBytes
        self.retainedBytes = retainedBytes
    }

    /// The position of the next piece.
    public struct Cursor: Sendable {
        var section = 0
        var element = 0
        public init() {}
    }

    /// Writes the piece at `cursor` and advances it; false when the body is complete.
    public func writeNext(_ cursor: inout Cursor, into w: inout TextWriter) throws(Problem) -> Bool {
        guard cursor.section < sections.count else { return false }
        // The section is read where it lies: a copy would retain its prefix, suffix and elements.
        try sections.withUnsafeBufferPointer { (sections) throws(Problem) in
            try write(sections[cursor.section], at: &cursor, into: &w)
        }
        return true
    }

    private func write(_ section: borrowing Section, at cursor: inout Cursor, into w: inout TextWriter) throws(Problem) {
        if cursor.element == 0 { Self.append(section.prefix, to: &w) }
        let limit = min(section.count, cursor.element + Self.batch)
        let pieceEnd = w.bytes.count + Self.pieceBytes
        var end = cursor.element
        switch section.elements {
        case .numbers(let numbers):
            if cancellation?.isCancelled == true { throw Problem.cancelled }
            end = w.numbers(numbers, from: end, to: limit, separator: 0x2C, byteLimit: pieceEnd)
        case .arrays(let numbers, let width):
            if cancellation?.isCancelled == true { throw Problem.cancelled }
            end = w.arrays(numbers, width: width, from: end, to: limit, byteLimit: pieceEnd)
        case .written(let element):
            while end < limit && w.bytes.count < pieceEnd {
                if cancellation?.isCancelled == true { throw Problem.cancelled }
                element(&w, end)
                end += 1
            }
        }
        if end == section.count {
            Self.append(section.suffix, to: &w)
            cursor.section += 1
            cursor.element = 0
        } else {
            cursor.element = end
        }
    }

    /// Appends fixed bytes through a buffer: `append(contentsOf:)` takes an array it is given as
    /// its own, a retain and a release each time.
    private static func append(_ bytes: borrowing [UInt8], to w: inout TextWriter) {
        bytes.withUnsafeBufferPointer { w.bytes.append(contentsOf: $0) }
    }

    /// The whole body at once, in one allocation: the estimate, and the spare room
    /// `TextWriter.numbers` asks for before a run of numbers (`TextWriter.runRoom`), so that the
    /// last run does not grow the array and copy it.
    public func bytes() throws(Problem) -> [UInt8] {
        var w = TextWriter(capacity: estimatedBytes + 64 + TextWriter.runRoom)
        var cursor = Cursor()
        while try writeNext(&cursor, into: &w) {}
        return w.bytes
    }
}

/// What a body of fixed text and columns of numbers is written to, in order. The layout is
/// written once, generically: into a `SectionedBody.Builder`, which gathers sections to be
/// written later in pieces (a body that streams), or into a `TextWriter`, which writes it at once
/// (a body small enough to be written whole) with no section, no copy of a column and no array
/// for the text in between — each a retain, a release or an allocation a response
/// (docs/http.md "Atomics, counted and priced").
public protocol ColumnBodyWriter {
    /// Text, as `write` puts it into a JSON writer.
    mutating func text(_ write: (inout TextWriter) -> Void)
    /// The numbers of `column`, comma-separated (`TextWriter.numbers`).
    mutating func column(_ column: [Double])
}

extension TextWriter: ColumnBodyWriter {
    public mutating func text(_ write: (inout TextWriter) -> Void) {
        write(&self)
    }

    public mutating func column(_ column: [Double]) {
        _ = numbers(column, from: 0, to: column.count, separator: 0x2C, byteLimit: .max)
    }
}

extension SectionedBody {
    /// Gathers a layout into sections: the text before each column is its prefix, the text after
    /// the last column that column's suffix.
    public struct Builder: ColumnBodyWriter {
        private var sections: [Section] = []
        private var pending: [UInt8] = []

        public init() {}

        public mutating func text(_ write: (inout TextWriter) -> Void) {
            TextWriter.appending(to: &pending, write)
        }

        public mutating func column(_ column: [Double]) {
            sections.append(Section(prefix: pending, column: column, suffix: []))
            pending = []
        }

        /// The sections gathered, with their size estimate and what they keep alive.
        public consuming func body(estimatedBytes: Int, retainedBytes: Int) -> SectionedBody {
            if sections.isEmpty {
                sections.append(Section(prefix: pending))
            } else {
                sections[sections.count - 1].suffix += pending
            }
            return SectionedBody(sections: sections, estimatedBytes: estimatedBytes, retainedBytes: retainedBytes)
        }
    }
}
