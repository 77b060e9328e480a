import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SegueEngine
import SegueJSON
import SegueTestSupport
import XCTest
@testable import SegueCodec

/// `format=svg` for curves and renders (docs/rules.md rules 27–28, docs/exports-svg.md): the
/// documents parse as XML, are self-contained, draw one path per curve or component through
/// every sample with coordinates that map back to the samples through the plot's own scales,
/// escape the user's text, and fail exactly where the JSON writer fails.
final class SVGExportTests: XCTestCase {
    // MARK: Curves

    func testSpringCurveIsOnePathPerCurveThroughEverySample() throws {
        let response = try curve(#"{"timing": {"type": "spring", "mass": 1, "stiffness": 170, "damping": 8}}"#)
        let count = response.request.times.count
        XCTAssertEqual(count, CurveRequest.defaultSamples)
        let (text, root) = try document(response.svg())
        try checkSelfContained(text, root)
        let plot = CurvePlot(response)
        let progress = try onlyPath(root, "progress"), velocity = try onlyPath(root, "velocity")
        XCTAssertEqual(root.all("path").count, 2)
        let progressVertices = try vertices(progress), velocityVertices = try vertices(velocity)
        XCTAssertEqual(progressVertices.count, count)
        XCTAssertEqual(velocityVertices.count, count)
        checkMapsBack(progressVertices, response.request.times, response.progress, plot.time, plot.progress)
        checkMapsBack(velocityVertices, response.request.times, response.velocity, plot.time, plot.velocity)
        for vertices in [progressVertices, velocityVertices] {
            XCTAssertTrue(zip(vertices, vertices.dropFirst()).allSatisfy { $0.x < $1.x }, "x increases with sorted times")
            XCTAssertEqual(vertices.first?.x, CurvePlot.area.left)
            XCTAssertEqual(vertices.last?.x, CurvePlot.area.right)
        }
        // This spring overshoots: the progress axis reaches past 1 and still holds 0 and 1.
        XCTAssertGreaterThan(response.progress.max() ?? 0, 1)
        XCTAssertLessThanOrEqual(plot.progress.lower, 0)
        XCTAssertGreaterThanOrEqual(plot.progress.upper, response.progress.max() ?? 0)
        XCTAssertEqual(plot.offScale, 0)
        checkReferenceLines(root, plot)
        let texts = root.all("text").map(\.text)
        XCTAssertTrue(texts.contains("time (s)"))
        XCTAssertTrue(texts.contains("progress"))
        XCTAssertTrue(texts.contains("velocity (1/s)"))
        // Tick labels in seconds along the bottom, and on both vertical axes.
        let ticks = root.all("text").filter { Double($0.text) != nil }
        XCTAssertGreaterThanOrEqual(ticks.filter { $0.attributes["text-anchor"] == "middle" }.count, 3)
        XCTAssertGreaterThanOrEqual(ticks.filter { $0.attributes["text-anchor"] == "end" }.count, 3)
        XCTAssertGreaterThanOrEqual(ticks.filter { $0.attributes["text-anchor"] == nil }.count, 3)
        XCTAssertEqual(root.first("title")?.text.hasPrefix("spring timing, duration "), true)
    }

    /// `at` times outside [0, 1], and the infinite slopes of a Bézier with x1 = 0 and x2 = 1
    /// (±greatestFiniteMagnitude): the x axis spans the times, and the sentinels and the steep
    /// sample near 0 are drawn on the velocity axis's edge while every sample keeps its vertex.
    func testBezierWithTimesOutsideTheUnitIntervalAndInfiniteSlopes() throws {
        let response = try curve("""
        {"timing": {"type": "cubicBezier", "p1": [0, 0.8], "p2": [1, 0.2]},
         "at": [-0.5, -0.25, 0, 1e-6, 0.1, 0.3, 0.5, 0.7, 0.9, 1, 1.25, 1.5]}
        """)
        let times = response.request.times
        XCTAssertEqual(response.velocity[2], .greatestFiniteMagnitude)
        XCTAssertEqual(response.velocity[9], .greatestFiniteMagnitude)
        let (text, root) = try document(response.svg())
        try checkSelfContained(text, root)
        let plot = CurvePlot(response)
        XCTAssertEqual(plot.time.lower, -0.5)
        XCTAssertEqual(plot.time.upper, 1.5)
        let progress = try vertices(onlyPath(root, "progress")), velocity = try vertices(onlyPath(root, "velocity"))
        XCTAssertEqual(progress.count, times.count)
        XCTAssertEqual(velocity.count, times.count)
        // 0 and 1e-6 s are the same x once rounded to hundredths; the others are apart.
        XCTAssertTrue(zip(progress, progress.dropFirst()).allSatisfy { $0.x <= $1.x })
        XCTAssertEqual(Set(progress.map(\.x)).count, times.count - 1)
        checkMapsBack(progress, times, response.progress, plot.time, plot.progress)
        checkMapsBack(velocity, times, response.velocity, plot.time, plot.velocity)
        // The sentinels at 0 and 1 and the slope of about 700/s at 1e-6 s are off the axis, which
        // holds every other velocity and is not stretched by the three.
        XCTAssertEqual(plot.offScale, 3)
        XCTAssertGreaterThan(response.velocity[3], 500)
        XCTAssertLessThan(plot.velocity.upper, 10)
        for i in [2, 3, 9] { XCTAssertEqual(velocity[i].y, CurvePlot.area.top) }
        for i in times.indices where ![2, 3, 9].contains(i) {
            XCTAssertTrue((plot.velocity.lower...plot.velocity.upper).contains(response.velocity[i]),
                          "\(response.velocity[i]) at \(times[i]) beyond \(plot.velocity)")
        }
        XCTAssertTrue(root.all("text").contains { $0.text == "3 velocities beyond the axis, drawn at its edge" })
        checkReferenceLines(root, plot)
    }

    /// Unsorted `at` times are drawn in sample order, each vertex at its own time.
    func testUnsortedTimesKeepSampleOrder() throws {
        let response = try curve(#"{"timing": "easeInOut", "duration": 2, "at": [1.5, 0, 3, 0.5, -1]}"#)
        let (_, root) = try document(response.svg())
        let plot = CurvePlot(response)
        let progress = try vertices(onlyPath(root, "progress"))
        XCTAssertEqual(progress.map(\.command), ["M", "L", "L", "L", "L"])
        XCTAssertEqual(progress[4].x, CurvePlot.area.left)
        XCTAssertEqual(progress[2].x, CurvePlot.area.right)
        checkMapsBack(progress, response.request.times, response.progress, plot.time, plot.progress)
    }

    func testCurveBytesAreDeterministicAndTheEstimateIsNear() throws {
        let response = try curve(#"{"timing": "ease", "samples": 5000}"#)
        let body = response.svg()
        let bytes = try body.bytes()
        XCTAssertEqual(bytes, try response.svg().bytes())
        XCTAssertEqual(bytes, try streamed(body))
        XCTAssertLessThan(abs(Double(bytes.count - body.estimatedBytes)), 0.5 * Double(bytes.count))
    }

    // MARK: Renders

    static let renderJSON = """
    {"fps": 10,
     "views": {"card": {"frame": [0, 0, 100, 50], "transform": {"rotation": 0}, "backgroundColor": [1, 0, 0, 1],
                        "tint": [1, 2, 3]},
               "a<&\\"b'": {"alpha": 1, "x<&>": 5}},
     "animations": [{"id": "present", "view": "card", "duration": 1, "timing": "easeInOut",
                     "to": {"frame": [0, 200, 100, 50], "transform": {"rotation": 1}, "backgroundColor": [0, 0, 1, 1],
                            "tint": [3, 2, 1]}},
                    {"id": "fade<&>", "view": "a<&\\"b'", "duration": 0.5, "timing": "linear", "to": {"alpha": 0}}],
     "commands": [{"at": 0.3, "animation": "present", "op": "pause"}, {"at": 0.5, "animation": "present", "op": "start"}]}
    """

    func testRenderHasAPanelPerChannelAndAPathPerComponentThroughEveryFrame() throws {
        let request = try render(Self.renderJSON)
        let frames = request.times.count
        let response = try RenderResponse(request)
        let (text, root) = try document(response.svg())
        try checkSelfContained(text, root)
        let plot = RenderPlot(request, response.samples)
        let panels = root.all("g").filter { $0.hasClass("panel") }
        let expected: [(title: String, legend: [String])] = [
            ("card.frame", ["x", "y", "w", "h"]), ("card.transform", ["a", "b", "c", "d", "tx", "ty"]),
            ("card.backgroundColor", ["r", "g", "b", "a"]), ("card.tint", ["0", "1", "2"]),
            ("a<&\"b'.alpha", ["alpha"]), ("a<&\"b'.x<&>", ["x<&>"]),
        ]
        XCTAssertEqual(panels.count, expected.count)
        XCTAssertEqual(plot.panels.count, expected.count)
        for (index, (panel, layout)) in zip(zip(panels, expected), plot.panels).enumerated() {
            let (group, want) = panel
            XCTAssertEqual(group.all("text").first { $0.hasClass("heading") }?.text, want.title)
            XCTAssertEqual(group.all("line").filter { $0.hasClass("swatch") }.count, want.legend.count)
            let paths = group.all("path")
            XCTAssertEqual(paths.count, want.legend.count)
            for (component, path) in paths.enumerated() {
                XCTAssertTrue(path.hasClass("c\(component % 6)"))
                // The legend names the component with the trace's own class.
                let swatch = group.all("line").filter { $0.hasClass("swatch") }[component]
                XCTAssertEqual(swatch.attributes["class"], "swatch " + (path.attributes["class"] ?? ""))
                XCTAssertTrue(group.all("text").contains { $0.text == want.legend[component] })
                let points = try vertices(path)
                XCTAssertEqual(points.count, frames)
                XCTAssertTrue(zip(points, points.dropFirst()).allSatisfy { $0.x < $1.x })
                let values = try request.times.map { try request.scene.finiteValue(index, at: $0).numbers[component] }
                checkMapsBack(points, request.times, values, plot.time, layout.values)
                XCTAssertTrue(points.allSatisfy { $0.y >= layout.area.top && $0.y <= layout.area.bottom })
            }
        }
        // The constant custom scalar draws across the middle of its panel, not on an edge.
        let constant = try vertices(XCTUnwrap(panels.last?.all("path").first))
        let area = plot.panels[5].area
        XCTAssertTrue(constant.allSatisfy { abs($0.y - (area.top + area.bottom) / 2) < 1 })
        XCTAssertTrue(root.all("text").contains { $0.text == "time (s)" })
    }

    func testEventsAreLabelledVerticalMarks() throws {
        let request = try render(Self.renderJSON)
        let response = try RenderResponse(request)
        let (_, root) = try document(response.svg())
        let plot = RenderPlot(request, response.samples)
        let marks = root.all("g").filter { $0.hasClass("event") }
        let events = request.scene.events
        XCTAssertGreaterThanOrEqual(events.count, 5)
        XCTAssertEqual(marks.count, events.count)
        for (mark, event) in zip(marks, events) {
            let label = event.event.kind.rawValue + " " + request.scene.animators[event.animation].id
            XCTAssertEqual(mark.all("text").map(\.text), [label])
            let line = try XCTUnwrap(mark.all("line").first)
            XCTAssertEqual(line.attributes["x1"], line.attributes["x2"])
            let x = try XCTUnwrap(Double(line.attributes["x1"] ?? ""))
            XCTAssertEqual(plot.time.value(at: x), event.event.t, accuracy: tolerance(plot.time))
            XCTAssertLessThan(try XCTUnwrap(Double(line.attributes["y1"] ?? "")), plot.panels[0].top)
            XCTAssertGreaterThan(try XCTUnwrap(Double(line.attributes["y2"] ?? "")), plot.panels[5].area.bottom)
        }
        let labels = marks.flatMap { $0.all("text") }.map(\.text)
        XCTAssertTrue(labels.contains("start present"))
        XCTAssertTrue(labels.contains("pause present"))
        XCTAssertTrue(labels.contains("start fade<&>"))
    }

    func testUserTextIsEscaped() throws {
        let request = try render(Self.renderJSON)
        let text = String(decoding: try RenderResponse(request).svg().bytes(), as: UTF8.self)
        XCTAssertTrue(text.contains("a&lt;&amp;&quot;b&#39;.x&lt;&amp;&gt;"))
        XCTAssertTrue(text.contains("start fade&lt;&amp;&gt;"))
        XCTAssertFalse(text.contains("a<&"))
        XCTAssertFalse(text.contains("fade<"))
        XCTAssertFalse(text.contains("x<&>"))
        // Characters XML cannot carry become U+FFFD rather than breaking the document.
        var w = TextWriter()
        SVGPlot.escaped("a\u{1}b\u{FFFF}c\td", into: &w)
        XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), "a\u{FFFD}b\u{FFFD}c\td")
    }

    func testRenderWithoutViewsIsAValidDocumentWithANote() throws {
        let request = try render(#"{"views": {}}"#)
        let (text, root) = try document(RenderResponse(request).svg())
        try checkSelfContained(text, root)
        XCTAssertTrue(root.all("path").isEmpty)
        XCTAssertTrue(root.all("text").contains { $0.text == "no view channels to plot" })
    }

    /// The generated extreme requests of NonFinitePropertyTests: every curve and render the JSON
    /// writer answers gives a well-formed, finite SVG, and every render it refuses while writing
    /// the SVG writer refuses with the same problem.
    func testExtremeRequestsGiveFiniteDocumentsOrTheTextWritersProblem() throws {
        var g = Generator(rng: SplitMix64(seed: 0x5E6E_5736))
        var drawn = 0, refused = 0
        for _ in 0..<150 {
            let json = g.curveRequest()
            guard let response = try? curve(json) else { continue }
            try checkFinite(response.svg().bytes(), json)
            drawn += 1
        }
        for _ in 0..<150 {
            let json = g.renderRequest()
            guard let request = try? render(json) else { continue }
            // JSON and SVG write the same samples: a render that samples is drawn.
            guard let response = try? RenderResponse(request) else {
                refused += 1
                continue
            }
            try checkFinite(response.svg().bytes(), json)
            drawn += 1
        }
        XCTAssertGreaterThan(drawn, 60)
        XCTAssertGreaterThan(refused, 0)
    }

    // MARK: The plot's pieces

    /// A plot is counted at twice the render's work (`checkPlotWork`): a budget that admits the JSON
    /// body but not its plot refuses the plot with a 413 naming it, before any drawing; twice the
    /// render's work admits it.
    func testAPlotOverTheBudgetIsRefusedBeforeItIsDrawn() throws {
        let request = try render(Self.renderJSON)
        let plotWork = request.work + SceneCost.render(request.scene, frames: request.times.count, velocities: false)
        var limits = Limits()
        limits.maxWork = Int(request.work.rounded(.up))
        XCTAssertLessThan(request.work, plotWork)
        XCTAssertThrowsError(try RenderResponse.checkPlotWork(request, limits: limits)) { error in
            let problem = error as? Problem
            XCTAssertEqual(problem?.status, 413)
            XCTAssertTrue(problem?.detail.hasPrefix("plotting the \(request.times.count) frames of this render: ") == true,
                          problem?.detail ?? "")
        }
        limits.maxWork = Int(plotWork.rounded(.up))
        XCTAssertNoThrow(try RenderResponse.checkPlotWork(request, limits: limits))
    }

    func testScalesChooseNiceTicksAndPadFlatRanges() {
        let unit = SVGScale(covering: 0, 1, from: 0, to: 100, extendsToTicks: true)
        XCTAssertEqual(unit.ticks, [0, 0.2, 0.4, 0.6000000000000001, 0.8, 1])
        XCTAssertEqual(unit.ticks.map { SVGPlot.tickLabel($0, unit) }, ["0", "0.2", "0.4", "0.6", "0.8", "1"])
        let short = SVGScale(covering: 0.013, 0.287, from: 0, to: 100, extendsToTicks: true)
        XCTAssertEqual(short.step, 0.1)
        XCTAssertEqual(short.lower, 0)
        XCTAssertEqual(short.upper, 0.30000000000000004)
        let exact = SVGScale(covering: 0.013, 0.287, from: 0, to: 100, extendsToTicks: false)
        XCTAssertEqual(exact.position(0.013), 0)
        XCTAssertEqual(exact.position(0.287), 100)
        let flat = SVGScale(covering: 5, 5, from: 200, to: 100, extendsToTicks: true)
        XCTAssertEqual(flat.position(5), 150, accuracy: 1e-9)
        XCTAssertLessThan(flat.lower, 5)
        let huge = SVGScale(covering: -.greatestFiniteMagnitude, .greatestFiniteMagnitude, from: 0, to: 100,
                            extendsToTicks: true)
        XCTAssertEqual(huge.position(0), 50, accuracy: 1e-9)
        XCTAssertEqual(huge.position(.greatestFiniteMagnitude), 100)
        XCTAssertFalse(huge.ticks.isEmpty)
        XCTAssertEqual(SVGScale(covering: 0, 1, from: 0, to: 10, extendsToTicks: true).position(3), 10)
    }

    func testCoordinatesAreRoundedToTwoDecimals() {
        var w = TextWriter()
        for value in [1.0 / 3, 2.675, -0.001, 1234.5678, 12, 0.1 + 0.2] {
            SVGPlot.coordinate(value, into: &w)
            w.byte(0x20)
        }
        XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), "0.33 2.68 0 1234.57 12 0.3 ")
    }

    // MARK: Helpers

    func curve(_ json: String) throws -> CurveResponse {
        try CurveResponse(CurveRequest.decode(RequestDocument.parse(Array(json.utf8), limits: Limits()), limits: Limits()))
    }

    func render(_ json: String) throws -> RenderRequest {
        try RenderRequest.decode(RequestDocument.parse(Array(json.utf8), limits: Limits()), limits: Limits())
    }

    /// The body's bytes as text and as a parsed tree.
    func document(_ body: SectionedBody, file: StaticString = #filePath, line: UInt = #line) throws -> (String, SVGNode) {
        let bytes = try body.bytes()
        return (String(decoding: bytes, as: UTF8.self), try SVGNode.parse(bytes, file: file, line: line))
    }

    /// The body written piece by piece, as the transport streams it.
    func streamed(_ body: SectionedBody) throws -> [UInt8] {
        var cursor = SectionedBody.Cursor(), w = TextWriter(), pieces = 0
        while try body.writeNext(&cursor, into: &w) { pieces += 1 }
        XCTAssertGreaterThan(pieces, 2)
        return w.bytes
    }

    /// No external resource or script; the SVG namespace, a viewBox of four numbers and a title.
    func checkSelfContained(_ text: String, _ root: SVGNode, file: StaticString = #filePath, line: UInt = #line) throws {
        let lowered = text.lowercased()
        for forbidden in ["href", "url(", "<image", "<script", "@import", "<foreignobject", "javascript:"] {
            XCTAssertFalse(lowered.contains(forbidden), "contains \(forbidden)", file: file, line: line)
        }
        XCTAssertEqual(root.name, "svg", file: file, line: line)
        XCTAssertTrue(text.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox=""#), file: file, line: line)
        let box = try XCTUnwrap(root.attributes["viewBox"], file: file, line: line).split(separator: " ").compactMap { Double($0) }
        XCTAssertEqual(box.count, 4, file: file, line: line)
        XCTAssertEqual(Array(box.prefix(2)), [0, 0], file: file, line: line)
        XCTAssertFalse(try XCTUnwrap(root.first("title"), file: file, line: line).text.isEmpty, file: file, line: line)
    }

    /// A well-formed document whose every path vertex is a finite point within the viewBox.
    func checkFinite(_ bytes: [UInt8], _ json: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let root = try SVGNode.parse(bytes, file: file, line: line)
        let box = (root.attributes["viewBox"] ?? "").split(separator: " ").compactMap { Double($0) }
        XCTAssertEqual(box.count, 4, json, file: file, line: line)
        for path in root.all("path") {
            for vertex in try vertices(path) {
                XCTAssertTrue((0...box[2]).contains(vertex.x) && (0...box[3]).contains(vertex.y),
                              "\(vertex) outside the viewBox for \(json)", file: file, line: line)
            }
        }
        let numeric = ["viewBox", "x", "y", "x1", "y1", "x2", "y2", "width", "height", "d", "transform"]
        for node in root.all(where: { _ in true }) {
            for name in numeric {
                guard let value = node.attributes[name] else { continue }
                XCTAssertFalse(value.contains("nan") || value.contains("inf"), "\(name)=\(value) for \(json)", file: file, line: line)
            }
            if let number = Double(node.text) { XCTAssertTrue(number.isFinite, "\(node.text) for \(json)", file: file, line: line) }
        }
    }

    /// The one `<path>` of a class (legend swatches are `<line>`s).
    func onlyPath(_ root: SVGNode, _ className: String) throws -> SVGNode {
        let paths = root.all("path").filter { $0.hasClass(className) }
        XCTAssertEqual(paths.count, 1, className)
        return try XCTUnwrap(paths.first)
    }

    /// The dashed reference lines sit at progress 0 and 1.
    func checkReferenceLines(_ root: SVGNode, _ plot: CurvePlot, file: StaticString = #filePath, line: UInt = #line) {
        let references = root.all("line").filter { $0.hasClass("ref") }
        XCTAssertEqual(references.count, 2, file: file, line: line)
        let ys = references.compactMap { $0.attributes["y1"].flatMap(Double.init) }.map { plot.progress.value(at: $0) }
        XCTAssertEqual(ys.count, 2, file: file, line: line)
        XCTAssertEqual(ys.first ?? .nan, 0, accuracy: tolerance(plot.progress), file: file, line: line)
        XCTAssertEqual(ys.last ?? .nan, 1, accuracy: tolerance(plot.progress), file: file, line: line)
    }

    /// Each vertex reads back, through the plot's scales, as its time and value (a value beyond
    /// the axis as the axis's edge), within the rounding of coordinates to two decimals.
    func checkMapsBack(_ vertices: [Vertex], _ times: [Double], _ values: [Double], _ x: SVGScale, _ y: SVGScale,
                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(vertices.count, values.count, file: file, line: line)
        for (i, vertex) in zip(vertices.indices, vertices) where i < values.count {
            XCTAssertEqual(vertex.command, i == 0 ? "M" : "L", file: file, line: line)
            XCTAssertEqual(x.value(at: vertex.x), times[i], accuracy: tolerance(x), "time \(i)", file: file, line: line)
            let clamped = min(max(values[i], y.lower), y.upper)
            XCTAssertEqual(y.value(at: vertex.y), clamped, accuracy: tolerance(y), "value \(i)", file: file, line: line)
        }
    }

    /// Half a hundredth of a unit of the drawing, in the scale's data units.
    func tolerance(_ scale: SVGScale) -> Double {
        0.005 * (scale.upper - scale.lower) / abs(scale.end - scale.start) * (1 + 1e-9) + 1e-12
    }

    struct Vertex: CustomStringConvertible {
        var command: Character
        var x: Double
        var y: Double
        var description: String { "\(command)\(x) \(y)" }
    }

    /// The vertices of a path's `d`, which the writer spells `Mx yLx y…`.
    func vertices(_ path: SVGNode) throws -> [Vertex] {
        let d = try XCTUnwrap(path.attributes["d"])
        var result: [Vertex] = []
        var command: Character?, token = ""
        func flush() throws {
            guard let command else { return }
            let numbers = token.split(separator: " ").map { Double($0) }
            XCTAssertEqual(numbers.count, 2, "vertex `\(command)\(token)`")
            result.append(Vertex(command: command, x: try XCTUnwrap(numbers.first ?? nil), y: try XCTUnwrap(numbers.last ?? nil)))
        }
        for character in d {
            if character == "M" || character == "L" {
                try flush()
                command = character
                token = ""
            } else {
                token.append(character)
            }
        }
        try flush()
        return result
    }
}

/// A parsed XML element: its name, attributes, children and text.
final class SVGNode {
    let name: String
    let attributes: [String: String]
    var children: [SVGNode] = []
    var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// This element and its descendants named `name`, in document order.
    func all(_ name: String) -> [SVGNode] { all { $0.name == name } }

    /// This element and its descendants that pass `test`, in document order.
    func all(where test: (SVGNode) -> Bool) -> [SVGNode] {
        (test(self) ? [self] : []) + children.flatMap { $0.all(where: test) }
    }

    func first(_ name: String) -> SVGNode? { all(name).first }

    func hasClass(_ name: String) -> Bool {
        (attributes["class"] ?? "").split(separator: " ").contains { $0 == name }
    }

    /// Parses a document with Foundation's XMLParser, failing the test when it is not well formed.
    static func parse(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> SVGNode {
        let parser = XMLParser(data: Data(bytes))
        let builder = Builder()
        parser.delegate = builder
        XCTAssertTrue(parser.parse(), "not well-formed XML: \(String(describing: parser.parserError))", file: file, line: line)
        return try XCTUnwrap(builder.root, file: file, line: line)
    }

    final class Builder: NSObject, XMLParserDelegate {
        var stack: [SVGNode] = []
        var root: SVGNode?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            let node = SVGNode(name: elementName, attributes: attributeDict)
            stack.last?.children.append(node)
            if root == nil { root = node }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }
}
