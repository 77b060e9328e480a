import SegueEngine
import XCTest
@testable import SegueCodec
import SegueJSON

/// Errors that teach (rule 46): an unknown keyword, member, preset or channel lists what exists,
/// and another platform's name of a known one says which name to use.
final class ErrorHintTests: XCTestCase {
    /// The problem `work` throws, nil when it succeeds (or throws anything else).
    func problem(_ work: () throws -> Void) -> Problem? {
        do {
            try work()
            return nil
        } catch {
            return error as? Problem
        }
    }

    func curveProblem(_ json: String) -> Problem? {
        problem { _ = try CurveResponse(CurveRequest.decode(JSONReader.parse(Array(json.utf8), maxDepth: 64), limits: Limits())) }
    }

    func renderProblem(_ json: String) -> Problem? {
        problem { _ = try RenderRequest.decode(RequestDocument.parse(Array(json.utf8), limits: Limits()), limits: Limits()) }
    }

    /// A render of view `card` (with a frame and custom channel `blur`) animating `to`.
    func animate(_ members: String) -> Problem? {
        renderProblem("""
        {"views": {"card": {"frame": [0, 0, 10, 10], "blur": 0}}, "animations": [{"view": "card", \(members)}]}
        """)
    }

    func assertMentions(_ problem: Problem?, _ parts: [String], pointer: String,
                        file: StaticString = #filePath, line: UInt = #line) {
        guard let problem else { return XCTFail("no problem", file: file, line: line) }
        XCTAssertEqual(problem.status, 422, problem.detail, file: file, line: line)
        XCTAssertEqual(problem.pointer, pointer, problem.detail, file: file, line: line)
        for part in parts {
            XCTAssert(problem.detail.contains(part), "«\(problem.detail)» lacks «\(part)»", file: file, line: line)
        }
    }

    // MARK: Keywords

    func testUnknownKeywordListsEveryKeywordAndFunction() {
        let problem = curveProblem(#"{"timing": "ease-in-quad"}"#)
        let keywords = ["linear", "ease", "ease-in", "ease-out", "ease-in-out", "step-start", "step-end", "easeIn", "easeOut",
                        "easeInOut", "easeInEaseOut", "default", "smooth", "snappy", "bouncy"]
        assertMentions(problem, ["unknown keyword `ease-in-quad`"] + keywords.map { "`\($0)`" }
                                + ["`cubic-bezier()`", "`steps()`", "`linear()`"], pointer: "/timing")
        // Every keyword listed is accepted.
        for keyword in keywords { XCTAssertNil(curveProblem(#"{"timing": "\#(keyword)"}"#), keyword) }
    }

    func testForeignCurveNamesSayWhichToUse() {
        assertMentions(curveProblem(#"{"timing": "kCAMediaTimingFunctionEaseInEaseOut"}"#), ["use `easeInEaseOut`"],
                       pointer: "/timing")
        assertMentions(curveProblem(#"{"timing": "UIViewAnimationCurveEaseOut"}"#), ["use `easeOut`"], pointer: "/timing")
        assertMentions(curveProblem(#"{"timing": "spring"}"#), [#"{"type": "spring", …}"#, "`smooth`"], pointer: "/timing")
        assertMentions(curveProblem(#"{"timing": "cubicBezier(0, 0, 1, 1)"}"#), ["use `cubic-bezier()`", "`steps()`"],
                       pointer: "/timing")
        assertMentions(curveProblem(#"{"timing": "steps(2, jumpStart)"}"#), ["use `jump-start`", "`jump-both`"], pointer: "/timing")
        assertMentions(curveProblem(#"{"timing": {"type": "steps", "count": 2, "position": "jump-start"}}"#),
                       ["use `jumpStart`", "jumpBoth"], pointer: "/timing/position")
    }

    func testUnknownTimingTypeListsTypesAndHints() {
        assertMentions(curveProblem(#"{"timing": {"type": "bezier"}}"#),
                       ["unknown timing type `bezier`", "`cubicBezier`", "`default`", "`piecewiseLinear`", "`spring`"],
                       pointer: "/timing/type")
        assertMentions(curveProblem(#"{"timing": {"type": "easeInEaseOut"}}"#), ["use `easeInOut`"], pointer: "/timing/type")
        assertMentions(curveProblem(#"{"timing": {"type": "cubic-bezier", "p1": [0, 0], "p2": [1, 1]}}"#),
                       ["use `cubicBezier`"], pointer: "/timing/type")
        assertMentions(curveProblem(#"{"timing": {"type": "bouncy"}}"#), [#""preset": "bouncy""#], pointer: "/timing/type")
    }

    // MARK: Members

    func testUnknownMemberListsTheMembersThatExist() {
        assertMentions(curveProblem(#"{"timing": "ease", "speed": 2}"#),
                       ["unknown member `speed`", "`timing`", "`duration`", "`samples`", "`fps`", "`at`"], pointer: "/speed")
        // A spring lists the members of every set, not only those of the set it was read as.
        assertMentions(curveProblem(#"{"timing": {"type": "spring", "dampingRatio": 0.5, "dampingfactor": 1}, "duration": 1}"#),
                       ["unknown member `dampingfactor`", "`mass`", "`response`", "`dampingFraction`", "`perceptualDuration`",
                        "`preset`", "`settlingDuration`", "`epsilon`", "`tension`", "`initialVelocity`"],
                       pointer: "/timing/dampingfactor")
        assertMentions(animate(#""duration": 1, "to": {"alpha": 0}, "keyframe": []"#),
                       ["unknown member `keyframe`", "`keyframes`", "`delay`", "`repeatCount`"], pointer: "/animations/0/keyframe")
    }

    func testForeignMemberNamesSayWhichToUse() {
        let rows: [(String, String, String)] = [
            (#""duration": 1, "to": {"alpha": 0}, "beginTime": 0.5"#, "use `delay`", "/animations/0/beginTime"),
            (#""duration": 1, "to": {"alpha": 0}, "timingFunction": "ease""#, "use `timing`", "/animations/0/timingFunction"),
            (#""duration": 1, "to": {"alpha": 0}, "easing": "ease""#, "use `timing`", "/animations/0/easing"),
            (#""duration": 1, "to": {"alpha": 0}, "iterations": 2"#, "use `repeatCount`", "/animations/0/iterations"),
            (#""duration": 1, "to": {"alpha": 0}, "repeat-count": 2"#, "use `repeatCount`", "/animations/0/repeat-count"),
            (#""duration": 1, "to": {"alpha": 0}, "timing": {"type": "spring", "dampingRatio": 0.5, "initialSpringVelocity": 2}"#,
             "use `initialVelocity`", "/animations/0/timing/initialSpringVelocity"),
        ]
        for (members, hint, pointer) in rows { assertMentions(animate(members), [hint, "the members here are"], pointer: pointer) }
        // No hint where the suggested name does not exist: only the list.
        let plain = animate(#""duration": 1, "to": {"alpha": 0}, "toValue": 1"#)
        XCTAssertEqual(plain?.pointer, "/animations/0/toValue")
        XCTAssert(plain?.detail.contains("use `to`") == true, plain?.detail ?? "")
        let none = curveProblem(#"{"timing": "ease", "keyPath": "opacity"}"#)
        XCTAssertFalse(none?.detail.contains("use ") ?? true, none?.detail ?? "no problem")
    }

    // MARK: Channels

    func testOpacityIsAlpha() {
        assertMentions(animate(#""duration": 1, "to": {"opacity": 0}"#),
                       ["`opacity`", "use `alpha`", "`backgroundColor`", "`cornerRadius`", "view `card`'s own `blur`"],
                       pointer: "/animations/0/to/opacity")
    }

    func testCoreAnimationAndCSSChannelNamesSayWhichToUse() {
        let rows: [(String, String)] = [
            ("transform.scale", "`transform` with `scale: [sx, sy]`"),
            ("transform.rotation.z", "`transform` with `rotation: θ`"),
            ("transform.translation.x", "`transform` with `translation: [x, y]`"),
            ("position", "use `center`"),
            ("bounds.size", "use `bounds`"),
            ("background-color", "use `backgroundColor`"),
            ("border-radius", "use `cornerRadius`"),
            ("Alpha", "use `alpha`"),
        ]
        for (channel, hint) in rows {
            assertMentions(animate(#""duration": 1, "to": {"\#(channel)": 0}"#), [hint, "the channels are"],
                           pointer: "/animations/0/to/\(channel)")
        }
        // The same in a CAKeyframeAnimation's `channel` and in keyframes.
        assertMentions(animate(#""duration": 1, "channel": "opacity", "values": [0, 1]"#), ["use `alpha`"],
                       pointer: "/animations/0/channel")
        assertMentions(animate(#""duration": 1, "keyframes": [{"start": 0, "duration": 1, "to": {"opacity": 1}}]"#),
                       ["use `alpha`"], pointer: "/animations/0/keyframes/0/to/opacity")
    }

    func testUnknownCustomChannelListsTheChannels() {
        assertMentions(animate(#""duration": 1, "to": {"glow": 1}"#),
                       ["custom channel `glow` must be given in view `card`", "`frame`", "`alpha`", "`transform`", "`blur`"],
                       pointer: "/animations/0/to/glow")
        // A view that gives `opacity` itself has a custom channel of that name: no refusal.
        XCTAssertNil(renderProblem("""
        {"views": {"card": {"opacity": 1}}, "animations": [{"view": "card", "duration": 1, "to": {"opacity": 0}}]}
        """))
    }

    // MARK: Views and animations

    func testUnknownViewListsTheViews() {
        assertMentions(renderProblem("""
        {"views": {"card": {"alpha": 1}, "badge": {"alpha": 1}}, "animations": [{"view": "Card", "duration": 1, "to": {"alpha": 0}}]}
        """), ["unknown view `Card`: use `card`", "the views are `card` and `badge`"], pointer: "/animations/0/view")
        // A request's own names can be thousands: the first 20 are listed, and how many more.
        let views = (0..<30).map { #""v\#($0)": {"alpha": 1}"# }.joined(separator: ", ")
        let problem = renderProblem("""
        {"views": {\(views)}, "animations": [{"view": "w", "duration": 1, "to": {"alpha": 0}}]}
        """)
        assertMentions(problem, ["unknown view `w`; the views are `v0`, `v1`,", "`v19` and 10 more"], pointer: "/animations/0/view")
        XCTAssertFalse(problem?.detail.contains("`v20`") ?? true)
    }

    func testUnknownAnimationListsTheAnimations() {
        let animations = #""animations": [{"id": "slide", "view": "card", "duration": 1, "to": {"alpha": 0}}, "#
            + #"{"view": "card", "duration": 1, "to": {"blur": 1}}]"#
        assertMentions(renderProblem("""
        {"views": {"card": {"frame": [0, 0, 10, 10], "blur": 0}}, \(animations), "commands": [{"at": 0.1, "animation": "fade", "op": "pause"}]}
        """), ["unknown animation `fade`; the animations are `slide` and `a1`"], pointer: "/commands/0/animation")
        assertMentions(renderProblem("""
        {"views": {"card": {"frame": [0, 0, 10, 10], "blur": 0}}, \(animations), "interaction": {"animations": ["Slide"], "updates": []}}
        """), ["unknown animation `Slide`: use `slide`; the animations are `slide` and `a1`"], pointer: "/interaction/animations/0")
    }

    // MARK: Presets

    func testUnknownPresetListsThePresets() {
        let problem = renderProblem(#"{"transition": {"preset": "slid", "container": [0, 0, 320, 568]}}"#)
        XCTAssertEqual(problem?.pointer, "/transition/preset")
        for name in PresetTable.all.map(\.name) {
            XCTAssert(problem?.detail.contains(name) == true, "\(problem?.detail ?? "no problem") lacks \(name)")
        }
        assertMentions(curveProblem(#"{"timing": {"type": "spring", "preset": "snapy"}}"#),
                       ["unknown spring preset `snapy`", "`smooth`, `snappy` and `bouncy`"], pointer: "/timing/preset")
    }
}
