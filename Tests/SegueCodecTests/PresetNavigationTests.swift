import XCTest
@testable import SegueCodec
import SegueJSON

/// Rule 47's navigation and modal presets (docs/presets.md) as scenarios: each rendered to JSON at
/// its start, halfway and its end, and every view read back from the answer — where it is, its
/// transform, alpha and corner radius — at the defaults and with its parameters changed.
extension PresetTests {
    /// The JSON render of `{"at": [0, end/2, end], "transition": {…}}`: view → channel → the three values.
    func rendered(_ preset: String, container: String = "[0, 0, 320, 568]", _ extra: String = "",
                  file: StaticString = #filePath, line: UInt = #line) throws -> (end: Double, views: [String: [String: [JSONValue]]]) {
        let transition = #""preset": "\#(preset)", "container": \#(container)"# + (extra.isEmpty ? "" : ", " + extra)
        let end = try XCTUnwrap(assertRenders(try json(#"{"transition": {\#(transition)}}"#), file: file, line: line)).scene.end
        let request = try XCTUnwrap(assertRenders(try json(#"{"at": [0, \#(end / 2), \#(end)], "transition": {\#(transition)}}"#),
                                                  file: file, line: line))
        let answer = try JSONReader.parse(try RenderResponse(request).json().bytes(), maxDepth: 64)
        XCTAssertEqual(member(answer, "duration"), .number(end), file: file, line: line)
        var views: [String: [String: [JSONValue]]] = [:]
        guard case .object(let byView)? = member(answer, "views") else {
            XCTFail("the answer has no views", file: file, line: line)
            return (end, [:])
        }
        for view in byView {
            guard case .object(let channels) = view.value else { continue }
            views[view.key] = Dictionary(uniqueKeysWithValues: channels.map { ($0.key, elements($0.value)) })
        }
        return (end, views)
    }

    /// The numbers of one channel at the start, halfway and the end.
    func numbers(_ views: [String: [String: [JSONValue]]], _ view: String, _ channel: String) throws -> [[Double]] {
        try XCTUnwrap(views[view]?[channel], "\(view).\(channel)").map { value in
            switch value {
            case .number(let number): return [number]
            case .array(let items): return items.map { if case .number(let n) = $0 { n } else { .nan } }
            default: return []
            }
        }
    }

    /// How far a quantity has gone from `start` toward `end` at the halfway frame.
    func progress(_ values: [[Double]], component: Int, from start: Double, to end: Double) -> Double {
        (values[1][component] - start) / (end - start)
    }

    func assertHalfwayOnACriticallyDampedSpring(_ p: Double, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        // dampingRatio 1: past half the distance at half the time, and never beyond the end.
        XCTAssertGreaterThan(p, 0.5, label, file: file, line: line)
        XCTAssertLessThan(p, 1, label, file: file, line: line)
    }

    func testPushSlidesTheNewViewInOverTheParallaxOfTheOld() throws {
        let (end, views) = try rendered("push")
        XCTAssertEqual(end, 0.5)
        let to = try numbers(views, "to", "frame"), from = try numbers(views, "from", "frame")
        let dim = try numbers(views, "dim", "alpha")
        XCTAssertEqual([to[0], from[0], dim[0]], [[320, 0, 320, 568], [0, 0, 320, 568], [0]], "start")
        XCTAssertEqual([to[2], from[2], dim[2]], [[0, 0, 320, 568], [-0.3 * 320, 0, 320, 568], [0.1]], "end")
        XCTAssertEqual(try numbers(views, "dim", "backgroundColor")[1], [0, 0, 0, 1], "a black dim view")
        XCTAssertEqual(try numbers(views, "dim", "frame")[1], [0, 0, 320, 568], "over the whole container")
        // Halfway, the three move on one spring: the same fraction of their way.
        let p = progress(to, component: 0, from: 320, to: 0)
        assertHalfwayOnACriticallyDampedSpring(p, "push")
        XCTAssertEqual(progress(from, component: 0, from: 0, to: -96), p, accuracy: 1e-9)
        XCTAssertEqual(dim[1][0] / 0.1, p, accuracy: 1e-9)
        XCTAssertEqual(Array(to[1][1...]), [0, 320, 568])
    }

    func testPopSlidesTheOldViewOutAndTheOneUnderneathBack() throws {
        let (end, views) = try rendered("pop", container: "[10, 20, 300, 500]")
        XCTAssertEqual(end, 0.5)
        let to = try numbers(views, "to", "frame"), from = try numbers(views, "from", "frame")
        let dim = try numbers(views, "dim", "alpha")
        XCTAssertEqual([from[0], to[0], dim[0]], [[10, 20, 300, 500], [10 - 0.3 * 300, 20, 300, 500], [0.1]], "start")
        XCTAssertEqual([from[2], to[2], dim[2]], [[310, 20, 300, 500], [10, 20, 300, 500], [0]], "end")
        let p = progress(from, component: 0, from: 10, to: 310)
        assertHalfwayOnACriticallyDampedSpring(p, "pop")
        XCTAssertEqual(progress(to, component: 0, from: -80, to: 10), p, accuracy: 1e-9)
        XCTAssertEqual(1 - dim[1][0] / 0.1, p, accuracy: 1e-9)
    }

    func testPushAndPopTakeTheirParameters() throws {
        let (end, views) = try rendered("push", #""duration": 0.4, "timing": "linear", "parallax": 0.5, "dimAlpha": 0.25"#)
        XCTAssertEqual(end, 0.4)
        XCTAssertEqual(try numbers(views, "from", "frame")[1], [-80, 0, 320, 568], "linear: half of 0.5 × 320 at half the time")
        XCTAssertEqual(try numbers(views, "to", "frame")[1], [160, 0, 320, 568])
        XCTAssertEqual(try numbers(views, "dim", "alpha"), [[0], [0.125], [0.25]])
        let bouncy = #""parallax": 0, "dimAlpha": 0, "timing": {"type": "spring", "dampingRatio": 0.5}"#
        let pop = try rendered("pop", bouncy).views
        XCTAssertEqual(try numbers(pop, "to", "frame").map { $0[0] }, [0, 0, 0], "no parallax: the view underneath stays")
        XCTAssertEqual(try numbers(pop, "dim", "alpha"), [[0], [0], [0]])
        // The given spring, not the default critically damped one: the popped view overshoots the edge.
        let request = try XCTUnwrap(assertRenders(try preset("pop", bouncy)))
        let path = try (0...100).map { try value(request, "from", "frame", at: Double($0) / 200)[0] }
        XCTAssertGreaterThan(path.max() ?? 0, 320, "an underdamped spring overshoots")
        let critical = try XCTUnwrap(assertRenders(try preset("pop")))
        XCTAssertLessThanOrEqual(try (0...100).map { try value(critical, "from", "frame", at: Double($0) / 200)[0] }.max() ?? 0, 320,
                                 "the default spring never overshoots")
    }

    func testCoverVerticalRisesAndFallsOverThePresentingView() throws {
        let (end, views) = try rendered("coverVertical")
        XCTAssertEqual(end, 0.5)
        let sheet = try numbers(views, "to", "frame")
        XCTAssertEqual(sheet[0], [0, 568, 320, 568], "wholly below the bottom edge")
        XCTAssertEqual(sheet[2], [0, 0, 320, 568])
        assertHalfwayOnACriticallyDampedSpring(progress(sheet, component: 1, from: 568, to: 0), "coverVertical")
        XCTAssertEqual(try numbers(views, "from", "frame"), Array(repeating: [0, 0, 320, 568], count: 3))

        let dismissal = try rendered("coverVerticalDismiss", container: "[0, 44, 320, 524]", #""duration": 0.3, "timing": "easeIn""#)
        XCTAssertEqual(dismissal.end, 0.3)
        let falling = try numbers(dismissal.views, "from", "frame")
        XCTAssertEqual([falling[0], falling[2]], [[0, 44, 320, 524], [0, 568, 320, 524]])
        XCTAssertLessThan(progress(falling, component: 1, from: 44, to: 568), 0.5, "easeIn: less than half way at half the time")
        XCTAssertEqual(try numbers(dismissal.views, "to", "frame")[1], [0, 44, 320, 524])
    }

    /// The drawn box of a view given by centre, bounds and transform [a, b, c, d, tx, ty] (no rotation).
    func drawnBox(_ centre: [Double], _ bounds: [Double], _ m: [Double]) -> [Double] {
        let (cx, cy) = (centre[0] + m[4], centre[1] + m[5]), (hw, hh) = (m[0] * bounds[2] / 2, m[3] * bounds[3] / 2)
        return [cx - hw, cy - hh, cx + hw, cy + hh]
    }

    func testPageSheetRaisesTheCardAndRecedesThePresentingView() throws {
        let (end, views) = try rendered("pageSheet")
        XCTAssertEqual(end, 0.5)
        let card = try numbers(views, "to", "frame"), radius = try numbers(views, "to", "cornerRadius")
        XCTAssertEqual([card[0], card[2]], [[0, 568, 320, 558], [0, 10, 320, 558]], "to 10 points below the top, down to the bottom")
        XCTAssertEqual(radius, [[10], [10], [10]])
        let transform = try numbers(views, "from", "transform"), corners = try numbers(views, "from", "cornerRadius")
        XCTAssertEqual([transform[0], corners[0]], [[1, 0, 0, 1, 0, 0], [0]])
        XCTAssertEqual(transform[2][0], 0.92, accuracy: 1e-12)
        XCTAssertEqual(transform[2][3], 0.92, accuracy: 1e-12)
        XCTAssertEqual(transform[2][4], 0, accuracy: 1e-12)
        XCTAssertEqual(transform[2][5], 10, accuracy: 1e-12)
        XCTAssertEqual(corners[2], [10])
        // Scaled about its centre and moved down by the inset: its box shrinks by 8 % around (160, 294).
        let centre = try numbers(views, "from", "center")[2], bounds = try numbers(views, "from", "bounds")[2]
        let box = drawnBox(centre, bounds, transform[2])
        for (got, want) in zip(box, [160 - 147.2, 294 - 261.28, 160 + 147.2, 294 + 261.28]) { XCTAssertEqual(got, want, accuracy: 1e-9) }
        // Halfway, one spring: the card, the scale, the inset and the corners at the same fraction.
        let p = progress(card, component: 1, from: 568, to: 10)
        assertHalfwayOnACriticallyDampedSpring(p, "pageSheet")
        XCTAssertEqual(corners[1][0] / 10, p, accuracy: 1e-9)
        XCTAssertEqual(transform[1][5] / 10, p, accuracy: 1e-9)
        XCTAssertEqual((1 - transform[1][0]) / 0.08, p, accuracy: 1e-9)
    }

    func testPageSheetDismissRestoresThePresentingViewWithTheirParameters() throws {
        let (end, views) = try rendered("pageSheetDismiss", container: "[0, 0, 400, 800]",
                                        #""duration": 0.6, "timing": "linear", "top": 50, "cornerRadius": 16, "scale": 0.8, "inset": 30"#)
        XCTAssertEqual(end, 0.6)
        XCTAssertEqual(try numbers(views, "from", "frame"), [[0, 50, 400, 750], [0, 425, 400, 750], [0, 800, 400, 750]])
        XCTAssertEqual(try numbers(views, "from", "cornerRadius"), [[16], [16], [16]])
        let transform = try numbers(views, "to", "transform")
        for (got, want) in zip(transform, [[0.8, 0, 0, 0.8, 0, 30], [0.9, 0, 0, 0.9, 0, 15], [1, 0, 0, 1, 0, 0]]) {
            for (a, b) in zip(got, want) { XCTAssertEqual(a, b, accuracy: 1e-12, "\(got)") }
        }
        XCTAssertEqual(try numbers(views, "to", "cornerRadius"), [[16], [8], [0]])
        XCTAssertEqual(try numbers(views, "to", "center")[0], [200, 400])
    }

    /// The expansions, written out: views bottom to top as rule 40 stacks them.
    func testNavigationExpansionsAreTheRequestsTheyDescribe() throws {
        let spring = #"{"type": "spring", "dampingRatio": 1}"#
        let push = try preset("push", container: "[10, 20, 300, 500]")
        try assertJSON(member(push, "views"), """
        {"from": {"frame": [10, 20, 300, 500]}, "dim": {"frame": [10, 20, 300, 500], "backgroundColor": [0, 0, 0, 1], "alpha": 0},
         "to": {"frame": [310, 20, 300, 500]}}
        """)
        try assertJSON(member(push, "animations"), """
        [{"id": "push", "view": "to", "duration": 0.5, "timing": \(spring), "to": {"frame": [10, 20, 300, 500]}},
         {"id": "parallax", "view": "from", "duration": 0.5, "timing": \(spring), "to": {"frame": [-80, 20, 300, 500]}},
         {"id": "dim", "view": "dim", "duration": 0.5, "timing": \(spring), "to": {"alpha": 0.1}}]
        """)
        let sheet = try preset("pageSheet", container: "[10, 20, 300, 500]")
        try assertJSON(member(sheet, "views"), """
        {"from": {"center": [160, 270], "bounds": [0, 0, 300, 500], "transform": {"translation": [0, 0], "scale": [1, 1]},
                  "cornerRadius": 0},
         "to": {"frame": [10, 520, 300, 490], "cornerRadius": 10}}
        """)
        try assertJSON(member(sheet, "animations"), """
        [{"id": "present", "view": "to", "duration": 0.5, "timing": \(spring), "to": {"frame": [10, 30, 300, 490]}},
         {"id": "recede", "view": "from", "duration": 0.5, "timing": \(spring),
          "to": {"transform": {"translation": [0, 10], "scale": [0.92, 0.92]}, "cornerRadius": 10}}]
        """)
    }

    func testNavigationCatalogueEntriesListTheirDefaults() throws {
        let spring: JSONValue = .object([.init("type", .string("spring")), .init("dampingRatio", .number(1))])
        let expected: [(String, [(String, JSONValue)])] = [
            ("push", [("duration", .number(0.5)), ("timing", spring), ("parallax", .number(0.3)), ("dimAlpha", .number(0.1))]),
            ("pop", [("duration", .number(0.5)), ("timing", spring), ("parallax", .number(0.3)), ("dimAlpha", .number(0.1))]),
            ("coverVertical", [("duration", .number(0.5)), ("timing", spring)]),
            ("coverVerticalDismiss", [("duration", .number(0.5)), ("timing", spring)]),
            ("pageSheet", [("duration", .number(0.5)), ("timing", spring), ("top", .number(10)), ("cornerRadius", .number(10)),
                           ("scale", .number(0.92)), ("inset", .number(10))]),
            ("pageSheetDismiss", [("duration", .number(0.5)), ("timing", spring), ("top", .number(10)), ("cornerRadius", .number(10)),
                                  ("scale", .number(0.92)), ("inset", .number(10))]),
        ]
        let presets = elements(member(Presets.catalogue, "presets"))
        for (name, defaults) in expected {
            let entry = try XCTUnwrap(presets.first { member($0, "name") == .string(name) }, name)
            let parameters = try XCTUnwrap(member(entry, "parameters"), name)
            XCTAssertEqual(keys(parameters), defaults.map(\.0), name)
            for (parameter, value) in defaults {
                XCTAssertEqual(member(member(parameters, parameter), "default"), value, "\(name).\(parameter)")
            }
        }
        let top = try XCTUnwrap(presets.first { member($0, "name") == .string("pageSheet") })
        guard case .string(let about)? = member(member(member(top, "parameters"), "top"), "description") else { return XCTFail("top") }
        XCTAssertTrue(about.contains("< h, the container's height"), about)
    }

    func testBadNavigationParametersAreProblemsAtTheParameter() {
        func transition(_ preset: String, _ extra: String) -> String {
            #"{"transition": {"preset": "\#(preset)", "container": [0, 0, 320, 568], \#(extra)}}"#
        }
        assertProblem(transition("push", #""parallax": 1.5"#), pointer: "/transition/parallax")
        assertProblem(transition("pop", #""parallax": -0.1"#), pointer: "/transition/parallax")
        assertProblem(transition("push", #""dimAlpha": 2"#), pointer: "/transition/dimAlpha")
        assertProblem(transition("push", #""parallax": "0.3""#), status: 400, pointer: "/transition/parallax")
        assertProblem(transition("pop", #""duration": 0"#), pointer: "/transition/duration")
        assertProblem(transition("coverVertical", #""timing": {"type": "spring", "response": 0.4, "dampingRatio": 1}"#),
                      pointer: "/transition/timing")
        assertProblem(transition("coverVerticalDismiss", #""parallax": 0.3"#), pointer: "/transition/parallax", mentions: "parallax")
        assertProblem(transition("pageSheet", #""scale": 0"#), pointer: "/transition/scale")
        assertProblem(transition("pageSheet", #""scale": 1.1"#), pointer: "/transition/scale")
        assertProblem(transition("pageSheet", #""top": -1"#), pointer: "/transition/top")
        assertProblem(transition("pageSheet", #""top": 568"#), pointer: "/transition/top", mentions: "container's height, 568")
        assertProblem(transition("pageSheetDismiss", #""cornerRadius": -2"#), pointer: "/transition/cornerRadius")
        assertProblem(transition("pageSheetDismiss", #""inset": 1e300"#), pointer: "/transition/inset")
        // The height bound is the request's container's: 568 is inside a taller one.
        XCTAssertNoThrow(try expand(#"{"transition": {"preset": "pageSheet", "container": [0, 0, 320, 600], "top": 568}}"#))
    }
}
