import Foundation
@testable import SegueEngine
import SegueTestSupport
import XCTest

/// XCTest re-exports Foundation, whose `AffineTransform` would be ambiguous here.
private typealias AffineTransform = SegueEngine.AffineTransform

/// curves.json kinds `keyframes`, `uiview_keyframes` and `uiview_keyframes_angle`, each case to
/// its own tolerance, built as the HTTP API builds them (../shared/conformance/check.py
/// `plan_keyframes`, `uiview_request`).
final class KeyframeVectorTests: XCTestCase {
    func testKeyframeCases() throws {
        var checked = 0
        for vector in try VectorCase.load("curves.json") where vector.fields["kind"] as? String == "keyframes" {
            let p = vector.params
            let mode = try XCTUnwrap(CalculationMode(rawValue: p["mode"] as? String ?? ""), vector.id)
            let values = try XCTUnwrap(p["values"] as? [Any], vector.id).map(RenderFixtures.vectorValue)
            let track = KeyframeTrack(
                values: values, keyTimes: RenderFixtures.numbersOrNil(p["keyTimes"]),
                timingFunctions: try (p["timingFunctions"] as? [Any]).map { try $0.map { try RenderFixtures.optionalBezier($0).map(TimingCurve.cubicBezier) } },
                mode: mode, tension: RenderFixtures.numbersOrNil(p["tensionValues"]),
                continuity: RenderFixtures.numbersOrNil(p["continuityValues"]),
                bias: RenderFixtures.numbersOrNil(p["biasValues"]))
            XCTAssertEqual(track.ignoresTiming, mode == .paced || mode == .cubicPaced, vector.id)
            if let keyTimes = p["effectiveKeyTimes"] as? [Any] {
                try RenderFixtures.assertAllClose(
                    track.effectiveKeyTimes ?? [], VectorCase.numbers(keyTimes), 1e-12, "\(vector.id) key times")
            } else {
                XCTAssertNil(track.effectiveKeyTimes, vector.id)
            }
            XCTAssertEqual(track.warnings, [], vector.id)
            let curve = try RenderFixtures.optionalBezier(p["timingFunction"] as Any)
            let evaluate = { (t: Double) in track.value(at: track.ignoresTiming ? t : curve?.progress(t) ?? t) }
            try RenderFixtures.compare(vector, evaluate)
            checked += 1
        }
        XCTAssertEqual(checked, 8)
    }

    func testUIViewKeyframeCases() throws {
        var checked = 0
        for vector in try VectorCase.load("curves.json") {
            let kind = vector.fields["kind"] as? String
            guard kind == "uiview_keyframes" || kind == "uiview_keyframes_angle" else { continue }
            let p = vector.params
            let mode = try XCTUnwrap(CalculationMode(rawValue: p["calculationMode"] as? String ?? ""), vector.id)
            let curve = try XCTUnwrap(Self.uiViewCurves[p["curve"] as? String ?? ""], vector.id)
            let frames = try XCTUnwrap(p["keyframes"] as? [[String: Any]], vector.id)
            func keyframes<Value>(_ read: (Any) throws -> Value) throws -> [RelativeKeyframe<Value>] {
                try frames.map {
                    RelativeKeyframe(
                        start: try XCTUnwrap(VectorCase.number($0["start"])),
                        duration: try XCTUnwrap(VectorCase.number($0["duration"])), value: try read($0["value"] as Any))
                }
            }
            let warp = { (t: Double) in mode == .paced || mode == .cubicPaced ? t : curve?.progress(t) ?? t }

            if p["property"] as? String == "transform" {
                let end = { (value: Any) in TransformEnd.matrix(AffineTransform(VectorCase.numbers(value))) }
                let (keyTimes, values) = UIViewKeyframes.track(
                    from: end(p["from"] as Any), keyframes: try keyframes(end))
                try RenderFixtures.assertAllClose(
                    keyTimes, VectorCase.numbers(p["derived_keyTimes"]), 1e-12, "\(vector.id) key times")
                let track = TransformKeyframeTrack(
                    values: values, keyTimes: keyTimes, timingFunctions: nil, mode: mode, tension: nil, continuity: nil,
                    bias: nil)
                XCTAssertEqual(track.warnings, [], vector.id)
                if kind == "uiview_keyframes_angle" {
                    try RenderFixtures.compareAngles(vector) { t in
                        let m = track.value(at: warp(t))
                        return atan2(m.b, m.a)
                    }
                } else {
                    try RenderFixtures.compare(vector) { t in track.value(at: warp(t)).array }
                }
            } else {
                let (keyTimes, values) = UIViewKeyframes.track(
                    from: RenderFixtures.vectorValue(p["from"] as Any),
                    keyframes: try keyframes(RenderFixtures.vectorValue))
                try RenderFixtures.assertAllClose(
                    keyTimes, VectorCase.numbers(p["derived_keyTimes"]), 1e-12, "\(vector.id) key times")
                let derived = try XCTUnwrap(p["derived_values"] as? [Any], vector.id).map(RenderFixtures.vectorValue)
                XCTAssertEqual(values, derived, vector.id)
                let track = KeyframeTrack(
                    values: values, keyTimes: keyTimes, timingFunctions: nil, mode: mode, tension: nil, continuity: nil,
                    bias: nil)
                XCTAssertEqual(track.warnings, [], vector.id)
                try RenderFixtures.compare(vector) { t in track.value(at: warp(t)) }
            }
            checked += 1
        }
        XCTAssertEqual(checked, 6)
    }

    /// A symmetric path traversed at constant speed is symmetric in time, and its middle key
    /// value is reached exactly at half the length: the exact arc length keeps both (a fixed
    /// quadrature across the zero-speed key point broke them by ~1e-5).
    func testCubicPacedSymmetricPathIsSymmetricInTime() {
        for values in [[310.0, 60, 120, 60, 310], [0.0, 10, 0, 10, 0], [-5.0, 40, 7, 40, -5]] {
            let track = KeyframeTrack(values: values.map { [$0] }, keyTimes: nil, timingFunctions: nil, mode: .cubicPaced,
                                      tension: nil, continuity: nil, bias: nil)
            assertClose(track.value(at: 0.5)[0], values[2], 1e-9, "\(values) middle")
            for k in 1..<50 {
                let t = Double(k) / 100
                assertClose(track.value(at: t)[0], track.value(at: 1 - t)[0], 1e-9, "\(values) t=\(t) against its mirror")
            }
        }
    }

    /// UIViewAnimationCurve → the Bézier Core Animation uses, with float32 control points as
    /// check.py's UIVIEW_CURVES (the vectors were computed with them); nil is linear.
    static let uiViewCurves: [String: CubicBezier?] = [
        "UIViewAnimationCurveLinear": nil,
        "UIViewAnimationCurveEaseInOut": CubicBezier(x1: Double(Float(0.42)), y1: 0, x2: Double(Float(0.58)), y2: 1),
        "UIViewAnimationCurveEaseIn": CubicBezier(x1: Double(Float(0.42)), y1: 0, x2: 1, y2: 1),
        "UIViewAnimationCurveEaseOut": CubicBezier(x1: 0, y1: 0, x2: Double(Float(0.58)), y2: 1),
    ]
}

/// Colour interpolation (docs/curves.md "Colour interpolation"): component-wise RGBA lerp, as a two-value linear track.
final class ColorInterpolationTests: XCTestCase {
    func testColorCases() throws {
        var checked = 0
        for vector in try VectorCase.load("curves.json") where vector.fields["kind"] as? String == "color_interpolate" {
            let track = KeyframeTrack(
                values: [VectorCase.numbers(vector.params["from"]), VectorCase.numbers(vector.params["to"])],
                keyTimes: nil, timingFunctions: nil, mode: .linear, tension: nil, continuity: nil, bias: nil)
            try RenderFixtures.compare(vector) { track.value(at: $0) }
            checked += 1
        }
        XCTAssertEqual(checked, 1)
    }
}
