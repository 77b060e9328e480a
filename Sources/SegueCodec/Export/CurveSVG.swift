import SegueJSON

/// The layout of a curve's `format=svg` plot (rule 27, docs/exports-svg.md): progress against
/// time on the left axis, velocity on the right, both over one plot area.
///
/// The time axis spans exactly the earliest to the latest sample time (any `at` times included);
/// the progress axis always includes 0 and 1 and grows outwards to its ticks; the velocity axis
/// covers 0 and the velocities within `velocityCap` times the curve's average rate, which leaves
/// out the infinite-slope value (±`Double.greatestFiniteMagnitude`) and the steep samples beside
/// it, so that they cannot flatten the rest. Velocities beyond the axis are drawn on its edge.
struct CurvePlot: Sendable {
    static let width = 640.0, height = 400.0
    static let area = SVGRect(left: 72, top: 56, width: 488, height: 288)
    /// The velocity axis covers the velocities within this many times max(1, progress range) /
    /// time range.
    static let velocityCap = 100.0

    let time: SVGScale
    let progress: SVGScale
    let velocity: SVGScale
    /// How many samples' velocity lies beyond the velocity axis.
    let offScale: Int

    /// The scales for a sampled curve (one pass over its samples).
    init(_ response: CurveResponse) {
        let area = Self.area
        let times = response.request.times
        time = SVGScale(covering: times.min() ?? 0, times.max() ?? 0, from: area.left, to: area.right,
                        extendsToTicks: false)
        let p = response.progress
        progress = SVGScale(covering: Swift.min(0, p.min() ?? 0), Swift.max(1, p.max() ?? 1), from: area.bottom,
                            to: area.top, extendsToTicks: true)
        // max(1, progress range) / time range, on halves so that neither range overflows.
        let perSecond = Swift.max(0.5, progress.upper / 2 - progress.lower / 2) / (time.upper / 2 - time.lower / 2)
        let cap = Self.velocityCap * perSecond
        let limit = cap.isFinite ? cap : .greatestFiniteMagnitude / 2
        var low = 0.0, high = 0.0
        for v in response.velocity where v.magnitude <= limit {
            low = Swift.min(low, v)
            high = Swift.max(high, v)
        }
        velocity = SVGScale(covering: low, high, from: area.bottom, to: area.top, extendsToTicks: true)
        let (lower, upper) = (velocity.lower, velocity.upper)
        offScale = response.velocity.reduce(0) { $0 + ($1 < lower || $1 > upper ? 1 : 0) }
    }

    /// Everything but the two curves: heading, legend, note, grid, axes and reference lines.
    func decorations(title: String, into w: inout TextWriter) {
        let area = Self.area
        SVGPlot.text(title, x: 16, y: 22, className: "heading", into: &w)
        SVGPlot.legend([("progress", "progress"), ("velocity", "velocity (1/s)")], x: area.right - 110, y: 28,
                       into: &w)
        if offScale > 0 {
            SVGPlot.text("\(offScale) velocities beyond the axis, drawn at its edge", x: area.left, y: 44,
                         className: "note", into: &w)
        }
        SVGPlot.xAxis(time, in: area, title: "time (s)", into: &w)
        SVGPlot.yAxis(progress, in: area, side: .left, title: "progress", grid: true, into: &w)
        SVGPlot.yAxis(velocity, in: area, side: .right, title: "velocity (1/s)", grid: false, into: &w)
        SVGPlot.referenceLine(at: 0, progress, in: area, into: &w)
        SVGPlot.referenceLine(at: 1, progress, in: area, into: &w)
        SVGPlot.frame(area, into: &w)
        w.byte(0x0A)
    }
}

extension CurveResponse {
    /// `format=svg` (`image/svg+xml`, rule 27): a self-contained plot of progress and velocity
    /// against time, each one `<path>` through every sample in sample order; the `<title>` names
    /// the timing and the duration, the `<desc>` holds the normalised timing and the warnings.
    public func svg() -> SectionedBody {
        let plot = CurvePlot(self)
        let title = "\(request.timing.typeName) timing, duration \(SVGPlot.numberText(request.duration)) s"
        var description = ["timing " + String(decoding: request.timing.text, as: UTF8.self)]
        description += request.warnings.map { "warning \($0.pointer): \($0.detail)" }
        var head = TextWriter()
        SVGPlot.open(width: CurvePlot.width, height: CurvePlot.height, title: title, description: description,
                     style: ".progress{stroke:#1f63c6}.velocity{stroke:#d9731a;stroke-dasharray:6 2}", into: &head)
        plot.decorations(title: title, into: &head)
        let times = request.times, progress = progress, velocity = velocity
        var first = SVGPlot.path(className: "progress", count: times.count) { i in
            (plot.time.position(times[i]), plot.progress.position(progress[i]))
        }
        first.prefix = head.bytes + first.prefix
        var second = SVGPlot.path(className: "velocity", count: times.count) { i in
            (plot.time.position(times[i]), plot.velocity.position(velocity[i]))
        }
        second.suffix += SVGPlot.close
        return SectionedBody(sections: [first, second],
                             estimatedBytes: 4096 + 2 * times.count * SVGPlot.bytesPerVertex,
                             retainedBytes: retainedBytes)
    }
}
