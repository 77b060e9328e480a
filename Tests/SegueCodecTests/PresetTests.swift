import Foundation
import XCTest
@testable import SegueCodec
import SegueJSON

/// Transition presets (docs/rules.md "Presets", rule 25): each expansion is checked against the
/// request written out here from the preset's parameters, and the catalogue against `expand`.
final class PresetTests: XCTestCase {
    static let names = ["bouncePresent", "slideDismiss", "zoomPush", "zoomPop", "dropDismiss", "crossDissolve",
                        "swipeUpDismiss", "pane", "push", "pop", "coverVertical", "coverVerticalDismiss", "pageSheet",
                        "pageSheetDismiss"]

    func json(_ text: String) throws -> JSONValue { try JSONReader.parse(Array(text.utf8), maxDepth: 64) }

    func expand(_ text: String) throws -> JSONValue { try Presets.expand(json(text)) }

    /// The expansion of `{"transition": {"preset": name, "container": container, …extra}}`.
    func preset(_ name: String, container: String = "[0, 0, 320, 568]", _ extra: String = "") throws -> JSONValue {
        try expand(#"{"transition": {"preset": "\#(name)", "container": \#(container)\#(extra.isEmpty ? "" : ", " + extra)}}"#)
    }

    func problem(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Problem? {
        do {
            let expanded = try expand(text)
            XCTFail("expected a problem, got \(String(decoding: expanded.bytes, as: UTF8.self))", file: file, line: line)
            return nil
        } catch let problem as Problem {
            return problem
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    func assertProblem(_ text: String, status: Int = 422, pointer: String, mentions: String? = nil,
                       file: StaticString = #filePath, line: UInt = #line) {
        guard let problem = problem(text, file: file, line: line) else { return }
        XCTAssertEqual(problem.status, status, problem.detail, file: file, line: line)
        XCTAssertEqual(problem.pointer, pointer, problem.detail, file: file, line: line)
        if let mentions {
            XCTAssertTrue(problem.detail.contains(mentions), "\(problem.detail) should name \(mentions)", file: file, line: line)
        }
    }

    func keys(_ value: JSONValue) -> [String] {
        guard case .object(let members) = value else { return [] }
        return members.map(\.key)
    }

    func member(_ value: JSONValue?, _ key: String) -> JSONValue? {
        guard case .object(let members)? = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    func elements(_ value: JSONValue?) -> [JSONValue] {
        guard case .array(let elements)? = value else { return [] }
        return elements
    }

    func text(_ value: JSONValue) -> String { String(decoding: value.bytes, as: UTF8.self) }

    /// The `quoted` names in a text, in order.
    func backticked(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    func assertJSON(_ got: JSONValue?, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let want = try json(expected)
        XCTAssertEqual(got, want, "\(got.map(text) ?? "nil") ≠ \(text(want))", file: file, line: line)
    }

    /// Decodes an expansion with the render decoder: every expansion is a valid render request.
    @discardableResult
    func assertRenders(_ expanded: JSONValue, file: StaticString = #filePath, line: UInt = #line) -> RenderRequest? {
        do {
            let request = try RenderRequest.decode(expanded, limits: Limits())
            XCTAssertFalse(request.times.isEmpty, file: file, line: line)
            return request
        } catch {
            XCTFail("\(error.detail) at \(error.pointer ?? "")", file: file, line: line)
            return nil
        }
    }

    /// One channel of a decoded render at time t.
    func value(_ request: RenderRequest, _ view: String, _ channel: String, at t: Double) throws -> [Double] {
        try XCTUnwrap(request.scene.channels.first { $0.view == view && $0.name == channel }, "\(view).\(channel)")
            .value(at: t).numbers
    }

    // MARK: Every preset

    func testEveryPresetExpandsWithDefaultsInTransitionsPlace() throws {
        for name in Self.names {
            let expanded = try expand(#"{"fps": 30, "transition": {"preset": "\#(name)", "container": [0, 0, 320, 568]}, "until": 3}"#)
            let produced: [String] = switch name {
            case "swipeUpDismiss": ["views", "animations", "interaction"]
            case "pane": ["views", "animations", "commands"]
            default: ["views", "animations"]
            }
            XCTAssertEqual(keys(expanded), ["fps", "container"] + produced + ["until"], name)
            XCTAssertEqual(member(expanded, "container"), try json("[0, 0, 320, 568]"), name)
            XCTAssertEqual(member(expanded, "fps"), .number(30))
            XCTAssertEqual(member(expanded, "until"), .number(3))
            // Every animation names a view of the expansion, and every id is distinct.
            let views = keys(member(expanded, "views") ?? .null)
            let animations = elements(member(expanded, "animations"))
            XCTAssertFalse(animations.isEmpty, name)
            var ids: [JSONValue] = []
            for animation in animations {
                guard case .string(let view)? = member(animation, "view") else { return XCTFail("\(name): no view") }
                XCTAssertTrue(views.contains(view), "\(name): \(view)")
                ids.append(try XCTUnwrap(member(animation, "id"), name))
            }
            XCTAssertEqual(Set(ids.map(text)).count, ids.count, name)
            assertRenders(expanded)
            // The expansion is a plain request: expanding it again changes nothing, byte for byte.
            XCTAssertEqual(try Presets.expand(expanded).bytes, expanded.bytes, name)
            XCTAssertEqual(try expand(#"{"fps": 30, "transition": {"preset": "\#(name)", "container": [0, 0, 320, 568]}, "until": 3}"#).bytes,
                           expanded.bytes, "deterministic")
        }
    }

    func testBouncePresentStartsBelowTheContainerOnAUIKitSpring() throws {
        let (x, y, w, h) = (10.0, 20.0, 300.0, 500.0)
        let container = "[\(x), \(y), \(w), \(h)]"
        let expanded = try preset("bouncePresent", container: container)
        try assertJSON(member(expanded, "views"), """
        {"from": {"frame": \(container)}, "to": {"frame": [\(x), \(y + h), \(w), \(h)]}}
        """)
        try assertJSON(member(expanded, "animations"), """
        [{"id": "present", "view": "to", "duration": 0.8,
          "timing": {"type": "spring", "dampingRatio": 0.6, "initialVelocity": 0}, "to": {"frame": \(container)}}]
        """)
        // The start frame's top is the container's bottom edge: wholly below it.
        let start = elements(member(member(member(expanded, "views"), "to"), "frame"))
        XCTAssertEqual(start[1], .number(y + h))

        let tuned = try preset("bouncePresent", container: container, #""duration": 0.5, "dampingRatio": 0.3, "initialVelocity": 1.5"#)
        try assertJSON(member(tuned, "animations"), """
        [{"id": "present", "view": "to", "duration": 0.5,
          "timing": {"type": "spring", "dampingRatio": 0.3, "initialVelocity": 1.5}, "to": {"frame": \(container)}}]
        """)
    }

    func testSlideDismissMovesFromDownOutOfTheContainer() throws {
        let expanded = try preset("slideDismiss", container: "[0, 44, 320, 524]")
        try assertJSON(member(expanded, "views"), #"{"to": {"frame": [0, 44, 320, 524]}, "from": {"frame": [0, 44, 320, 524]}}"#)
        try assertJSON(member(expanded, "animations"), """
        [{"id": "dismiss", "view": "from", "duration": 0.3, "timing": "easeIn", "to": {"frame": [0, \(44.0 + 524), 320, 524]}}]
        """)
        // A timing passes through as given, CSS string or object.
        let eased = try preset("slideDismiss", #""timing": "cubic-bezier(0.4, 0, 1, 1)", "duration": 0.25"#)
        XCTAssertEqual(member(elements(member(eased, "animations"))[0], "timing"), .string("cubic-bezier(0.4, 0, 1, 1)"))
        XCTAssertEqual(member(elements(member(eased, "animations"))[0], "duration"), .number(0.25))
    }

    func testZoomPushAndPopScaleBetweenComponentEnds() throws {
        let push = try preset("zoomPush", container: "[0, 0, 400, 300]")
        try assertJSON(member(push, "views"), """
        {"from": {"frame": [0, 0, 400, 300]},
         "to": {"center": [200, 150], "bounds": [0, 0, 400, 300], "transform": {"scale": [0, 0]}}}
        """)
        try assertJSON(member(push, "animations"), """
        [{"id": "push", "view": "to", "duration": 0.4, "timing": "easeInOut", "to": {"transform": {"scale": [1, 1]}}}]
        """)
        let pop = try preset("zoomPop", container: "[0, 0, 400, 300]")
        try assertJSON(member(pop, "views"), """
        {"to": {"frame": [0, 0, 400, 300]},
         "from": {"center": [200, 150], "bounds": [0, 0, 400, 300], "transform": {"scale": [1, 1]}}}
        """)
        try assertJSON(member(pop, "animations"), """
        [{"id": "pop", "view": "from", "duration": 0.4, "timing": "easeInOut", "to": {"transform": {"scale": [0, 0]}}}]
        """)
    }

    func testDropDismissIsTheKeyframedFallOfTheScenario() throws {
        let expanded = try preset("dropDismiss", #""timing": "linear""#)
        // The request of RenderScenarioTests' drop-dismiss, with the cover given a colour and the
        // card (`from`) its bounds.
        let starts = [0, 0.15, 0.25, 0.45, 0.65], durations = [0.15, 0.10, 0.20, 0.20, 0.35]
        let rotations = [-1.5 * Double.pi, Double.pi, 1.3 * Double.pi, 0.8 * Double.pi]
        var keyframes = zip(starts.prefix(4), zip(durations, rotations)).map { start, rest in
            #"{"start": \#(start), "duration": \#(rest.0), "to": {"transform": {"rotation": \#(rest.1)}}}"#
        }
        keyframes.append(#"{"start": 0.65, "duration": 0.35, "to": {"transform": {"ops": [{"translate": [180, 0]}, {"rotate": \#(0.3 * Double.pi)}]}}}"#)
        try assertJSON(member(expanded, "views"), """
        {"to": {"frame": [0, 0, 320, 568]},
         "cover": {"frame": [0, 0, 320, 568], "backgroundColor": [0, 0, 0, 0.5], "alpha": 1},
         "from": {"center": [160, 284], "bounds": [0, 0, 320, 568], "transform": {"rotation": 0}}}
        """)
        try assertJSON(member(expanded, "animations"), """
        [{"id": "drop", "view": "from", "duration": 1, "timing": "linear", "keyframes": [\(keyframes.joined(separator: ","))]},
         {"id": "fade", "view": "cover", "duration": 1, "timing": "linear", "to": {"alpha": 0}}]
        """)
        // No rotationPath: the shorter arc, which turns as the issue describes.
        XCTAssertNil(member(elements(member(expanded, "animations"))[0], "rotationPath"))
        assertRenders(expanded)
        // UIKit's default options curve by default.
        let byDefault = try preset("dropDismiss")
        XCTAssertEqual(elements(member(byDefault, "animations")).map { member($0, "timing") }, [.string("easeInOut"), .string("easeInOut")])
    }

    func testCrossDissolveFadesOneOutAndTheOtherIn() throws {
        let expanded = try preset("crossDissolve", #""duration": 0.5"#)
        try assertJSON(member(expanded, "views"), """
        {"from": {"frame": [0, 0, 320, 568], "alpha": 1}, "to": {"frame": [0, 0, 320, 568], "alpha": 0}}
        """)
        try assertJSON(member(expanded, "animations"), """
        [{"id": "fadeOut", "view": "from", "duration": 0.5, "timing": "easeInOut", "to": {"alpha": 0}},
         {"id": "fadeIn", "view": "to", "duration": 0.5, "timing": "easeInOut", "to": {"alpha": 1}}]
        """)
    }

    func testSwipeUpDismissIsDrivenByAPanGesture() throws {
        let h = 568.0
        let expanded = try preset("swipeUpDismiss")
        try assertJSON(member(expanded, "animations"), """
        [{"id": "dismiss", "view": "from", "duration": 0.3, "timing": "linear", "to": {"frame": [0, \(-h), 320, 568]}}]
        """)
        // The default log: a flick to 55 % of the distance (the container's height), past the threshold.
        let log = [(0.0, 0.0), (0.05, 0.04), (0.1, 0.12), (0.15, 0.25), (0.2, 0.4), (0.25, 0.55)]
        let samples = log.map { "[\($0.0), \($0.1 * h)]" }.joined(separator: ", ")
        try assertJSON(member(expanded, "interaction"), """
        {"animations": ["dismiss"],
         "gesture": {"kind": "pan", "distance": \(h), "threshold": 0.5, "samples": [\(samples)]},
         "completionSpeed": 1, "completionCurve": "easeInOut"}
        """)
        XCTAssertGreaterThan(log.last!.1, 0.5, "the default swipe finishes")

        let given = try preset("swipeUpDismiss", """
        "distance": 300, "threshold": 0.4, "samples": [[0.1, 0], [0.2, 50], [0.35, 90]], "completionSpeed": 1.5,
        "completionCurve": {"type": "easeOut"}
        """)
        try assertJSON(member(given, "interaction"), """
        {"animations": ["dismiss"],
         "gesture": {"kind": "pan", "distance": 300, "threshold": 0.4, "samples": [[0.1, 0], [0.2, 50], [0.35, 90]]},
         "completionSpeed": 1.5, "completionCurve": {"type": "easeOut"}}
        """)
        // A distance given without samples scales the default log.
        let far = try preset("swipeUpDismiss", #""distance": 1000"#)
        XCTAssertEqual(elements(member(member(member(far, "interaction"), "gesture"), "samples")).last, try json("[0.25, \(0.55 * 1000)]"))
    }

    // MARK: Pane

    /// The commands of a pane expansion with open y 100 and closed y 700 (x 160).
    func paneCommands(_ extra: String) throws -> [JSONValue] {
        let expanded = try preset("pane", #""open": 100, "closed": [160, 700], "#  + extra)
        try assertJSON(member(expanded, "views"), #"{"pane": {"center": [160, 700], "bounds": [0, 0, 320, 568]}}"#)
        try assertJSON(member(expanded, "animations"), """
        [{"id": "pane", "view": "pane", "to": {"center": [160, 700]},
          "dynamics": {"model": "attachment", "frequency": 3.5, "damping": 0.4}, "autostart": false}]
        """)
        return elements(member(expanded, "commands"))
    }

    func retarget(_ at: Double, _ y: Double) -> String {
        #"{"at": \#(at), "animation": "pane", "op": "retarget", "to": {"center": [160, \#(y)]}}"#
    }

    func testPaneReleasedUpwardOpens() throws {
        let commands = try paneCommands(#""samples": [[0.5, 700], [0.55, 690], [0.6, 660], [0.65, 610]]"#)
        try assertJSON(.array(commands), """
        [{"at": 0.5, "animation": "pane", "op": "drag", "samples": [[0.5, 160, 700], [0.55, 160, 690], [0.6, 160, 660], [0.65, 160, 610]]},
         \(retarget(0.65, 100))]
        """)
    }

    func testPaneReleasedDownwardOrStillCloses() throws {
        for samples in ["[[0, 400], [0.05, 420], [0.1, 460]]", "[[0, 120, 400], [0.1, 200, 400]]"] {
            let commands = try paneCommands(#""samples": \#(samples)"#)
            XCTAssertEqual(commands.count, 2, samples)
            XCTAssertEqual(member(commands[0], "op"), .string("drag"))
            try assertJSON(commands[1], retarget(0.1, 700))
        }
        // The three-number form keeps x as given.
        let commands = try paneCommands(#""samples": [[0, 120, 400], [0.1, 200, 400]]"#)
        try assertJSON(member(commands[0], "samples"), "[[0, 120, 400], [0.1, 200, 400]]")
    }

    func testEachTapTogglesThePane() throws {
        // Released upward at 0.1 (open), then taps: closed, open, closed.
        let commands = try paneCommands(#""samples": [[0, 700], [0.1, 600]], "taps": [1, 2, 2.5]"#)
        try assertJSON(.array(Array(commands.dropFirst())),
                       "[\(retarget(0.1, 100)), \(retarget(1, 700)), \(retarget(2, 100)), \(retarget(2.5, 700))]")
        // Without a drag, taps toggle from closed; a tap before the drag comes first, one at the
        // release right after the release's own retarget.
        try assertJSON(.array(try paneCommands(#""samples": [], "taps": [0.5, 1]"#)), "[\(retarget(0.5, 100)), \(retarget(1, 700))]")
        let around = try paneCommands(#""samples": [[1, 700], [1.1, 720]], "taps": [0.5, 1.1]"#)
        XCTAssertEqual(around.map { member($0, "op") }, [.string("retarget"), .string("drag"), .string("retarget"), .string("retarget")])
        try assertJSON(around[0], retarget(0.5, 100))
        try assertJSON(around[2], retarget(1.1, 700))  // released downward: closed
        try assertJSON(around[3], retarget(1.1, 100))  // the tap toggles it open
    }

    func testPaneDefaultsComeFromTheContainer() throws {
        let (x, y, w, h) = (0.0, 20.0, 375.0, 600.0)
        let expanded = try preset("pane", container: "[\(x), \(y), \(w), \(h)]")
        let open = [x + w / 2, y + 0.6 * h], closed = [x + w / 2, y + 1.4 * h]
        try assertJSON(member(expanded, "views"), #"{"pane": {"center": \#(closed), "bounds": [0, 0, \#(w), \#(h)]}}"#)
        let commands = elements(member(expanded, "commands"))
        let drag = [(0.0, 0.0), (0.05, -10.0), (0.1, -30.0), (0.15, -60.0), (0.2, -100.0)]
            .map { "[\($0.0), \(closed[0]), \(closed[1] + $0.1)]" }.joined(separator: ", ")
        try assertJSON(.array(commands), """
        [{"at": 0, "animation": "pane", "op": "drag", "samples": [\(drag)]},
         {"at": 0.2, "animation": "pane", "op": "retarget", "to": {"center": \(open)}}]
        """)
    }

    /// The expansions render as their descriptions say (the render decoder expands the preset itself).
    func testDefaultExpansionsRenderAsDescribed() throws {
        let bounce = try XCTUnwrap(assertRenders(try json(#"{"transition": {"preset": "bouncePresent", "container": [0, 0, 320, 568]}}"#)))
        XCTAssertEqual(bounce.scene.end, 0.8)
        XCTAssertEqual(try value(bounce, "to", "frame", at: 0), [0, 568, 320, 568])
        XCTAssertEqual(try value(bounce, "to", "frame", at: 0.8), [0, 0, 320, 568])
        XCTAssertLessThan(try value(bounce, "to", "frame", at: 0.4)[1], 0, "the spring overshoots")

        // The default swipe passes the threshold: the dismissal finishes, `from` above the container.
        let swipe = try XCTUnwrap(assertRenders(try json(#"{"transition": {"preset": "swipeUpDismiss", "container": [0, 0, 320, 568]}}"#)))
        XCTAssertEqual(try value(swipe, "from", "frame", at: swipe.scene.end), [0, -568, 320, 568])
        XCTAssertEqual(try value(swipe, "from", "frame", at: 0.25)[1], -0.55 * 568, accuracy: 1e-9, "under the finger at release")

        // The default flick opens the pane; it comes to rest exactly at `open`.
        let pane = try XCTUnwrap(assertRenders(try json(#"{"transition": {"preset": "pane", "container": [0, 0, 320, 500]}}"#)))
        XCTAssertEqual(try value(pane, "pane", "center", at: 0), [160, 700])
        XCTAssertEqual(try value(pane, "pane", "center", at: 0.1), [160, 670], "following the finger")
        XCTAssertGreaterThan(pane.scene.end, 0.2)
        XCTAssertEqual(try value(pane, "pane", "center", at: pane.scene.end), [160, 300])
    }

    // MARK: Catalogue

    /// A valid value other than the default for every catalogued parameter.
    static let alternatives: [String: [String: String]] = [
        "bouncePresent": ["duration": "0.5", "dampingRatio": "0.3", "initialVelocity": "1"],
        "slideDismiss": ["duration": "0.5", "timing": #""easeInOut""#],
        "zoomPush": ["duration": "0.5", "timing": #""linear""#],
        "zoomPop": ["duration": "0.5", "timing": #""linear""#],
        "dropDismiss": ["duration": "0.5", "timing": #""linear""#, "coverColor": "[1, 1, 1, 0.2]"],
        "crossDissolve": ["duration": "0.5", "timing": #""linear""#],
        "swipeUpDismiss": ["duration": "0.5", "timing": #""easeOut""#, "distance": "400", "threshold": "0.3",
                           "samples": "[[0, 0], [0.1, 100]]", "completionSpeed": "2", "completionCurve": #""linear""#],
        "pane": ["open": "150", "closed": "[100, 650]", "samples": "[[0, 300], [0.1, 250]]", "taps": "[1]",
                 "frequency": "2", "damping": "0.8"],
        "push": ["duration": "0.4", "timing": #""easeOut""#, "parallax": "0.5", "dimAlpha": "0.2"],
        "pop": ["duration": "0.4", "timing": #""easeOut""#, "parallax": "0.5", "dimAlpha": "0.2"],
        "coverVertical": ["duration": "0.4", "timing": #""easeOut""#],
        "coverVerticalDismiss": ["duration": "0.4", "timing": #""easeIn""#],
        "pageSheet": ["duration": "0.4", "timing": #""easeOut""#, "top": "54", "cornerRadius": "12", "scale": "0.9", "inset": "20"],
        "pageSheetDismiss": ["duration": "0.4", "timing": #""easeIn""#, "top": "54", "cornerRadius": "12", "scale": "0.9",
                             "inset": "20"],
    ]

    func testCatalogueListsTheFourteenPresetsWithDocumentedDefaults() throws {
        XCTAssertEqual(keys(Presets.catalogue), ["presets"])
        let presets = elements(member(Presets.catalogue, "presets"))
        XCTAssertEqual(presets.map { member($0, "name") }, Self.names.map(JSONValue.string))
        for entry in presets {
            XCTAssertEqual(keys(entry), ["name", "description", "parameters"])
            guard case .string(let name)? = member(entry, "name"), case .string(let description)? = member(entry, "description"),
                  case .object(let parameters)? = member(entry, "parameters") else { return XCTFail("\(entry)") }
            XCTAssertGreaterThan(description.count, 80, "\(name) documents its expansion")
            XCTAssertFalse(parameters.isEmpty, name)
            let alternatives = try XCTUnwrap(Self.alternatives[name])
            XCTAssertEqual(Set(parameters.map(\.key)), Set(alternatives.keys), name)
            var atDefaults: [String] = []
            for parameter in parameters {
                XCTAssertEqual(keys(parameter.value), ["default", "description"], "\(name).\(parameter.key)")
                guard case .string(let about)? = member(parameter.value, "description") else { return XCTFail(parameter.key) }
                XCTAssertFalse(about.isEmpty)
                atDefaults.append("\"\(parameter.key)\": " + text(try XCTUnwrap(member(parameter.value, "default"))))
            }
            // Every catalogued parameter is accepted, and its default is the default.
            let plain = try preset(name)
            XCTAssertEqual(try preset(name, atDefaults.joined(separator: ", ")), plain, name)
            // And each one is used: another value changes the expansion.
            for parameter in parameters {
                let other = try preset(name, "\"\(parameter.key)\": \(try XCTUnwrap(alternatives[parameter.key]))")
                XCTAssertNotEqual(other, plain, "\(name).\(parameter.key) has no effect")
            }
        }
        // The catalogue is what the route serves: it writes as JSON and reads back the same.
        XCTAssertEqual(try JSONReader.parse(Presets.catalogue.bytes, maxDepth: 64), Presets.catalogue)
    }

    /// The parameters a preset accepts are exactly those its catalogue entry lists: the list an
    /// unknown parameter's 422 gives is the catalogue's, and a parameter of another preset is
    /// refused at it unless this preset lists it too.
    func testEveryAcceptedParameterIsCataloguedAndViceVersa() throws {
        let presets = elements(member(Presets.catalogue, "presets"))
        let catalogued = presets.map { entry in keys(member(entry, "parameters") ?? .null) }
        for (name, listed) in zip(Self.names, catalogued) {
            let refused = try XCTUnwrap(problem(#"{"transition": {"preset": "\#(name)", "container": [0, 0, 320, 568], "zz": 1}}"#))
            let named = backticked(String(try XCTUnwrap(refused.detail.split(separator: ";").last)))
            XCTAssertEqual(named, listed, "\(name): the 422 names the catalogued parameters")
            for (owner, parameters) in zip(Self.names, catalogued) {
                for parameter in parameters {
                    let value = try XCTUnwrap(Self.alternatives[owner]?[parameter], "\(owner).\(parameter)")
                    let request = #"{"transition": {"preset": "\#(name)", "container": [0, 0, 320, 568], "\#(parameter)": \#(value)}}"#
                    if listed.contains(parameter) {
                        XCTAssertNoThrow(try expand(request), "\(name) accepts \(parameter)")
                    } else {
                        assertProblem(request, pointer: "/transition/\(parameter)", mentions: parameter)
                    }
                }
            }
        }
    }

    /// Each range a parameter's description states is the one enforced: a number just outside
    /// either end is a 422 at the parameter (or at the number inside it), and the end itself (or
    /// the nearest number inside an open end) is accepted.
    func testRangesAreEnforcedAsTheCatalogueStatesThem() throws {
        var probed = 0
        let container = try Container(json("[0, 0, 320, 568]"), at: .root)  // the requests' own, for a bound at its height
        for preset in PresetTable.all {
            let entry = try XCTUnwrap(elements(member(Presets.catalogue, "presets")).first { member($0, "name") == .string(preset.name) })
            for parameter in preset.parameters {
                guard case .string(let description)? = member(member(member(entry, "parameters"), parameter.name), "description") else {
                    return XCTFail("\(preset.name).\(parameter.name) is not catalogued")
                }
                let rule = parameter.kind.rule
                XCTAssertTrue(rule.isEmpty || description.contains(rule), "\(preset.name).\(parameter.name): \(description)")
                for probe in Self.probes(parameter.kind) {
                    let text = try XCTUnwrap(probe.range.text, "\(preset.name).\(parameter.name)")
                    XCTAssertTrue(description.contains(text), "\(preset.name).\(parameter.name) states \(text)")
                    for (bound, below) in [(probe.range.lower, true), (probe.range.upper, false)] {
                        guard let bound else { continue }
                        let edge = bound.value(limits: Limits(), container: container)
                        let outside = bound.inclusive ? (below ? edge.nextDown : edge.nextUp) : edge
                        let inside = bound.inclusive ? edge : (below ? edge.nextUp : edge.nextDown)
                        func request(_ number: Double) -> String {
                            #"{"transition": {"preset": "\#(preset.name)", "container": [0, 0, 320, 568], "\#(parameter.name)": \#(probe.json(number))}}"#
                        }
                        assertProblem(request(outside), pointer: "/transition/\(parameter.name)" + probe.pointer(outside))
                        XCTAssertNoThrow(try expand(request(inside)), "\(preset.name).\(parameter.name) = \(inside)")
                        probed += 1
                    }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(probed, 50)
    }

    /// Where a number of the given kind goes in a request, and the pointer of a fault in it, for
    /// each range its numbers follow.
    static func probes(_ kind: ParameterKind) -> [(range: NumberRange, json: (Double) -> String, pointer: (Double) -> String)] {
        switch kind {
        case .number(let range):
            return range.text == nil ? [] : [(range, { "\($0)" }, { _ in "" })]
        case .timing:
            return []
        case .color:
            return [(.unit, { "[\($0), 0, 0, 1]" }, { _ in "/0" })]
        case .position:
            return [(.channel, { "\($0)" }, { _ in "" }), (.channel, { "[0, \($0)]" }, { _ in "/1" })]
        case .panLog:
            return [(.time, { "[[\($0), 0]]" }, { _ in "/0/0" }), (.channel, { "[[0, \($0)]]" }, { _ in "/0/1" })]
        case .dragLog:
            // Times strictly increase: a late time goes last, an early one first.
            return [(.time, { $0 > 1 ? "[[1, 0], [\($0), 0]]" : "[[\($0), 0], [1, 0]]" }, { $0 > 1 ? "/1/0" : "/0/0" }),
                    (.channel, { "[[0, 0], [1, \($0)]]" }, { _ in "/1/1" })]
        case .times:
            return [(.time, { "[\($0)]" }, { _ in "/0" })]
        }
    }

    /// The catalogue cites nothing a client does not have, and lists each preset's views in the
    /// order the render stacks them.
    func testCatalogueTextStandsAloneAndStatesTheStacking() throws {
        let body = text(Presets.catalogue)
        for citation in [".md", "docs/", "Sources/", ".swift"] { XCTAssertFalse(body.contains(citation), citation) }
        for entry in elements(member(Presets.catalogue, "presets")) {
            guard case .string(let name)? = member(entry, "name"), case .string(let description)? = member(entry, "description") else {
                return XCTFail("\(entry)")
            }
            let views = try XCTUnwrap(description.components(separatedBy: "Views, bottom to top: ").last?
                .components(separatedBy: ". Animations").first)
            let listed = backticked(views)
            let request = try XCTUnwrap(assertRenders(try preset(name)))
            XCTAssertEqual(listed, request.scene.stacking, name)
        }
    }

    // MARK: Pinned bytes

    /// Every preset, at its defaults and with its parameters changed, expands to exactly the bytes
    /// pinned in PresetPinnedExpansions.swift.
    func testExpansionsArePinnedByteForByte() throws {
        XCTAssertEqual(Set(Self.pinnedExpansions.map { String($0.label.prefix { $0 != " " }) }), Set(Self.names))
        for pinned in Self.pinnedExpansions {
            XCTAssertEqual(text(try expand(pinned.request)), pinned.expansion, pinned.label)
        }
    }

    // MARK: Pass-through and bad input

    func testOtherMembersPassThroughInOrder() throws {
        let expanded = try expand(#"{"velocities": true, "views": null, "transition": {"preset": "zoomPush", "container": [0, 0, 10, 10]}, "at": [0, 0.2]}"#)
        XCTAssertEqual(keys(expanded), ["velocities", "container", "views", "animations", "at"])
        XCTAssertEqual(member(expanded, "velocities"), .bool(true))
        try assertJSON(member(expanded, "at"), "[0, 0.2]")
        // Without a transition the request is unchanged.
        let plain = try json(#"{"views": {"a": {"alpha": 1}}, "animations": [], "transition": null}"#)
        XCTAssertEqual(try Presets.expand(plain), plain)
    }

    func testBadTransitionsAreProblemsAtTheirMember() {
        let zoom = #""preset": "zoomPush", "container": [0, 0, 320, 568]"#
        assertProblem(#"{"transition": {"preset": "flip", "container": [0, 0, 320, 568]}}"#, pointer: "/transition/preset",
                      mentions: "bouncePresent")
        assertProblem(#"{"transition": {"container": [0, 0, 320, 568]}}"#, pointer: "/transition/preset")
        assertProblem(#"{"transition": {"preset": "zoomPush"}}"#, pointer: "/transition/container")
        assertProblem(#"{"transition": {"preset": "zoomPush", "container": [0, 0, -320, 568]}}"#, pointer: "/transition/container/2")
        assertProblem(#"{"transition": {"preset": "zoomPush", "container": [0, 0, 320, -1]}}"#, pointer: "/transition/container/3")
        assertProblem(#"{"transition": {"preset": "zoomPush", "container": [0, 0, 320]}}"#, pointer: "/transition/container")
        assertProblem(#"{"transition": {\#(zoom), "bounce": 2}}"#, pointer: "/transition/bounce", mentions: "bounce")
        // A parameter of another preset is unknown here.
        assertProblem(#"{"transition": {\#(zoom), "dampingRatio": 0.5}}"#, pointer: "/transition/dampingRatio",
                      mentions: "dampingRatio")
        for member in ["container", "views", "animations", "commands", "interaction"] {
            assertProblem(#"{"transition": {\#(zoom)}, "\#(member)": []}"#, pointer: "/\(member)", mentions: member)
        }
        // A transition of the wrong JSON type is a wrong-type 400 (docs/rules.md "Conventions"), as everywhere.
        assertProblem(#"{"transition": "zoomPush"}"#, status: 400, pointer: "/transition")
        assertProblem(#"{"transition": [1]}"#, status: 400, pointer: "/transition")
        assertProblem(#"{"transition": {"preset": 3, "container": [0, 0, 1, 1]}}"#, status: 400, pointer: "/transition/preset")
    }

    /// swipeUpDismiss reads its log with the pan gesture's rules: a log with two samples at one
    /// time (a touch reported twice in a frame) is taken by the preset exactly as by the gesture.
    func testSwipeUpDismissTakesEveryLogThePanGestureTakes() throws {
        let log = "[[0, 0], [0.1, 50], [0.1, 60], [0.2, 120], [0.25, 300]]"
        let expanded = try preset("swipeUpDismiss", #""samples": \#(log)"#)
        assertRenders(expanded)
        let plain = try json(#"""
        {"views": {"v": {"frame": [0, 0, 320, 568]}}, "animations": [{"id": "d", "view": "v", "duration": 0.3, "timing": "linear",
         "to": {"frame": [0, -568, 320, 568]}}],
         "interaction": {"animations": ["d"], "gesture": {"kind": "pan", "distance": 568, "samples": \#(log)}}}
        """#)
        assertRenders(plain)
        // A time that goes back is refused by both, at the sample.
        assertProblem(#"{"transition": {"preset": "swipeUpDismiss", "container": [0, 0, 320, 568], "samples": [[0.2, 0], [0.1, 5]]}}"#,
                      pointer: "/transition/samples/1/0")
    }

    func testBadParameterValuesPointAtTheParameter() {
        func transition(_ preset: String, _ extra: String) -> String {
            #"{"transition": {"preset": "\#(preset)", "container": [0, 0, 320, 568], \#(extra)}}"#
        }
        assertProblem(transition("bouncePresent", #""duration": 0"#), pointer: "/transition/duration")
        assertProblem(transition("bouncePresent", #""duration": 4000"#), pointer: "/transition/duration", mentions: "limit")
        assertProblem(transition("bouncePresent", #""dampingRatio": -0.1"#), pointer: "/transition/dampingRatio")
        assertProblem(transition("bouncePresent", #""duration": "fast""#), status: 400, pointer: "/transition/duration")
        assertProblem(transition("slideDismiss", #""timing": "ease-sideways""#), pointer: "/transition/timing")
        assertProblem(transition("slideDismiss", #""timing": {"type": "spring", "response": 0.5, "dampingRatio": 0.8}"#),
                      pointer: "/transition/timing")
        assertProblem(transition("dropDismiss", #""timing": {"type": "spring", "dampingRatio": 0.8}"#), pointer: "/transition/timing")
        assertProblem(transition("dropDismiss", #""coverColor": [0, 0, 0, 2]"#), pointer: "/transition/coverColor/3")
        assertProblem(transition("swipeUpDismiss", #""threshold": 1.5"#), pointer: "/transition/threshold")
        assertProblem(transition("swipeUpDismiss", #""distance": 0"#), pointer: "/transition/distance")
        assertProblem(transition("swipeUpDismiss", #""completionSpeed": 0"#), pointer: "/transition/completionSpeed")
        assertProblem(transition("swipeUpDismiss", #""samples": []"#), pointer: "/transition/samples")
        assertProblem(transition("swipeUpDismiss", #""samples": [[0.1, 0], [0, 10]]"#), pointer: "/transition/samples/1/0")
        assertProblem(transition("swipeUpDismiss", #""samples": [[0, 0, 1]]"#), pointer: "/transition/samples/0")
        assertProblem(transition("pane", #""samples": [[0.2, 500], [0.1, 400]]"#), pointer: "/transition/samples/1/0")
        assertProblem(transition("pane", #""samples": [[0, 500], [0.1, 1, 400]]"#), pointer: "/transition/samples/1")
        assertProblem(transition("pane", #""samples": [[0, 500]]"#), pointer: "/transition/samples")
        assertProblem(transition("pane", #""samples": [[-1, 500], [0, 400]]"#), pointer: "/transition/samples/0/0")
        assertProblem(transition("pane", #""taps": [2, 1]"#), pointer: "/transition/taps/1")
        assertProblem(transition("pane", #""taps": [-1]"#), pointer: "/transition/taps/0")
        assertProblem(transition("pane", #""open": [1, 2, 3]"#), pointer: "/transition/open")
        assertProblem(transition("pane", #""frequency": 0"#), pointer: "/transition/frequency")
        assertProblem(transition("pane", #""damping": -1"#), pointer: "/transition/damping")
        // Out of the bounds the render decoder would apply to the expansion: refused here, at the parameter.
        assertProblem(#"{"transition": {"preset": "pane", "container": [1e300, 0, 320, 568]}}"#, pointer: "/transition/container/0")
        assertProblem(transition("pane", #""closed": [0, 1e300]"#), pointer: "/transition/closed/1")
        assertProblem(transition("pane", #""samples": [[0, 1], [5000, 2]]"#), pointer: "/transition/samples/1/0", mentions: "3600")
        assertProblem(transition("pane", #""taps": [4000]"#), pointer: "/transition/taps/0")
        assertProblem(transition("swipeUpDismiss", #""samples": [[0, 1e300]]"#), pointer: "/transition/samples/0/1")
        assertProblem(transition("swipeUpDismiss", #""distance": 1e300"#), pointer: "/transition/distance")
    }
}
