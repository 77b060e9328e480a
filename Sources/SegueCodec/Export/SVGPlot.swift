import SegueJSON

/// The small SVG vocabulary the `format=svg` exports share (docs/exports-svg.md): escaping, rounded
/// coordinates, axes with "nice" ticks, reference lines, legends and paths, all written into a
/// `TextWriter`'s buffer (the byte buffer the JSON and CSV bodies use) so that a plot is a
/// `SectionedBody` like the other formats. The documents are self-contained: no links, images,
/// scripts or fonts, and the only style is the `<style>` element written by `open`.
enum SVGPlot {
    /// Decimal places of every coordinate written: a hundredth of a user unit, finer than any
    /// screen pixel of these drawings, keeps a vertex near 14 bytes.
    static let decimals = 2

    /// The style rules every plot uses; `open`'s `style` adds the plot's own classes.
    static let baseStyle: StaticString = """
        text{fill:#222}.heading{font-weight:bold}.note{fill:#a33}.axis{stroke:#333;fill:none}\
        .grid{stroke:#e6e6e6}.ref{stroke:#888;stroke-dasharray:4 3}\
        path{fill:none;stroke-width:1.5;stroke-linejoin:round}.swatch{stroke-width:3}
        """

    // MARK: Numbers and text

    /// `value` rounded to `decimals` decimal places (0…22), so that its shortest round-trip text
    /// has at most that many; a value too large to scale is already integral and kept.
    static func rounded(_ value: Double, decimals: Int) -> Double {
        let scale = powerOfTen(decimals)
        let result = (value * scale).rounded() / scale
        return result.isFinite ? result : value
    }

    /// 10^exponent for exponent in −308…308, exact up to 10^22.
    static func powerOfTen(_ exponent: Int) -> Double {
        var power = 1.0
        for _ in 0..<exponent.magnitude { power *= 10 }
        return exponent < 0 ? 1 / power : power
    }

    /// A coordinate or length, rounded to `decimals` places and written by `TextWriter.number`.
    static func coordinate(_ value: Double, into w: inout TextWriter) {
        w.number(rounded(value, decimals: decimals))
    }

    /// XML text or attribute content: `& < > " '` become entities, and the characters XML 1.0
    /// cannot carry at all (controls other than tab, LF and CR; U+FFFE, U+FFFF) become U+FFFD.
    static func escaped(_ text: String, into w: inout TextWriter) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": w.raw("&amp;")
            case "<": w.raw("&lt;")
            case ">": w.raw("&gt;")
            case "\"": w.raw("&quot;")
            case "'": w.raw("&#39;")
            case "\t", "\n", "\r": w.byte(UInt8(scalar.value))
            default:
                let allowed = scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF
                UTF8.encode(allowed ? scalar : "\u{FFFD}") { w.byte($0) }
            }
        }
    }

    // MARK: Elements

    /// The document's opening: the `<svg>` element with its `viewBox`, `<title>`, `<desc>` (one
    /// line per entry), the style and a white background.
    static func open(width: Double, height: Double, title: String, description: [String], style: StaticString,
                     into w: inout TextWriter) {
        w.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
        coordinate(width, into: &w); w.byte(0x20); coordinate(height, into: &w)
        w.raw("\" width=\""); coordinate(width, into: &w)
        w.raw("\" height=\""); coordinate(height, into: &w)
        w.raw("\" font-family=\"sans-serif\" font-size=\"11\"><title>")
        escaped(title, into: &w)
        w.raw("</title><desc>")
        for (i, line) in description.enumerated() {
            if i > 0 { w.byte(0x0A) }
            escaped(line, into: &w)
        }
        w.raw("</desc><style>")
        w.raw(baseStyle)
        w.raw(style)
        w.raw("</style><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n")
    }

    /// The document's end.
    static let close = Array("</svg>\n".utf8)

    /// Where a text's anchor point sits in it, when not at its start (SVG's default).
    enum Anchor {
        case middle, end

        var name: StaticString {
            switch self {
            case .middle: "middle"
            case .end: "end"
            }
        }
    }

    /// A `<text>` at (x, y); `rotated` turns it a quarter anticlockwise about that point.
    static func text(_ content: String, x: Double, y: Double, anchor: Anchor? = nil, className: StaticString? = nil,
                     rotated: Bool = false, into w: inout TextWriter) {
        w.raw("<text x=\""); coordinate(x, into: &w)
        w.raw("\" y=\""); coordinate(y, into: &w)
        if let anchor { w.raw("\" text-anchor=\""); w.raw(anchor.name) }
        if let className { w.raw("\" class=\""); w.raw(className) }
        if rotated {
            w.raw("\" transform=\"rotate(-90 "); coordinate(x, into: &w); w.byte(0x20); coordinate(y, into: &w); w.raw(")")
        }
        w.raw("\">")
        escaped(content, into: &w)
        w.raw("</text>")
    }

    /// A `<line>` of the given class.
    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, className: StaticString,
                     into w: inout TextWriter) {
        w.raw("<line class=\""); w.raw(className)
        w.raw("\" x1=\""); coordinate(x1, into: &w)
        w.raw("\" y1=\""); coordinate(y1, into: &w)
        w.raw("\" x2=\""); coordinate(x2, into: &w)
        w.raw("\" y2=\""); coordinate(y2, into: &w)
        w.raw("\"/>")
    }

    /// The plot area's outline.
    static func frame(_ area: SVGRect, into w: inout TextWriter) {
        w.raw("<rect class=\"axis\" x=\""); coordinate(area.left, into: &w)
        w.raw("\" y=\""); coordinate(area.top, into: &w)
        w.raw("\" width=\""); coordinate(area.width, into: &w)
        w.raw("\" height=\""); coordinate(area.height, into: &w)
        w.raw("\"/>")
    }

    /// A number as the JSON body writes it (shortest round-trip text, integral values bare).
    static func numberText(_ value: Double) -> String {
        var w = TextWriter(capacity: 24)
        w.number(value)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A tick label: the tick's value with as many decimals as the step needs.
    static func tickLabel(_ value: Double, _ scale: SVGScale) -> String {
        numberText(rounded(value, decimals: scale.tickDecimals))
    }

    /// The horizontal axis under `area`: a grid line and a label per tick and, when given, the
    /// axis title centred below.
    static func xAxis(_ scale: SVGScale, in area: SVGRect, title: String?, into w: inout TextWriter) {
        for tick in scale.ticks {
            let x = scale.position(tick)
            line(x, area.top, x, area.bottom, className: "grid", into: &w)
            text(tickLabel(tick, scale), x: x, y: area.bottom + 14, anchor: .middle, into: &w)
        }
        if let title { text(title, x: area.left + area.width / 2, y: area.bottom + 32, anchor: .middle, into: &w) }
        w.byte(0x0A)
    }

    /// Which side of the plot area a vertical axis is on.
    enum Side {
        case left, right
    }

    /// A vertical axis beside `area`: a label per tick (and a grid line when `grid`) and, when
    /// given, the axis title, turned upright, outside the labels.
    static func yAxis(_ scale: SVGScale, in area: SVGRect, side: Side, title: String?, grid: Bool,
                      into w: inout TextWriter) {
        let labelX = side == .left ? area.left - 6 : area.right + 6
        for tick in scale.ticks {
            let y = scale.position(tick)
            if grid { line(area.left, y, area.right, y, className: "grid", into: &w) }
            text(tickLabel(tick, scale), x: labelX, y: y + 4, anchor: side == .left ? .end : nil, into: &w)
        }
        if let title {
            let titleX = side == .left ? area.left - 48 : area.right + 50
            text(title, x: titleX, y: area.top + area.height / 2, anchor: .middle, rotated: true, into: &w)
        }
        w.byte(0x0A)
    }

    /// A dashed horizontal line across `area` at `value`.
    static func referenceLine(at value: Double, _ scale: SVGScale, in area: SVGRect, into w: inout TextWriter) {
        let y = scale.position(value)
        line(area.left, y, area.right, y, className: "ref", into: &w)
    }

    /// A column of legend entries from (x, y) down, `spacing` apart: a short line in the
    /// entry's classes and its name.
    static func legend(_ entries: [(className: String, label: String)], x: Double, y: Double, spacing: Double = 14,
                       into w: inout TextWriter) {
        for (i, entry) in entries.enumerated() {
            let rowY = y + Double(i) * spacing
            w.raw("<line class=\"swatch "); escaped(entry.className, into: &w)
            w.raw("\" x1=\""); coordinate(x, into: &w)
            w.raw("\" y1=\""); coordinate(rowY - 4, into: &w)
            w.raw("\" x2=\""); coordinate(x + 16, into: &w)
            w.raw("\" y2=\""); coordinate(rowY - 4, into: &w)
            w.raw("\"/>")
            text(entry.label, x: x + 20, y: rowY, into: &w)
        }
        w.byte(0x0A)
    }

    /// A `<path>` of the given classes through `count` points in order (`M` then one `L` per
    /// further point), written one vertex per element so that it streams.
    static func path(className: String, count: Int,
                     point: @escaping @Sendable (Int) -> (x: Double, y: Double)) -> SectionedBody.Section {
        var open = TextWriter(capacity: 64)
        open.raw("<path class=\"")
        escaped(className, into: &open)
        open.raw("\" d=\"")
        return SectionedBody.Section(prefix: open.bytes, count: count, suffix: Array("\"/>\n".utf8)) { w, i in
            let p = point(i)
            w.byte(i == 0 ? 0x4D : 0x4C)
            coordinate(p.x, into: &w)
            w.byte(0x20)
            coordinate(p.y, into: &w)
        }
    }

    /// Bytes of one path vertex, for size estimates.
    static let bytesPerVertex = 14
}

/// A rectangle of the drawing, in user units (y grows downwards).
struct SVGRect: Sendable, Equatable {
    var left: Double
    var top: Double
    var width: Double
    var height: Double

    var right: Double { left + width }
    var bottom: Double { top + height }
}

/// A linear map from an interval of data values onto an interval of positions in the drawing,
/// with ticks at a "nice" step (1, 2 or 5 times a power of ten).
///
/// A flat or nearly flat interval (narrower than 1e-12 of its magnitude, or of 1) is widened by
/// a tenth of its magnitude, at least 1, on each side, so that a constant still draws as a line
/// across the middle. Arithmetic is done on halves, so that no interval of finite values overflows.
struct SVGScale: Sendable, Equatable {
    /// The data values at `start` and at `end`.
    let lower: Double, upper: Double
    /// The positions of `lower` and `upper` (for a vertical axis `start` is the bottom).
    let start: Double, end: Double
    /// The distance between ticks, and the decimals their labels need.
    let step: Double
    let tickDecimals: Int

    /// A scale covering `low…high` onto `start…end` with about `ticks` ticks; with
    /// `extendsToTicks` the interval grows outwards to the nearest ticks.
    init(covering low: Double, _ high: Double, from start: Double, to end: Double, ticks: Int = 5,
         extendsToTicks: Bool) {
        var lo = low, hi = high
        if !(hi - lo > 1e-12 * Swift.max(1, lo.magnitude, hi.magnitude)) {
            let centre = lo / 2 + hi / 2, pad = Swift.max(1, centre.magnitude / 10)
            lo = Swift.max(centre - pad, -.greatestFiniteMagnitude)
            hi = Swift.min(centre + pad, .greatestFiniteMagnitude)
        }
        let raw = hi / Double(ticks) - lo / Double(ticks)
        var exponent = 0
        while SVGPlot.powerOfTen(exponent + 1) <= raw { exponent += 1 }
        while SVGPlot.powerOfTen(exponent) > raw { exponent -= 1 }
        let mantissa = raw / SVGPlot.powerOfTen(exponent)
        var multiple = mantissa <= 1 ? 1.0 : mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10
        if multiple == 10 { multiple = 1; exponent += 1 }
        step = exponent < 0 ? multiple / SVGPlot.powerOfTen(-exponent) : multiple * SVGPlot.powerOfTen(exponent)
        tickDecimals = Swift.max(0, -exponent)
        if extendsToTicks {
            let below = (lo / step).rounded(.down) * step, above = (hi / step).rounded(.up) * step
            lo = below.isFinite ? below : lo
            hi = above.isFinite ? above : hi
        }
        lower = lo
        upper = hi
        self.start = start
        self.end = end
    }

    /// The position of `value`, clamped to `start…end`: a value beyond the axis sits on its edge.
    func position(_ value: Double) -> Double {
        let fraction = (value / 2 - lower / 2) / (upper / 2 - lower / 2)
        return start + Swift.min(Swift.max(fraction, 0), 1) * (end - start)
    }

    /// The data value at a position (the inverse of `position` within the axis).
    func value(at position: Double) -> Double {
        let fraction = (position - start) / (end - start)
        return 2 * (lower / 2 + fraction * (upper / 2 - lower / 2))
    }

    /// The tick values within the axis, lowest first (at most a few more than asked for).
    var ticks: [Double] {
        let first = (lower / step - 1e-9).rounded(.up), last = (upper / step + 1e-9).rounded(.down)
        guard first <= last else { return [] }
        let count = Int(Swift.min(last - first, 23)) + 1
        return (0..<count).map { (first + Double($0)) * step }
    }
}
