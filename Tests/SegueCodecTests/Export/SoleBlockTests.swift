import Foundation
import XCTest
import SegueCodec
import SegueEngine
import SegueJSON
import SegueTestSupport

/// A view that one block animation alone moves is exported as that block's keyframes, with an
/// error bound worked out from the easing's instead of searched (docs/exports.md "One easing per
/// block"): the bound it states must hold over continuous time when the export is played by the
/// browser evaluators, and must be the render's largest error or above it.
final class SoleBlockTests: XCTestCase {
    static let scenes: [(String, String)] = [
        ("springs on frame, alpha and rotation, three damping ratios", #"""
        {"fps": 60, "views": {
           "a": {"frame": [0, 0, 100, 40], "alpha": 0, "transform": {"rotation": 0}},
           "b": {"frame": [0, 50, 100, 40], "alpha": 0, "transform": {"rotation": 0}},
           "c": {"frame": [0, 90, 100, 40], "alpha": 0.5, "transform": {"rotation": 0}}},
         "animations": [
          {"view": "a", "duration": 1, "timing": {"type": "spring", "dampingRatio": 0.5}, "to": {"frame": [200, 0, 120, 40], "alpha": 1, "transform": {"rotation": 3}}},
          {"view": "b", "duration": 0.7, "timing": {"type": "spring", "dampingRatio": 0.8}, "to": {"frame": [200, 50, 120, 40], "alpha": 1, "transform": {"rotation": 1}}},
          {"view": "c", "timing": {"type": "spring", "response": 0.4, "dampingRatio": 0.3}, "to": {"frame": [-50, 90, 60, 80], "alpha": 0.2, "transform": {"rotation": -2, "scale": [1.5, 0.5]}}}]}
        """#),
        ("a delayed overshooting Bézier block held before and after, with radius and a custom channel", #"""
        {"views": {"v": {"center": [50, 50], "bounds": [0, 0, 40, 40], "cornerRadius": 0, "glow": 0, "transform": {"scale": [1, 1]}}},
         "animations": [{"view": "v", "delay": 0.3, "duration": 0.5, "timing": "cubic-bezier(0.3, 1.4, 0.6, 0.9)",
                         "to": {"center": [250, 10], "bounds": [0, 0, 80, 20], "cornerRadius": 10, "glow": 3, "transform": {"scale": [2, 0.5]}}}],
         "until": 1.3}
        """#),
        ("an opaque colour, eased", #"""
        {"views": {"v": {"frame": [0, 0, 10, 10], "backgroundColor": [1, 0.5, 0, 1]}},
         "animations": [{"view": "v", "duration": 0.4, "timing": "ease-in-out", "to": {"backgroundColor": [0, 0.2, 1, 1], "frame": [0, 0, 30, 10]}}]}
        """#),
    ]

    func testTheStatedBoundHoldsAndIsTheLargestError() throws {
        for (name, json) in Self.scenes {
            let request = try ExportErrorTests.render(json)
            let scene = request.scene
            for tolerance in [1e-3, 1e-2] {
                let export = try RenderExport(request, options: ExportOptions(tolerance: tolerance, geometry: .layout))
                let text = String(decoding: export.css(), as: UTF8.self)
                // The block's keyframes: its two ends, and the holds at 0 % and 100 %.
                for (rule, blocks) in BlockEasingTests.blocks(text) {
                    XCTAssertLessThanOrEqual(Set(blocks.map(\.0)).count, 4, "\(name) \(rule): \(text)")
                }
                let css = try CSSKeyframesDocument(css: text)
                let scales = scene.channels.map { channel in
                    let frames = request.times.map { channel.value(at: $0).numbers }
                    return (0..<channel.kind.width).map { k in max(1, (frames.map { $0[k] }.max() ?? 0) - (frames.map { $0[k] }.min() ?? 0)) }
                }
                var largest = 0.0
                for t in ExportErrorTests.times(scene.end, count: 3000) {
                    for view in css.viewIDs {
                        for (property, value) in try css.values(view: view, at: t) {
                            let truth = try XCTUnwrap(ExportErrorTests.segue(scene, view: view, property: property, at: t), property)
                            let bounds = ExportErrorTests.bounds(scene, scales, view: view, property: property, tolerance: tolerance)
                            let shown = ExportErrorTests.components(value)
                            for k in shown.indices { largest = max(largest, abs(shown[k] - truth[k]) / bounds[k] * tolerance) }
                        }
                    }
                }
                // An exact curve's stated error is 0: the evaluator's Bézier solver and Segue's
                // agree to a few parts in 10^12 of the scale, which is all the allowance.
                XCTAssertLessThanOrEqual(largest, export.maxError * (1 + 1e-6) + 1e-10, "\(name) at \(tolerance): the stated bound")
                XCTAssertLessThanOrEqual(export.maxError, tolerance, "\(name) at \(tolerance)")
                XCTAssertGreaterThan(largest, 0, "\(name) at \(tolerance): the evaluation compared something")
            }
        }
    }

    /// The engine offers a channel as one block's piece only when nothing but that block's
    /// single uninterrupted pass moves it; a delay before it is fine.
    func testOnlyAnUninterruptedSinglePassIsASoleBlock() throws {
        func sole(_ animation: String, commands: String = "[]") throws -> ExactPiece? {
            let request = try ExportErrorTests.render(#"{"views": {"v": {"alpha": 0}, "w": {"alpha": 0}}, "animations": ["#
                + animation + #"], "commands": "# + commands + "}")
            let channel = try XCTUnwrap(request.scene.channels.first { $0.view == "v" && $0.name == "alpha" })
            return channel.soleBlock
        }
        let plain = try XCTUnwrap(sole(#"{"id": "a", "view": "v", "delay": 0.2, "duration": 0.5, "timing": "ease", "to": {"alpha": 1}}"#))
        XCTAssertEqual(plain.start, 0.2)
        XCTAssertEqual(plain.end, 0.7)
        XCTAssertEqual(plain.easing, .curve(.cubicBezier(CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1))))
        let spring = try XCTUnwrap(sole(#"{"view": "v", "duration": 0.5, "timing": {"type": "spring", "dampingRatio": 0.5}, "to": {"alpha": 1}}"#))
        guard case .timed = spring.easing else { return XCTFail("a spring block is a timed piece: \(spring.easing)") }
        // Anything else that moves the channel: none.
        XCTAssertNil(try sole(#"{"view": "v", "duration": 0.5, "repeatCount": 2, "to": {"alpha": 1}}"#))
        XCTAssertNil(try sole(#"{"view": "v", "duration": 0.5, "autoreverses": true, "to": {"alpha": 1}}"#))
        XCTAssertNil(try sole(#"{"view": "v", "duration": 0.5, "to": {"alpha": 1}}, {"view": "v", "delay": 0.2, "duration": 0.5, "to": {"alpha": 0.5}}"#))
        XCTAssertNil(try sole(#"{"view": "v", "duration": 0.5, "blend": "additive", "to": {"alpha": 1}}"#))
        XCTAssertNil(try sole(#"{"id": "a", "view": "v", "duration": 0.5, "to": {"alpha": 1}}"#,
                              commands: #"[{"at": 0.2, "animation": "a", "op": "pause"}]"#))
        XCTAssertNil(try sole(#"{"id": "a", "view": "v", "duration": 0.5, "autostart": false, "to": {"alpha": 1}}"#,
                              commands: #"[{"at": 0.1, "animation": "a", "op": "start"}, {"at": 0.3, "animation": "a", "op": "reverse"}]"#))
        XCTAssertNil(try sole(#"{"view": "v", "duration": 0.5, "keyframes": [{"start": 0, "duration": 1, "to": {"alpha": 1}}]}"#))
        XCTAssertNil(try sole(#"{"view": "v", "to": {"alpha": 1}, "dynamics": {"model": "spring", "mass": 1, "stiffness": 100, "damping": 10}}"#))
    }

    /// The export estimate counts each spring's `linear()` at the request's tolerance: a
    /// hundredth of it needs about ten times the stops (`Spring.leastKeyframes`), whose refinement
    /// the estimate adds to the fit's fixed grid.
    func testTheEstimateCountsTheLinearAtTheRequestsTolerance() throws {
        let request = try ExportErrorTests.render(Self.scenes[0].1)
        for format in [SceneCost.ExportFormat.keyframes, .lottie] {
            let coarse = RenderExport.estimatedWork(request, format: format, tolerance: 1e-2)
            let fine = RenderExport.estimatedWork(request, format: format, tolerance: 1e-4)
            XCTAssertGreaterThan(fine, coarse * 1.1, "\(format)")
        }
    }
}
