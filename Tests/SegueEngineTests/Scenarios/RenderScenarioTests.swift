import Foundation
import XCTest
@testable import SegueHTTP

/// Transitions through `POST /v1/render`, with expected values computed here from the
/// formulas of shared/reference (never pasted from the implementation's output).
final class RenderScenarioTests: XCTestCase {
    let service = SegueService()

    func render(_ json: String, query: [String: String] = [:]) throws -> [String: Any] {
        let response = service.respond(to: HTTPRequest(method: "POST", path: "/v1/render", query: query, body: Array(json.utf8)))
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    func channel(_ body: [String: Any], _ view: String, _ name: String) throws -> [Any] {
        let views = try XCTUnwrap(body["views"] as? [String: Any])
        return try XCTUnwrap((views[view] as? [String: Any])?[name] as? [Any])
    }

    /// UIKit's duration spring for v = 0: ω = ln(ζ / (ε√(1−ζ²))) / (ζT), ε = 0.001 (the root the
    /// Newton iteration converges to, springs.md §3), and the CASpringAnimation curve.
    func uikitSpringProgress(ratio zeta: Double, duration: Double, at t: Double) -> Double {
        let omega = log(zeta / (0.001 * (1 - zeta * zeta).squareRoot())) / (zeta * duration)
        let omegaD = omega * (1 - zeta * zeta).squareRoot()
        return 1 - exp(-zeta * omega * t) * (cos(omegaD * t) + zeta * omega / omegaD * sin(omegaD * t))
    }

    func testBouncingPresentOvershootsAndLandsExactlyAtTheDuration() throws {
        let body = try render("""
        {"fps": 60, "views": {"card": {"frame": [0, 568, 320, 568], "alpha": 1}},
         "animations": [{"id": "present", "view": "card", "duration": 0.8,
                         "timing": {"type": "spring", "dampingRatio": 0.6, "initialVelocity": 0},
                         "to": {"frame": [0, 0, 320, 568]}}]}
        """)
        XCTAssertEqual(body["duration"] as? Double, 0.8)
        let t = try XCTUnwrap(body["t"] as? [Double])
        XCTAssertEqual(t.count, 49)
        XCTAssertEqual(body["frameCount"] as? Int, 49)
        let frames = try XCTUnwrap(channel(body, "card", "frame") as? [[Double]])
        var overshoot = false
        for (i, time) in t.enumerated() {
            let y = frames[i][1]
            XCTAssertEqual(frames[i][0], 0)
            XCTAssertEqual(frames[i][2], 320)
            if time >= 0.8 {
                XCTAssertEqual(y, 0, "exactly the final frame from the duration on")
            } else {
                XCTAssertEqual(y, 568 - 568 * uikitSpringProgress(ratio: 0.6, duration: 0.8, at: time), accuracy: 1e-6)
            }
            if y < 0 { overshoot = true }
        }
        XCTAssertTrue(overshoot, "a damping ratio of 0.6 overshoots the final frame")
        let alpha = try XCTUnwrap(channel(body, "card", "alpha") as? [Double])
        XCTAssertEqual(Set(alpha), [1], "alpha is reported because it was given, and holds")
        let events = try XCTUnwrap(body["events"] as? [[String: Any]])
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events[0]["type"] as? String, "start")
        XCTAssertEqual(events[1]["type"] as? String, "completion")
        XCTAssertEqual(events[1]["t"] as? Double, 0.8)
        XCTAssertEqual(events[1]["position"] as? String, "end")
        let animator = try XCTUnwrap((body["animators"] as? [String: Any])?["present"] as? [String: Any])
        let states = try XCTUnwrap(animator["state"] as? [String])
        XCTAssertEqual(states.first, "running")
        XCTAssertEqual(states.last, "inactive")
        XCTAssertEqual((animator["fraction"] as? [Double])?[24] ?? 0, t[24] / 0.8, accuracy: 1e-12)
    }

    /// The drop-dismiss of shared/reference/curves.md §5 with a linear curve: five rotation
    /// keyframes, each turning along the shorter arc from the one before, while a cover fades.
    func testKeyframedDropDismissTurnsAsCoreAnimationDoes() throws {
        let starts = [0, 0.15, 0.25, 0.45, 0.65], durations = [0.15, 0.10, 0.20, 0.20, 0.35]
        let rotations = [-1.5 * Double.pi, Double.pi, 1.3 * Double.pi, 0.8 * Double.pi]
        var keyframes = zip(starts.prefix(4), zip(durations, rotations)).map { start, rest in
            #"{"start": \#(start), "duration": \#(rest.0), "to": {"transform": {"rotation": \#(rest.1)}}}"#
        }
        keyframes.append(#"{"start": 0.65, "duration": 0.35, "to": {"transform": {"ops": [{"translate": [180, 0]}, {"rotate": \#(0.3 * Double.pi)}]}}}"#)
        // Frame times exactly at each keyframe's end, and half way through each.
        let ends = zip(starts, durations).map { $0 + $1 }
        let halves = zip(starts, durations).map { $0 + $1 / 2 }
        let at = (halves + ends).sorted()
        let body = try render("""
        {"at": \(at), "views": {"card": {"center": [160, 284], "transform": {"rotation": 0}}, "cover": {"alpha": 1}},
         "animations": [
           {"id": "drop", "view": "card", "duration": 1, "timing": "linear", "keyframes": [\(keyframes.joined(separator: ","))]},
           {"id": "fade", "view": "cover", "duration": 1, "timing": "linear", "to": {"alpha": 0}}]}
        """)
        let matrices = try XCTUnwrap(channel(body, "card", "transform") as? [[Double]])
        func angle(at time: Double) throws -> Double {
            let i = try XCTUnwrap(at.firstIndex(of: time))
            return atan2(matrices[i][1], matrices[i][0])
        }
        func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
        // Keyframe ends: rotation(−1.5π) is +90°, then 180°, then 1.3π ≡ −126°, then 0.8π = 144°.
        XCTAssertEqual(degrees(try angle(at: ends[0])), 90, accuracy: 1e-9)
        XCTAssertEqual(abs(degrees(try angle(at: ends[1]))), 180, accuracy: 1e-9)
        XCTAssertEqual(degrees(try angle(at: ends[2])), -126, accuracy: 1e-9)
        XCTAssertEqual(degrees(try angle(at: ends[3])), 144, accuracy: 1e-9)
        // Half way: +45° (clockwise), +135° (clockwise on to 180°), 207° ≡ −153° (clockwise past
        // 180°), 189° ≡ −171° (back, counter-clockwise, toward 144°).
        XCTAssertEqual(degrees(try angle(at: halves[0])), 45, accuracy: 1e-9)
        XCTAssertEqual(degrees(try angle(at: halves[1])), 135, accuracy: 1e-9)
        XCTAssertEqual(degrees(try angle(at: halves[2])), -153, accuracy: 1e-9)
        XCTAssertEqual(degrees(try angle(at: halves[3])), -171, accuracy: 1e-9)
        // The last keyframe ends at the concatenated matrix: rotate(0.3π) after translate(180, 0).
        let last = matrices[try XCTUnwrap(at.firstIndex(of: ends[4]))]
        let theta = 0.3 * Double.pi
        let expected = [cos(theta), sin(theta), -sin(theta), cos(theta), 180 * cos(theta), 180 * sin(theta)]
        for (got, want) in zip(last, expected) { XCTAssertEqual(got, want, accuracy: 1e-9) }
        let alpha = try XCTUnwrap(channel(body, "cover", "alpha") as? [Double])
        for (i, time) in at.enumerated() { XCTAssertEqual(alpha[i], 1 - time, accuracy: 1e-12) }
    }

    func testZoomPushAndPopScaleThroughZero() throws {
        let ease = { (x: Double) -> Double in x }  // linear timing keeps the expectation exact
        for (from, to) in [(0.0, 1.0), (1.0, 0.0)] {
            let body = try render("""
            {"fps": 10, "views": {"card": {"transform": {"scale": [\(from), \(from)]}}},
             "animations": [{"view": "card", "duration": 0.4, "timing": "linear",
                             "to": {"transform": {"scale": [\(to), \(to)]}}}]}
            """)
            let t = try XCTUnwrap(body["t"] as? [Double])
            XCTAssertEqual(t.count, 5)
            let matrices = try XCTUnwrap(channel(body, "card", "transform") as? [[Double]])
            for (i, time) in t.enumerated() {
                let s = from + (to - from) * ease(min(time / 0.4, 1))
                XCTAssertEqual(matrices[i][0], s, accuracy: 1e-12, "t = \(time)")
                XCTAssertEqual(matrices[i][3], s, accuracy: 1e-12, "t = \(time)")
            }
            XCTAssertEqual((body["warnings"] as? [Any])?.count, 0)
        }
    }

    /// `rotationPath: "direct"` interpolates θ as given: the components' rotation or the sum of
    /// rotate ops turns a full circle, where the shorter-arc default does not move (§6 rule 6).
    func testDirectRotationPathTurnsByTheGivenAngle() throws {
        for (to, expectedTurn) in [(#"{"rotation": 6.283185307179586}"#, true),
                                   (#"{"ops": [{"rotate": 3.141592653589793}, {"rotate": 3.141592653589793}]}"#, true),
                                   (#"{"matrix": [1, 0, 0, 1, 0, 0]}"#, false)] {
            for path in ["direct", "shortest"] {
                let body = try render("""
                {"at": [0.25], "views": {"v": {"transform": {"rotation": 0}}},
                 "animations": [{"view": "v", "duration": 1, "timing": "linear", "rotationPath": "\(path)",
                                 "to": {"transform": \(to)}}]}
                """)
                let m = try XCTUnwrap((channel(body, "v", "transform") as? [[Double]])?.first)
                // A quarter of a full turn is +90°; no turn stays at 0°.
                let turning = path == "direct" && expectedTurn
                XCTAssertEqual(atan2(m[1], m[0]), turning ? .pi / 2 : 0, accuracy: 1e-9, "\(path) to \(to)")
            }
        }
    }

    /// The pane of the objc.io example, released upward: an attachment (3.5 Hz, ζ 0.4) from
    /// y = 500 toward 100 with −800 pt/s, exact closed form; it rests on the millisecond grid,
    /// shows the target exactly from then on, and completes there. The animator has no fraction.
    func testPhysicsPaneSettlesExactly() throws {
        let body = try render("""
        {"fps": 60, "velocities": true, "views": {"pane": {"center": [160, 500]}},
         "animations": [{"id": "pane", "view": "pane", "to": {"center": [160, 100]}, "velocity": [0, -800],
                         "dynamics": {"model": "attachment", "frequency": 3.5, "damping": 0.4}}]}
        """)
        let settle = try XCTUnwrap(body["duration"] as? Double)
        XCTAssertEqual(settle * 1000, (settle * 1000).rounded(), accuracy: 1e-6)
        let t = try XCTUnwrap(body["t"] as? [Double])
        let centers = try XCTUnwrap(channel(body, "pane", "center") as? [[Double]])
        // k = (2π·3.5)², c = 2·0.4·2π·3.5 per unit mass: the closed form, computed here.
        let omega0 = 2 * Double.pi * 3.5, zeta = 0.4, omegaD = omega0 * (1 - zeta * zeta).squareRoot()
        let y0 = 400.0, v0 = -800.0, a = zeta * omega0
        for (i, time) in t.enumerated() where time < settle {
            let y = exp(-a * time) * (y0 * cos(omegaD * time) + (v0 + a * y0) / omegaD * sin(omegaD * time))
            XCTAssertEqual(centers[i][1], 100 + y, accuracy: 1e-9)
            XCTAssertEqual(centers[i][0], 160)
        }
        XCTAssertEqual(centers.last, [160, 100])
        let velocity = try XCTUnwrap(((body["velocity"] as? [String: Any])?["pane"] as? [String: Any])?["center"] as? [[Double]])
        XCTAssertEqual(velocity[0], [0, -800])
        let events = try XCTUnwrap(body["events"] as? [[String: Any]])
        XCTAssertEqual(events.last?["type"] as? String, "completion")
        XCTAssertEqual(events.last?["t"] as? Double, settle)
        let animator = try XCTUnwrap((body["animators"] as? [String: Any])?["pane"] as? [String: Any])
        XCTAssertTrue(animator["fraction"] is NSNull)
        XCTAssertEqual((animator["state"] as? [String])?.last, "inactive")
    }

    func testSingularMatrixEndsAreDiscreteWithAWarning() throws {
        let body = try render("""
        {"at": [0, 0.49, 0.5, 1], "views": {"card": {"transform": {"matrix": [0, 0, 0, 0, 0, 0]}}},
         "animations": [{"view": "card", "duration": 1, "timing": "linear", "to": {"transform": {"matrix": [1, 0, 0, 1, 0, 0]}}}]}
        """)
        let matrices = try XCTUnwrap(channel(body, "card", "transform") as? [[Double]])
        XCTAssertEqual(matrices.map { $0[0] }, [0, 0, 1, 1])
        let warnings = try XCTUnwrap(body["warnings"] as? [[String: String]])
        XCTAssertEqual(warnings.first?["pointer"], "/animations/0/to/transform")
    }

    func testOverlappingAnimationsReplaceAndAdd() throws {
        // A: 0 → 100 over [0, 1]; B: to 200 over [0.5, 1.5]; both linear.
        for blend in ["replace", "additive"] {
            let body = try render("""
            {"fps": 4, "views": {"v": {"x": 0}},
             "animations": [{"id": "A", "view": "v", "duration": 1, "timing": "linear", "to": {"x": 100}},
                            {"id": "B", "view": "v", "duration": 1, "delay": 0.5, "timing": "linear", "to": {"x": 200},
                             "blend": "\(blend)"}]}
            """)
            let t = try XCTUnwrap(body["t"] as? [Double])
            XCTAssertEqual(t.last, 1.5)
            let x = try XCTUnwrap(channel(body, "v", "x") as? [Double])
            for (i, time) in t.enumerated() {
                let a = 100 * min(time, 1)
                let pb = min(max(time - 0.5, 0), 1)
                let expected: Double
                if time < 0.5 {
                    expected = a
                } else if blend == "replace" {
                    // B starts from A's presented value at 0.5 (50) and A stops contributing.
                    expected = 50 + (200 - 50) * pb
                } else {
                    // B adds (to − m)·p, m = A's target 100.
                    expected = a + (200 - 100) * pb
                }
                XCTAssertEqual(x[i], expected, accuracy: 1e-12, "\(blend) at \(time)")
            }
            // Both animators still run and complete.
            let completions = (body["events"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "completion" }
            XCTAssertEqual(completions.map { $0["t"] as? Double }, [1, 1.5])
        }
    }

    func testVelocitiesAreExactForVectorsAndZeroOnSteps() throws {
        // A spring: (to − from) · p′(t) exactly, from the curve endpoint's own velocity.
        let spring = #"{"type": "spring", "mass": 1, "stiffness": 100, "damping": 10}"#
        let body = try render("""
        {"at": [0, 0.1, 0.3], "velocities": true, "views": {"v": {"x": 10, "s": 0}},
         "animations": [{"view": "v", "timing": \(spring), "to": {"x": 30}},
                        {"view": "v", "duration": 1, "timing": "steps(4)", "to": {"s": 1}}]}
        """)
        let curve = service.respond(to: HTTPRequest(method: "POST", path: "/v1/curve",
                                                    body: Array(#"{"timing": \#(spring), "at": [0, 0.1, 0.3]}"#.utf8)))
        let expected = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(curve.body)) as? [String: Any])?["velocity"] as? [Double])
        let velocity = try XCTUnwrap((body["velocity"] as? [String: Any])?["v"] as? [String: Any])
        let x = try XCTUnwrap(velocity["x"] as? [Double])
        for (got, want) in zip(x, expected) { XCTAssertEqual(got, 20 * want, accuracy: 1e-12 * abs(want)) }
        XCTAssertEqual(velocity["s"] as? [Double], [0, 0, 0])
    }

    func testVelocitiesAreRightHandDerivatives() throws {
        let body = try render("""
        {"fps": 4, "velocities": true, "views": {"v": {"x": 0}},
         "animations": [{"view": "v", "duration": 1, "delay": 0.25, "timing": "linear", "to": {"x": 10}}]}
        """)
        let velocity = try XCTUnwrap((body["velocity"] as? [String: Any])?["v"] as? [String: Any])
        let x = try XCTUnwrap(velocity["x"] as? [Double])
        // 0 during the delay, 10/s while running (right-hand at the start), 0 from completion on.
        XCTAssertEqual(x[0], 0)
        for v in x[1...4] { XCTAssertEqual(v, 10, accuracy: 1e-6) }
        XCTAssertEqual(x[5], 0)
    }

    func testRepeatAndAutoreverse() throws {
        // Linear 0 → 10 over 1 s, autoreversing, 1.5 repeats: up [0,1], down [1,2], up [2,3], then 10.
        let body = try render("""
        {"at": [0.5, 1.5, 2.5, 3, 3.5], "views": {"v": {"x": 0}},
         "animations": [{"view": "v", "duration": 1, "timing": "linear", "to": {"x": 10}, "repeatCount": 1.5, "autoreverses": true}]}
        """)
        XCTAssertEqual(try channel(body, "v", "x") as? [Double], [5, 5, 5, 10, 10])
        XCTAssertEqual(body["duration"] as? Double, 3)
    }

    /// keyTimes that do not fit the mode are ignored as Core Animation ignores them (default
    /// spacing), with a warning (API.md §4, §6 rule 12).
    func testMismatchedKeyTimesAreAWarning() throws {
        let body = try render("""
        {"at": [0, 0.25, 0.5, 1], "views": {"v": {"x": 0}},
         "animations": [{"view": "v", "duration": 1, "timing": "linear", "channel": "x", "values": [0, 10, 30],
                         "keyTimes": [0, 1]}]}
        """)
        let warnings = try XCTUnwrap(body["warnings"] as? [[String: String]])
        XCTAssertEqual(warnings.map { $0["pointer"] }, ["/animations/0/keyTimes"])
        // Default spacing: key times 0, 0.5, 1.
        XCTAssertEqual(try channel(body, "v", "x") as? [Double], [0, 5, 10, 30])
    }

    func testCSVColumns() throws {
        let response = service.respond(to: HTTPRequest(method: "POST", path: "/v1/render", query: ["format": "csv"], body: Array("""
        {"at": [0, 1], "views": {"card": {"frame": [0, 0, 10, 10], "transform": {"rotation": 0}, "tint": [1, 2]}},
         "animations": [{"view": "card", "duration": 1, "timing": "linear", "to": {"frame": [0, 10, 10, 10]}}]}
        """.utf8)))
        let lines = String(decoding: response.body, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.first, "t,card.frame.x,card.frame.y,card.frame.w,card.frame.h,card.transform.a,card.transform.b,"
                       + "card.transform.c,card.transform.d,card.transform.tx,card.transform.ty,card.tint.0,card.tint.1")
        XCTAssertEqual(lines.last, "1,0,10,10,10,1,0,0,1,0,0,1,2")
    }
}
