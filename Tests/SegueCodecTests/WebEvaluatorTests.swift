import Foundation
import SegueTestSupport
import XCTest

/// Pins the independent web-format evaluators (Tests/SegueTestSupport/Web) to numbers the specifications
/// state or that follow from them by hand, so that the evaluators can be trusted as the reference for
/// Segue's CSS, Web Animations and Lottie exports.
final class WebEvaluatorTests: XCTestCase {
    func easing(_ text: String) throws -> CSSEasing { try CSSEasing.parse(text) }

    // MARK: - CSS Easing 2: linear()

    /// §2.1 example: `linear(0, 0.25, 1)` is (0, 0), (0.5, 0.25), (1, 1).
    func testLinearFunctionSpreadsMissingInputsEvenly() throws {
        let f = try easing("linear(0, 0.25, 1)")
        XCTAssertEqual(f.function, .linear([.init(input: 0, output: 0), .init(input: 0.5, output: 0.25), .init(input: 1, output: 1)]))
        XCTAssertEqual(f(0.25), 0.125)
        XCTAssertEqual(f(0.5), 0.25)
        XCTAssertEqual(f(0.75), 0.625)
        XCTAssertEqual(f(1), 1)
    }

    /// §2.1 examples: two percentages make two points with one output (a flat middle); outside the
    /// points the line through the nearest two continues.
    func testLinearFunctionDoubleInputAndExtrapolation() throws {
        let f = try easing("linear(0, 0.5 25% 75%, 1)")
        XCTAssertEqual(f.function, .linear([.init(input: 0, output: 0), .init(input: 0.25, output: 0.5),
                                            .init(input: 0.75, output: 0.5), .init(input: 1, output: 1)]))
        XCTAssertEqual(f(0.125), 0.25)
        for x in [0.25, 0.4, 0.5, 0.6, 0.75] { XCTAssertEqual(f(x), 0.5, "flat at \(x)") }
        XCTAssertEqual(f(0.875), 0.75)
        XCTAssertEqual(f(-0.25), -0.5)
        XCTAssertEqual(f(1.25), 1.5)
        XCTAssertEqual(try easing("linear(0.25 75%, 0 , 1)")(0.75), 0.25, "the percentage may come first")
    }

    /// §2.1.3 serialization examples: an input smaller than an earlier one is raised to it; at equal
    /// inputs the later point wins, and the spec's procedure returns point B's output for every input
    /// before the first pair of equal inputs too.
    func testLinearFunctionRaisesDecreasingInputsAndLaterPointWins() throws {
        let f = try easing("linear(0 20%, 0.5 10%, 1)")
        XCTAssertEqual(f.function, .linear([.init(input: 0.2, output: 0), .init(input: 0.2, output: 0.5), .init(input: 1, output: 1)]))
        XCTAssertEqual(f(0.2), 0.5)
        XCTAssertEqual(f(0.1), 0.5)
        XCTAssertEqual(f(0.6), 0.75)
        let bounceEnd = try easing("linear(0, 0.984, 1 100% 100%)")
        XCTAssertEqual(bounceEnd(1.5), 1, "`1 100% 100%`: inputs above 1 output 1")
        XCTAssertEqual(try easing("linear(0, 0.25 25% 75%, 1)").function,
                       .linear([.init(input: 0, output: 0), .init(input: 0.25, output: 0.25),
                                .init(input: 0.75, output: 0.25), .init(input: 1, output: 1)]))
        XCTAssertThrowsError(try easing("linear(0.5)"), "fewer than two stops is a failure")
        XCTAssertThrowsError(try easing("linear(0, 50%, 1)"))
    }

    // MARK: - CSS Easing 2: cubic-bezier() and steps()

    func testCubicBezierKnownPoints() throws {
        // ease(0.5) to the last bit (bisection in exact rationals gives the same double). WebKit's
        // UnitBezier, which stops its Newton iteration at an x error of 1e-7, answers 0.8024033877399112.
        XCTAssertEqual(try easing("ease")(0.5), 0.802403387584857, accuracy: 1e-15)
        XCTAssertEqual(try easing("ease")(0.5), 0.8024033877399112, accuracy: 1e-9, "WebKit's value")
        let easeInOut = try easing("ease-in-out")
        XCTAssertEqual(easeInOut(0.5), 0.5, accuracy: 1e-15)
        for x in stride(from: 0.05, to: 1, by: 0.05) { XCTAssertEqual(easeInOut(x) + easeInOut(1 - x), 1, accuracy: 1e-12) }
        // x1 = 1/3, x2 = 2/3 make X(t) = t, so the curve is Y(t) = 3t² − 2t³ at t = x.
        let smoothstep = CSSEasing(.cubicBezier(x1: 1.0 / 3, y1: 0, x2: 2.0 / 3, y2: 1))
        XCTAssertEqual(smoothstep(0.25), 0.15625, accuracy: 1e-12)
        XCTAssertEqual(smoothstep(0.9), 3 * 0.81 - 2 * 0.729, accuracy: 1e-12)
        XCTAssertEqual(try easing("cubic-bezier(0, 0, 1, 1)")(0.3), 0.3, accuracy: 1e-12)
        XCTAssertEqual(try easing("ease")(0), 0)
        XCTAssertEqual(try easing("ease")(1), 1)
    }

    /// §2.3.1: outside [0, 1] the tangent line at the nearer end, through P1 (else P2) or P2 (else P1).
    func testCubicBezierExtrapolatesAlongTheEndTangents() throws {
        let overshoot = try easing("cubic-bezier(0.5, -0.5, 0.5, 1.5)")
        XCTAssertEqual(overshoot(-0.1), 0.1, accuracy: 1e-15)
        XCTAssertEqual(overshoot(1.2), 0.8, accuracy: 1e-15)
        XCTAssertEqual(try easing("ease-in")(1.5), 1 + 0.5 / 0.58, accuracy: 1e-12, "x2 = 1: through P1 and P3")
        XCTAssertEqual(try easing("ease-out")(-0.5), -0.5 / 0.58, accuracy: 1e-12, "x1 = 0: through P2 and P0")
        XCTAssertEqual(try easing("cubic-bezier(0, 0.5, 0, 0.5)")(-1), 0, "no tangent: flat")
        XCTAssertThrowsError(try easing("cubic-bezier(1.2, 0, 0.5, 1)"), "x outside [0, 1] is invalid")
    }

    /// §2.4.1 for every step position, inside and outside [0, 1], and the before flag.
    func testStepPositions() throws {
        let end = try easing("steps(4)")
        XCTAssertEqual([0, 0.24, 0.25, 0.5, 0.99, 1, -0.1, 1.1].map { end($0) }, [0, 0, 0.25, 0.5, 0.75, 1, -0.25, 1])
        let start = try easing("steps(4, start)")
        XCTAssertEqual([0, 0.24, 0.25, 0.99, 1, 1.1].map { start($0) }, [0.25, 0.25, 0.5, 1, 1, 1.25])
        let none = try easing("steps(5, jump-none)")
        XCTAssertEqual([0, 0.19, 0.2, 0.5, 0.8, 0.99, 1].map { none($0) }, [0, 0, 0.25, 0.5, 1, 1, 1])
        let both = try easing("steps(3, jump-both)")
        XCTAssertEqual([0, 0.33, 0.34, 0.67, 0.999, 1].map { both($0) }, [0.25, 0.25, 0.5, 0.75, 0.75, 1])
        XCTAssertEqual(try easing("step-start")(0), 1)
        XCTAssertEqual(try easing("step-start")(0, beforeFlag: true), 0, "the bottom of the step with the before flag")
        XCTAssertEqual(try easing("step-end")(0.999), 0)
        XCTAssertEqual(try easing("step-end")(1), 1)
        XCTAssertThrowsError(try easing("steps(0)"))
        XCTAssertThrowsError(try easing("steps(1, jump-none)"))
    }

    /// Computed values: step-end is steps(1, end), steps(n) is steps(n, end); keywords stay keywords.
    func testEasingEqualityIsThatOfTheComputedValue() throws {
        XCTAssertEqual(try easing("step-end"), try easing("steps(1, end)"))
        XCTAssertEqual(try easing("steps(2)"), try easing("steps(2, end)"))
        XCTAssertNotEqual(try easing("steps(2, end)"), try easing("steps(2, jump-end)"))
        XCTAssertNotEqual(try easing("ease"), try easing("cubic-bezier(0.25, 0.1, 0.25, 1)"))
        XCTAssertEqual(try easing("LINEAR"), .linear)
    }

    // MARK: - CSS @keyframes and Web Animations

    static let cardCSS = """
    /* Segue export
       (two comment lines) */
    @property --glow { syntax: '<number>'; inherits: false; initial-value: 0; }
    @keyframes segue-card {
      0% { left: 0px; top: 568px; width: 320px; height: 568px; opacity: 1; transform: translate(0px, 0px) rotate(0rad) scale(1, 1); background-color: rgb(255 0 0 / 0.5); border-radius: 4px; --glow: 0; animation-timing-function: cubic-bezier(0.42, 0, 0.58, 1); }
      12.5% { left: 3.25px; }
      12.5% { top: 7px; animation-timing-function: steps(2); }
      100% { left: 10px; top: 0px; width: 100px; height: 100px; opacity: 0; transform: translate(100px, 50px) rotate(3.141592653589793rad) scale(2, 2); background-color: rgb(0 0 255 / 1); border-radius: 8px; --glow: 1; }
    }
    [data-segue="card"] { animation: segue-card 0.8s linear both; position: absolute; transform-origin: 50% 50%; }
    """

    /// The sample of the export's shape: per-property keyframes, repeated offsets with different timing
    /// functions, the interval's start keyframe's timing function, fill both.
    func testCSSKeyframesSample() throws {
        let css = try CSSKeyframesDocument(css: Self.cardCSS)
        XCTAssertEqual(css.viewIDs, ["card"])
        try assertCardSample { try css.values(view: "card", at: $0) }
    }

    /// The same animation as Web Animations keyframes gives the same values.
    func testWAAPIKeyframesSample() throws {
        let json = """
        {"duration": 800, "views": {"card": {"keyframes": [
          {"offset": 0, "easing": "cubic-bezier(0.42, 0, 0.58, 1)", "left": "0px", "top": "568px", "width": "320px", "height": "568px",
           "opacity": "1", "transform": "translate(0px, 0px) rotate(0rad) scale(1, 1)", "backgroundColor": "rgb(255 0 0 / 0.5)",
           "borderRadius": "4px", "--glow": "0"},
          {"offset": 0.125, "easing": "linear", "left": "3.25px"},
          {"offset": 0.125, "easing": "steps(2)", "top": "7px"},
          {"offset": 1, "easing": "linear", "left": "10px", "top": "0px", "width": "100px", "height": "100px", "opacity": 0,
           "transform": "translate(100px, 50px) rotate(3.141592653589793rad) scale(2, 2)", "backgroundColor": "rgb(0 0 255 / 1)",
           "borderRadius": "8px", "--glow": "1"}],
          "options": {"duration": 800, "fill": "both", "easing": "linear", "iterations": 1}}}, "warnings": []}
        """
        let document = try WAAPIDocument(json: Data(json.utf8), registrations: ["--glow": ("<number>", "0")])
        XCTAssertEqual(document.duration, 0.8)
        XCTAssertEqual(document.viewIDs, ["card"])
        try assertCardSample { try document.values(view: "card", at: $0) }
    }

    func assertCardSample(_ values: (Double) throws -> [String: WebAnimatedValue],
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let quarter = try values(0.05)  // p = 0.0625: half of the ease-in-out interval [0, 0.125]
        XCTAssertEqual(quarter["left"], .number(1.625), file: file, line: line)
        XCTAssertEqual(quarter["top"], .number(287.5), file: file, line: line)
        let atRepeat = try values(0.1)  // p = 0.125: the later keyframe at 12.5% starts the interval
        XCTAssertEqual(atRepeat["left"], .number(3.25), file: file, line: line)
        XCTAssertEqual(atRepeat["top"], .number(7), file: file, line: line)
        XCTAssertEqual(try values(0.4)["top"], .number(7), "steps(2) holds the first half", file: file, line: line)
        let mid = try values(0.45)  // p = 0.5625: half of [0.125, 1]
        XCTAssertEqual(mid["left"], .number(6.625), file: file, line: line)
        XCTAssertEqual(mid["top"], .number(3.5), file: file, line: line)
        let half = try values(0.4)  // p = 0.5: ease-in-out(0.5) = 0.5 on [0, 1]
        XCTAssertEqual(half["width"]?.number ?? .nan, 210, accuracy: 1e-12, file: file, line: line)
        XCTAssertEqual(half["opacity"]?.number ?? .nan, 0.5, accuracy: 1e-12, file: file, line: line)
        XCTAssertEqual(half["border-radius"]?.number ?? .nan, 6, accuracy: 1e-12, file: file, line: line)
        XCTAssertEqual(half["--glow"]?.number ?? .nan, 0.5, accuracy: 1e-12, file: file, line: line)
        assertClose(half["background-color"]?.color, [85, 0, 170, 0.75], file: file, line: line)
        assertClose(half["transform"]?.matrix, [0, 1.5, -1.5, 0, 50, 25], file: file, line: line)
        let end = try values(0.8)
        XCTAssertEqual(end["left"], .number(10), file: file, line: line)
        XCTAssertEqual(end["top"], .number(0), file: file, line: line)
        assertClose(end["transform"]?.matrix, [-2, 0, 0, -2, 100, 50], file: file, line: line)
        XCTAssertEqual(try values(5)["opacity"], .number(0), "fill forwards", file: file, line: line)
        XCTAssertEqual(try values(-1)["top"], .number(568), "fill backwards", file: file, line: line)
    }

    func assertClose(_ actual: [Double]?, _ expected: [Double], accuracy: Double = 1e-9, _ message: String = "",
                     file: StaticString = #filePath, line: UInt = #line) {
        guard let actual, actual.count == expected.count,
              zip(actual, expected).allSatisfy({ abs($0 - $1) <= accuracy }) else {
            return XCTFail("\(actual.map { "\($0)" } ?? "nil") is not \(expected) \(message)", file: file, line: line)
        }
    }

    func cssValue(_ keyframes: String, rule: String = "animation: k 1s linear both;", _ property: String,
                  at t: Double) throws -> WebAnimatedValue? {
        let css = try CSSKeyframesDocument(css: "@keyframes k { \(keyframes) } [data-segue=\"v\"] { \(rule) }")
        return try css.value(of: property, view: "v", at: t)
    }

    /// Web Animations 1 §"The effect value of a keyframe effect": at a repeated offset the later keyframe
    /// starts the interval (right-hand limit), the earlier one ends the interval before it.
    func testRepeatedOffsetGivesTheRightHandLimit() throws {
        let frames = "0% { left: 0px; } 50% { left: 100px; } 50% { left: 200px; animation-timing-function: steps(2); } 100% { left: 300px; }"
        let expected: [(Double, Double)] = [(0, 0), (0.25, 50), (0.4999, 99.98), (0.5, 200), (0.74, 200), (0.75, 250), (1, 300), (2, 300)]
        for (t, left) in expected {
            XCTAssertEqual(try cssValue(frames, "left", at: t)?.number ?? .nan, left, accuracy: 1e-9, "t = \(t)")
        }
    }

    /// CSS Animations 2 §"Keyframes": blocks with the same offset and timing function merge, the later
    /// declaration winning — no jump. Web Animations keyframes are never merged.
    func testSameOffsetAndTimingFunctionMergeInCSSButNotInWAAPI() throws {
        let frames = "0% { opacity: 0; } 50% { opacity: 0.2; } 50% { opacity: 0.6; } 100% { opacity: 1; }"
        XCTAssertEqual(try cssValue(frames, "opacity", at: 0.25)?.number ?? .nan, 0.3, accuracy: 1e-12)
        XCTAssertEqual(try cssValue(frames, "opacity", at: 0.5), .number(0.6))
        let json = """
        {"views": {"v": {"keyframes": [{"offset": 0, "opacity": "0"}, {"offset": 0.5, "opacity": "0.2"},
          {"offset": 0.5, "opacity": "0.6"}, {"offset": 1, "opacity": "1"}], "options": {"duration": 1000, "fill": "both"}}}}
        """
        let waapi = try WAAPIDocument(json: Data(json.utf8))
        XCTAssertEqual(try waapi.values(view: "v", at: 0.25)["opacity"]?.number ?? .nan, 0.1, accuracy: 1e-12)
        XCTAssertEqual(try waapi.values(view: "v", at: 0.5)["opacity"], .number(0.6))
    }

    /// A keyframe's `animation-timing-function` overrides the animation's, which is every other keyframe's
    /// default; implicit 0% and 100% keyframes take the view's own value.
    func testPerKeyframeTimingFunctionsAndImplicitKeyframes() throws {
        let frames = "0% { left: 0px; animation-timing-function: linear; } 50% { left: 100px; } 100% { left: 200px; }"
        let rule = "animation: k 1s steps(2) both;"
        XCTAssertEqual(try cssValue(frames, rule: rule, "left", at: 0.125), .number(25), "linear on [0, 0.5]")
        XCTAssertEqual(try cssValue(frames, rule: rule, "left", at: 0.7), .number(100), "steps(2) on [0.5, 1]")
        XCTAssertEqual(try cssValue(frames, rule: rule, "left", at: 0.75), .number(150))
        let implicit = "50% { opacity: 0.5; }"
        XCTAssertEqual(try cssValue(implicit, rule: "animation: k 1s linear both; opacity: 0.9;", "opacity", at: 0.25)?.number ?? .nan,
                       0.7, accuracy: 1e-12)
        XCTAssertEqual(try cssValue(implicit, rule: "animation: k 2s 1s linear both;", "opacity", at: 1.5)?.number ?? .nan,
                       0.75, accuracy: 1e-12, "initial opacity 1; delay 1 s, duration 2 s")
        XCTAssertNil(try cssValue(implicit, rule: "animation: k 1s linear;", "opacity", at: 2), "fill none: not in effect after")
    }

    /// Web Animations keyframes: missing offsets are spread evenly, the effect's `easing` shapes the whole
    /// iteration before the keyframes' own, IDL names become CSS names.
    func testWAAPIOffsetsAndEffectEasing() throws {
        let json = """
        {"views": {"v": {"keyframes": [{"opacity": "0"}, {"opacity": "0.5", "easing": "steps(2, start)"}, {"opacity": 1}],
          "options": {"duration": 1000, "fill": "both", "easing": "steps(2)"}}}}
        """
        let document = try WAAPIDocument(json: Data(json.utf8))
        XCTAssertEqual(document.effects["v"]?.keyframes.map(\.offset), [0, 0.5, 1])
        XCTAssertEqual(try document.values(view: "v", at: 0.3)["opacity"], .number(0), "steps(2) on the iteration")
        XCTAssertEqual(try document.values(view: "v", at: 0.5)["opacity"], .number(0.75), "then steps(2, start) at 0")
        XCTAssertEqual(try document.values(view: "v", at: 1)["opacity"], .number(1))
        XCTAssertEqual(WAAPIDocument.cssName("borderTopLeftRadius"), "border-top-left-radius")
        XCTAssertEqual(WAAPIDocument.cssName("--glow"), "--glow")
        XCTAssertThrowsError(try WAAPIDocument(json: Data(#"{"views": {"v": {"keyframes": [{"left": "50%"}]}}}"#.utf8)))
    }

    /// The timing model: delay, iterations, alternate direction, the effect's own easing (WAAPI).
    func testTimingModel() throws {
        let timing = WebEffectTiming(duration: 2, delay: 1, iterations: 2, direction: .alternate, fill: .both)
        XCTAssertEqual(timing.progress(at: 0).progress, 0)
        XCTAssertEqual(timing.progress(at: 2).progress, 0.5)
        XCTAssertEqual(timing.progress(at: 3.5).progress, 0.75, "second iteration runs backwards")
        XCTAssertEqual(timing.progress(at: 5).progress, 0, "ends at the start of the reversed iteration")
        XCTAssertNil(WebEffectTiming(duration: 1, delay: 1).progress(at: 0.5).progress, "fill none, before")
        let stepped = WebEffectTiming(duration: 1, delay: 1, fill: .backwards, easing: try easing("steps(2, start)"))
        XCTAssertEqual(stepped.progress(at: 0.5).progress, 0, "before flag: bottom of the first step during the delay")
        XCTAssertEqual(stepped.progress(at: 1).progress, 0.5)
        let curve = try WAAPICurve(json: Data(#"{"easing": "ease", "duration": 300, "id": "x"}"#.utf8))
        XCTAssertEqual(curve.progress(at: 0.15), 0.802403387584857, accuracy: 1e-15)
        XCTAssertEqual(curve.progress(at: 1), 1)
        XCTAssertEqual(curve.progress(at: -1), 0)
    }
}

// MARK: - Colours and transforms

extension WebEvaluatorTests {
    func interpolate(_ from: String, _ to: String, _ p: Double) throws -> [Double] {
        TransformInterpolation.interpolate(try CSSTransformList.parse(from), try CSSTransformList.parse(to), p).values
    }

    /// CSS Color 4 §"Interpolating with Alpha": legacy colours mix premultiplied in sRGB, so fading red
    /// out toward transparent blue stays red (straight alpha would pass through purple).
    func testColoursInterpolatePremultiplied() throws {
        let red = try CSSColor.parse("rgb(255 0 0 / 1)"), clearBlue = try CSSColor.parse("rgb(0 0 255 / 0)")
        XCTAssertEqual(WebInterpolation.color(red, clearBlue, 0.5).components, [255, 0, 0, 0.5])
        XCTAssertEqual(WebInterpolation.color(red, clearBlue, 1).components, [0, 0, 0, 0], "alpha 0: transparent black")
        let mix = WebInterpolation.color(try CSSColor.parse("rgba(255, 0, 0, 0.5)"), try CSSColor.parse("#0000ff"), 0.5)
        assertClose(mix.components, [85, 0, 170, 0.75])
        XCTAssertEqual(try CSSColor.parse("#ff000080").components, [255, 0, 0, 128.0 / 255])
        XCTAssertEqual(try CSSColor.parse("rgb(100% 0% 50% / 50%)").components, [255, 0, 127.5, 0.5])
        XCTAssertEqual(try CSSColor.parse("rgb(300, -5, 0)").components, [255, 0, 0, 1], "clamped when parsed")
    }

    /// Same function names: each argument interpolates, so rotate(0) → rotate(2π) turns a full turn.
    /// Written as a matrix, the turn is lost (CSS Transforms 1 §"Interpolation of Matrices" example).
    func testRotateFunctionTurnsButItsMatrixDoesNot() throws {
        let turn = "rotate(6.283185307179586rad)"
        assertClose(try interpolate("rotate(0rad)", turn, 0.25), [0, 1, -1, 0, 0, 0])
        assertClose(try interpolate("rotate(0rad)", turn, 0.5), [-1, 0, 0, -1, 0, 0])
        let turnMatrix = "matrix(1, -2.4492935982947064e-16, 2.4492935982947064e-16, 1, 0, 0)"
        for p in [0.25, 0.5, 0.75] { assertClose(try interpolate("rotate(0rad)", turnMatrix, p), [1, 0, 0, 1, 0, 0]) }
        let mismatched = "translate(0px, 0px) \(turn)"
        assertClose(try interpolate("rotate(0rad)", mismatched, 0.5), [1, 0, 0, 1, 0, 0], "different lists: matrices")
        assertClose(try interpolate("translate(0px, 0px) rotate(0rad)", mismatched, 0.5), [-1, 0, 0, -1, 0, 0])
    }

    /// The spec's "Don't rotate the long way around" replaces an angle of exactly 0 by 360, so identity →
    /// a half turn goes 360° → 180°, through 270° (not 90°).
    func testMatrixInterpolationFollowsTheSpecsZeroTo360Substitution() throws {
        let identity = "matrix(1, 0, 0, 1, 0, 0)", halfTurn = "matrix(-1, 0, 0, -1, 0, 0)"
        assertClose(try interpolate(identity, halfTurn, 0.5), [0, -1, 1, 0, 0, 0])
        assertClose(try interpolate(identity, halfTurn, 0), [1, 0, 0, 1, 0, 0])
        assertClose(try interpolate(identity, halfTurn, 1), [-1, 0, 0, -1, 0, 0])
        let a = try XCTUnwrap(DecomposedMatrix(decomposing: .identity))
        let b = try XCTUnwrap(DecomposedMatrix(decomposing: CSSMatrix(-1, 0, 0, -1, 0, 0)))
        XCTAssertEqual(DecomposedMatrix.interpolate(a, b, 0.5).angle, 270)
    }

    /// The flip rule: scaleX(−1) → scaleY(−1) becomes an unflipped rotation from −180° to 0° with the y
    /// axis flipped throughout (without it the scale would pass through (0, 0), a singular matrix).
    func testMatrixInterpolationFlipRule() throws {
        let flipX = "matrix(-1, 0, 0, 1, 0, 0)", flipY = "matrix(1, 0, 0, -1, 0, 0)"
        assertClose(try interpolate(flipX, flipY, 0.5), [0, -1, -1, 0, 0, 0])
        assertClose(try interpolate(flipX, flipY, 0), [-1, 0, 0, 1, 0, 0])
        assertClose(try interpolate(flipX, flipY, 1), [1, 0, 0, -1, 0, 0])
    }

    /// Decomposition and recomposition give back a translate–rotate–scale matrix; with a skew the spec's
    /// recomposition moves the translation by the residual 2×2 matrix (pinned as written).
    func testDecompositionRoundTripAndTheSpecsTranslationLine() throws {
        let matrix = try CSSTransformList.parse("translate(10px, 20px) rotate(30deg) scale(2, 3)").matrix
        assertClose(try XCTUnwrap(DecomposedMatrix(decomposing: matrix)).recomposed.values, matrix.values, accuracy: 1e-12)
        let skewed = "matrix(1, 0, 1, 1, 10, 20)"
        assertClose(try interpolate(skewed, skewed, 0), [1, 0, 1, 1, 10 + 20 / 2.0.squareRoot(), 20 / 2.0.squareRoot()])
    }

    /// CSS Transforms 1 §"Interpolation of Transforms": primitives, `none`, list extension, discrete fallback.
    func testTransformListRules() throws {
        assertClose(try interpolate("translateX(10px)", "translateY(20px)", 0.5), [1, 0, 0, 1, 5, 10])
        assertClose(try interpolate("none", "scale(2)", 0.5), [1.5, 0, 0, 1.5, 0, 0])
        let c = cos(Double.pi / 4), s = sin(Double.pi / 4)
        assertClose(try interpolate("translate(10px) rotate(90deg)", "none", 0.5), [c, s, -s, c, 5, 0])
        assertClose(try interpolate("scale(1.5)", "scale(1.5) rotate(720deg)", 0.25), [-1.5, 0, 0, -1.5, 0, 0])
        assertClose(try interpolate("skewX(0)", "skewX(45deg)", 0.5), [1, 0, tan(Double.pi / 8), 1, 0, 0])
        let singular = "matrix(0, 0, 0, 0, 0, 0)", shifted = "matrix(1, 0, 0, 1, 10, 0)"
        XCTAssertEqual(try interpolate(singular, shifted, 0.4), [0, 0, 0, 0, 0, 0], "non-invertible: discrete")
        XCTAssertEqual(try interpolate(singular, shifted, 0.5), [1, 0, 0, 1, 10, 0])
        XCTAssertThrowsError(try CSSTransformList.parse("translate(50%)"))
        XCTAssertThrowsError(try CSSTransformList.parse("rotate(45)"))
    }
}

// MARK: - Lottie

extension WebEvaluatorTests {
    static let lottie = """
    {"v": "5.7.0", "fr": 30, "ip": 0, "op": 60, "w": 375, "h": 667, "layers": [
      {"ty": 4, "nm": "card", "ind": 1, "ip": 0, "op": 60, "st": 0, "ks": {
        "p": {"a": 1, "k": [
          {"t": 0, "s": [0, 0, 0], "o": {"x": [0.42], "y": [0]}, "i": {"x": [0.58], "y": [1]}},
          {"t": 30, "s": [100, 50, 0], "h": 1},
          {"t": 60, "s": [200, 50, 0]}]},
        "a": {"a": 0, "k": [160, 284, 0]},
        "s": {"a": 1, "k": [
          {"t": 0, "s": [100, 100], "o": {"x": [0, 0.3333333333333333], "y": [0, 0]}, "i": {"x": [1, 0.6666666666666666], "y": [1, 1]}},
          {"t": 10, "s": [200, 300], "o": {"x": [0.9], "y": [0.9]}, "i": {"x": [0.1], "y": [0.1]}}]},
        "r": {"a": 1, "k": [
          {"t": 0, "s": [0], "o": {"x": 0.3333333333333333, "y": 0}, "i": {"x": 0.6666666666666666, "y": 1}},
          {"t": 10, "s": [90], "o": {"x": 0.9, "y": 0.9}, "i": {"x": 0.1, "y": 0.1}}]},
        "o": {"a": 0, "k": 100}}}]}
    """

    /// lottie-spec "Keyframe Easing": both handles of the start keyframe shape the segment; `h` holds;
    /// before the first and after the last keyframe the end values hold.
    func testLottieKeyframes() throws {
        let document = try LottieDocument(json: Data(Self.lottie.utf8))
        XCTAssertEqual(document.frame(atSeconds: 0.5), 15)
        func position(_ frame: Double) throws -> [Double] { try document.transform(layer: "card", at: frame).position }
        XCTAssertEqual(try position(-5), [0, 0, 0])
        assertClose(try position(15), [50, 25, 0], accuracy: 1e-12)  // ease-in-out handles: E(0.5) = 0.5
        XCTAssertEqual(try position(30), [100, 50, 0])
        XCTAssertEqual(try position(45), [100, 50, 0], "held")
        XCTAssertEqual(try position(59.99), [100, 50, 0], "held until the next keyframe")
        XCTAssertEqual(try position(60), [200, 50, 0])
        XCTAssertEqual(try position(90), [200, 50, 0])
        // Handles (1/3, 0), (2/3, 1) make E(x) = 3x² − 2x³: E(0.25) = 0.15625. The end keyframe's own
        // handles (which would give another curve) do not take part.
        let transform = try document.transform(layer: "card", at: 2.5)
        XCTAssertEqual(transform.rotation, 90 * 0.15625, accuracy: 1e-9)
        assertClose(transform.scale, [125, 100 + 200 * 0.15625], "per-dimension handles")
        XCTAssertEqual(transform.anchor, [160, 284, 0])
        XCTAssertEqual(transform.opacity, 100)
        XCTAssertEqual(document.transforms(at: 10)["card"]?.rotation, 90)
        XCTAssertThrowsError(try document.transform(layer: "nope", at: 0))
    }
}
