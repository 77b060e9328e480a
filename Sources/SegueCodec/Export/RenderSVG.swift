import SegueEngine
import SegueJSON

/// The layout of a render's `format=svg` plot (rule 28, docs/exports-svg.md): one panel per view
/// channel, stacked, sharing one time axis, with the events as vertical marks across them all.
///
/// The time axis spans the earliest to the latest of the frame and event times. Each panel's
/// value axis covers its channel's finite numbers over every frame and grows outwards to its
/// ticks; a constant channel gets a padded range (see `SVGScale`), so it draws across the middle.
struct RenderPlot: Sendable {
    static let width = 760.0
    static let plotLeft = 72.0, plotWidth = 500.0, legendX = 592.0
    /// Rows of event labels under the heading; label i sits in row i mod `eventRows`.
    static let eventRows = 3
    /// The top of the first panel: below the heading and the rows of event labels.
    static let panelsTop = 84.0

    /// One channel's panel.
    struct Panel: Sendable {
        /// The index of the channel in `scene.channels`.
        let channel: Int
        /// The top of the panel (its title line) and its plot area.
        let top: Double
        let area: SVGRect
        let values: SVGScale
        /// The components' legend names, in the channel's number order.
        let names: [String]
    }

    let time: SVGScale
    let panels: [Panel]
    /// The drawing's height: the panels and the time axis's title under the last one.
    let height: Double

    /// The layout of a render from its samples: each panel's value axis covers its column.
    init(_ request: RenderRequest, _ samples: SceneSamples) {
        let scene = request.scene
        var first = request.times.first ?? 0, last = request.times.last ?? 0
        for event in scene.events {
            first = Swift.min(first, event.event.t)
            last = Swift.max(last, event.event.t)
        }
        time = SVGScale(covering: first, last, from: Self.plotLeft, to: Self.plotLeft + Self.plotWidth,
                        extendsToTicks: false)
        var top = Self.panelsTop
        var panels: [Panel] = []
        // Views in stacking order (rule 40), bottom first as the JSON's `stacking`; a view's channels
        // in the order they come.
        let layer = scene.stackingPositions
        let order = scene.channels.indices.sorted { (layer[scene.channels[$0].view] ?? 0, $0) < (layer[scene.channels[$1].view] ?? 0, $1) }
        for index in order {
            let channel = scene.channels[index]
            let names = channel.kind.columns(for: channel.name).map { $0.isEmpty ? channel.name : String($0.dropFirst()) }
            let area = SVGRect(left: Self.plotLeft, top: top + 22, width: Self.plotWidth,
                               height: Swift.max(120, Double(names.count) * 14 + 8))
            let (low, high) = Self.range(samples.values[index].numbers)
            panels.append(Panel(channel: index, top: top, area: area,
                                values: SVGScale(covering: low, high, from: area.bottom, to: area.top, extendsToTicks: true),
                                names: names))
            top = area.bottom + 30
        }
        self.panels = panels
        height = panels.isEmpty ? Self.panelsTop + 40 : top + 20
    }

    /// The least and greatest number of a channel's column (0 and 0 when it is empty).
    static func range(_ numbers: [Double]) -> (Double, Double) {
        guard let low = numbers.min(), let high = numbers.max() else { return (0, 0) }
        return (low, high)
    }

    /// The trace colours: component i has class `c(i mod 6)`, dashed (`alt`) in its second six.
    static let style: StaticString = """
        .c0{stroke:#1f63c6}.c1{stroke:#d62728}.c2{stroke:#2ca02c}.c3{stroke:#e08a10}.c4{stroke:#9467bd}\
        .c5{stroke:#8c564b}.alt{stroke-dasharray:5 3}.mark{stroke:#7a3ea8;stroke-dasharray:2 2}\
        .event text{fill:#7a3ea8;font-size:10px}
        """

    static func traceClass(_ component: Int) -> String {
        "c\(component % 6)" + (component / 6 % 2 == 1 ? " alt" : "")
    }

    /// The event marks, one element each: `<g class="event">` holding a dashed vertical line
    /// across every panel and a label "<type> <animation id>" in the rows under the heading.
    func events(_ r: RenderRequest, prefix: [UInt8]) -> SectionedBody.Section {
        let scene = r.scene, time = time, bottom = height - 8
        return SectionedBody.Section(prefix: prefix, count: scene.events.count, suffix: [0x0A]) { w, i in
            let event = scene.events[i], x = time.position(event.event.t)
            w.raw("<g class=\"event\">")
            SVGPlot.line(x, 30, x, bottom, className: "mark", into: &w)
            SVGPlot.text(event.event.kind.rawValue + " " + scene.animators[event.animation].id, x: x + 3,
                         y: 40 + 13 * Double(i % Self.eventRows), into: &w)
            w.raw("</g>")
        }
    }

    /// A panel's sections: its group, title, grid, axes and legend, then one path per component
    /// through every frame's sample.
    func sections(_ panel: Panel, _ r: RenderRequest, _ samples: SceneSamples, isLast: Bool) -> [SectionedBody.Section] {
        let channel = r.scene.channels[panel.channel]
        var open = TextWriter()
        open.raw("<g class=\"panel\">")
        SVGPlot.text(channel.view + "." + channel.name, x: panel.area.left, y: panel.top + 14, className: "heading",
                     into: &open)
        SVGPlot.xAxis(time, in: panel.area, title: isLast ? "time (s)" : nil, into: &open)
        SVGPlot.yAxis(panel.values, in: panel.area, side: .left, title: nil, grid: true, into: &open)
        SVGPlot.frame(panel.area, into: &open)
        SVGPlot.legend(panel.names.indices.map { (Self.traceClass($0), panel.names[$0]) }, x: Self.legendX,
                       y: panel.area.top + 10, into: &open)
        var sections = [SectionedBody.Section(prefix: open.bytes)]
        let time = time, values = panel.values, column = samples.values[panel.channel], times = samples.times
        for component in panel.names.indices {
            sections.append(SVGPlot.path(className: Self.traceClass(component), count: times.count) { k in
                (time.position(times[k]), values.position(column.numbers[k * column.width + component]))
            })
        }
        sections[sections.count - 1].suffix += Array("</g>\n".utf8)
        return sections
    }
}

extension RenderResponse {
    /// `format=svg` (`image/svg+xml`, rule 28): a self-contained plot with one panel per view
    /// channel (titled `view.channel`), one `<path>` per component through every frame, a legend
    /// naming the components, the shared time axis in seconds and the events as labelled marks.
    /// The `<desc>` holds the warnings. Written from the samples, like `json()`; without any
    /// channel it is a valid drawing with a note.
    public func svg() -> SectionedBody {
        let r = request, plot = RenderPlot(r, samples)
        let title = "render: \(r.scene.channels.count) view channels, \(r.times.count) frames, "
            + "end \(SVGPlot.numberText(r.scene.end)) s"
        var head = TextWriter()
        SVGPlot.open(width: RenderPlot.width, height: plot.height, title: title,
                     description: r.warnings.map { "warning \($0.pointer): \($0.detail)" }, style: RenderPlot.style,
                     into: &head)
        SVGPlot.text(title, x: 16, y: 22, className: "heading", into: &head)
        if plot.panels.isEmpty {
            SVGPlot.text("no view channels to plot", x: RenderPlot.plotLeft, y: RenderPlot.panelsTop + 14,
                         className: "note", into: &head)
        }
        var sections = [plot.events(r, prefix: head.bytes)]
        for panel in plot.panels {
            sections += plot.sections(panel, r, samples, isLast: panel.channel == plot.panels.count - 1)
        }
        sections.append(.init(prefix: SVGPlot.close))
        let numbers = r.scene.channels.reduce(0) { $0 + $1.kind.width } * r.times.count
        var body = SectionedBody(sections: sections,
                                 estimatedBytes: 4096 + numbers * SVGPlot.bytesPerVertex + plot.panels.count * 2048
                                     + r.scene.events.count * 160,
                                 retainedBytes: samples.retainedBytes + plot.panels.count * MemoryLayout<RenderPlot.Panel>.stride)
        body.cancellation = r.cancellation
        return body
    }
}

extension RenderResponse {
    /// Refuses (413) a plot whose work is over the limit, before any sampling: the plot samples
    /// like the JSON body, then writes two coordinates per vertex where JSON prints one number —
    /// at most `plotPasses` times the JSON body's work.
    public static func checkPlotWork(_ request: RenderRequest, limits: Limits) throws(Problem) {
        let frames = request.times.count
        let extra = (plotPasses - 1) * SceneCost.render(request.scene, frames: frames, velocities: false)
        try Check.work(request.work + extra, limits: limits, what: "plotting the \(frames) frames of this render")
    }

    static let plotPasses = 2.0
}
