import Foundation
import SegueEngine
import SegueTestSupport
import XCTest
@testable import SegueCodec
import SegueJSON

/// The other engines' physics models and keyframe easing chains through the whole render codec,
/// request JSON in and response JSON out, each vector case mapped as shared/conformance/check.py
/// maps it: the Motion, Android fling, scroll
/// deceleration, Rebound and Box2D cases of springs.json (docs/springs.md "Physics models") and the
/// chained easings of curves.json (docs/curves.md "Keyframe easing chains"); then every new member
/// out of its range, and the commands these models refuse.
final class OtherEngineRequestTests: XCTestCase {
    /// The render response of `body`, or the problem it is refused with.
    func render(_ body: [String: Any]) throws -> Result<[String: Any], Problem> {
        let bytes = try JSONSerialization.data(withJSONObject: body)
        do {
            let request = try RenderRequest.decode(RequestDocument.parse(Array(bytes), limits: Limits()), limits: Limits())
            let json = try JSONSerialization.jsonObject(with: Data(try RenderResponse(request).json().bytes()))
            return .success(try XCTUnwrap(json as? [String: Any]))
        } catch let problem as Problem {
            return .failure(problem)
        }
    }

    /// A physics animation on custom channel `x` of view `v`, from `start`, sampled at `times`.
    func physicsBody(_ animation: [String: Any], start: Double, times: [Double]) -> [String: Any] {
        ["at": times, "views": ["v": ["x": start]], "animations": [animation]]
    }

    func testEveryPhysicsCaseThroughTheCodec() throws {
        var checked: [String: Int] = [:]
        for vector in try VectorCase.load("springs.json") {
            let model = vector.fields["model"] as? String ?? ""
            guard let (animation, start) = try request(model, vector) else { continue }
            let settle = vector.number("settlingDuration")
            // The fling and the scroll deceleration hold their stop value where the vectors go on.
            let holds = model == "android.fling" || model == "scroll.decay"
            let all = vector.numbers("times")
            let kept = all.indices.filter { !holds || all[$0] < (settle ?? .infinity) }
            let times = kept.map { all[$0] }
            let values = VectorCase.numbers((vector.fields["expect"] as? [String: Any])?["value"])
            let tolerance = try XCTUnwrap(vector.number("tolerance"))
            let response = try render(physicsBody(animation, start: start, times: times)).get()
            let x = try XCTUnwrap((response["views"] as? [String: Any])?["v"] as? [String: Any])["x"] as? [Double]
            for (j, i) in kept.enumerated() {
                assertClose(try XCTUnwrap(x?[j]), values[i], tolerance, "\(vector.id) t=\(all[i])")
            }
            let id = try XCTUnwrap(animation["id"] as? String)
            if let settle {
                let events = try XCTUnwrap(response["events"] as? [[String: Any]])
                let completion = try XCTUnwrap(events.first { $0["type"] as? String == "completion" && $0["animation"] as? String == id })
                assertClose(try XCTUnwrap(completion["t"] as? Double), settle, try XCTUnwrap(vector.number("settlingTolerance")),
                            "\(vector.id) completion")
            }
            let animator = try XCTUnwrap((response["animators"] as? [String: Any])?[id] as? [String: Any])
            if let projection = vector.number("projection") {
                assertClose(try XCTUnwrap(animator["projection"] as? Double), start + projection, tolerance, "\(vector.id) projection")
            } else {
                XCTAssertNil(animator["projection"], vector.id)
            }
            checked[model, default: 0] += 1
        }
        XCTAssertEqual(checked, ["motion.spring": 4, "android.fling": 1, "scroll.decay": 1, "rebound.spring.rk4": 1,
                                 "box2d.softspring": 1])
    }

    /// The animation check.py sends for a case, and the start value; nil for other families.
    private func request(_ model: String, _ vector: VectorCase) throws -> ([String: Any], Double)? {
        let p = vector.params
        func param(_ key: String) throws -> Double { try XCTUnwrap(vector.param(key), "\(vector.id) \(key)") }
        let tolerance = vector.number("tolerance") ?? 0
        switch model {
        case "motion.spring":
            let keyframes = VectorCase.numbers(p["keyframes"])
            var dynamics: [String: Any] = ["model": "motionSpring"]
            for name in ["stiffness", "damping", "mass", "bounce", "visualDuration"] where p[name] != nil { dynamics[name] = p[name] }
            if let duration = vector.param("duration") { dynamics["duration"] = duration / 1000 }
            return (["id": "m", "view": "v", "to": ["x": keyframes[1]], "velocity": vector.param("velocity") ?? 0,
                     "dynamics": dynamics], keyframes[0])
        case "rebound.spring.rk4":
            return (["id": "r", "view": "v", "to": ["x": try param("to")], "velocity": try param("velocity"),
                     "dynamics": ["model": "popSpring", "bounciness": try param("bounciness"), "speed": try param("speed"),
                                  "integrator": "rebound", "tickRate": 1 / (try param("frameInterval"))]], try param("from"))
        case "box2d.softspring":
            let speed = (vector.number("velocityTolerance") ?? tolerance) / 10
            return (["id": "b", "view": "v", "to": ["x": try param("to")], "velocity": try param("initialVelocity"),
                     "dynamics": ["model": "attachment", "frequency": try param("frequency"), "damping": try param("damping"),
                                  "integrator": "box2d", "resistance": try param("linearDamping"), "tickRate": 1 / (try param("dt")),
                                  "restSpeed": speed, "restDistance": tolerance / 10]], try param("from"))
        case "android.fling":
            return (["id": "d", "view": "v", "channel": "x", "velocity": try param("startVelocity"),
                     "dynamics": ["model": "fling", "friction": try param("friction"),
                                  "minimumVisibleChange": try param("minimumVisibleChange")]], try param("startValue"))
        case "scroll.decay":
            return (["id": "d", "view": "v", "channel": "x", "velocity": try param("velocity"),
                     "dynamics": ["model": "scrollDecay", "decelerationRate": try param("decelerationRate")]], try param("from"))
        default:
            return nil
        }
    }

    /// Rule 34: a `values` animation [0, 1] whose timing is the inner easing and whose one segment
    /// timing function is the outer Bézier or the steps, at the case's inputs.
    func testEveryChainCaseThroughTheCodec() throws {
        var checked: [String: Int] = [:]
        for vector in try VectorCase.load("curves.json") {
            let kind = vector.fields["kind"] as? String ?? ""
            guard kind == "cubic_bezier_chain" || kind == "steps_chain" else { continue }
            let p = vector.params
            let inner = VectorCase.numbers(p["inner"])
            func bezier(_ c: [Double]) -> [String: Any] { ["type": "cubicBezier", "p1": [c[0], c[1]], "p2": [c[2], c[3]]] }
            let segment: Any = kind == "cubic_bezier_chain" ? bezier(VectorCase.numbers(p["outer"])) : try XCTUnwrap(p["css"])
            let inputs = vector.numbers("inputs"), expect = vector.numbers("expect")
            let body: [String: Any] = [
                "at": inputs, "views": ["v": ["value": 0]],
                "animations": [["id": "k", "view": "v", "channel": "value", "values": [0, 1], "keyTimes": [0, 1],
                                "timingFunctions": [segment], "calculationMode": "linear", "duration": 1,
                                "timing": bezier(inner)]],
            ]
            let response = try render(body).get()
            let values = try XCTUnwrap(((response["views"] as? [String: Any])?["v"] as? [String: Any])?["value"] as? [Double])
            let tolerance = try XCTUnwrap(vector.number("tolerance"))
            for (i, x) in inputs.enumerated() {
                assertClose(values[i], expect[i], tolerance, "\(vector.id) x=\(x)")
            }
            checked[kind, default: 0] += 1
        }
        XCTAssertEqual(checked, ["cubic_bezier_chain": 2, "steps_chain": 5])
    }

    /// A `linear()` segment extrapolates its end segments; after completion the channel holds the
    /// last value although the easing overshoots on the way.
    func testLinearSegmentsExtrapolateAndTheEndHolds() throws {
        let body: [String: Any] = [
            "at": [0.1, 0.5, 1, 2], "views": ["v": ["value": 0]],
            "animations": [["view": "v", "channel": "value", "values": [10, 20], "timingFunctions": ["linear(0, 0.5 50%, 1)"],
                            "duration": 1, "timing": ["type": "cubicBezier", "p1": [0.3, -0.5], "p2": [0.7, 1.5]]]],
        ]
        let values = try XCTUnwrap(((try render(body).get()["views"] as? [String: Any])?["v"] as? [String: Any])?["value"] as? [Double])
        let outer = CubicBezier(x1: 0.3, y1: -0.5, x2: 0.7, y2: 1.5)
        // linear(0, 0.5 50%, 1) is the identity, extended below 0 along its first segment.
        XCTAssertLessThan(outer.progress(0.1), 0)
        XCTAssertEqual(values[0], 10 + 10 * outer.progress(0.1), accuracy: 1e-12)
        XCTAssertEqual(values[1], 15, accuracy: 1e-12)
        XCTAssertEqual(values[2], 20)
        XCTAssertEqual(values[3], 20)
    }

    /// A render of view `v` (x = 0, a point `c`) with one physics animation `p`.
    static func body(_ animation: String, commands: String = "") -> String {
        """
        {"views": {"v": {"x": 0, "c": [0, 0]}}, "animations": [\(animation)], "commands": [\(commands)], "until": 1}
        """
    }

    /// Each member of the new models and integrators out of its range, and each member or command
    /// that does not apply, is a 422 naming it.
    func testOutOfRangeMembersAreProblemsNamingThem() {
        let spring = #"{"id": "p", "view": "v", "to": {"x": 100}, "dynamics": {"model": "motionSpring", "#
        let fling = #"{"id": "p", "view": "v", "channel": "x", "velocity": 500, "dynamics": {"model": "fling", "#
        let scroll = #"{"id": "p", "view": "v", "channel": "x", "velocity": 500, "dynamics": {"model": "scrollDecay", "#
        let rebound = #"{"id": "p", "view": "v", "to": {"x": 100}, "dynamics": {"model": "popSpring", "integrator": "rebound", "#
        let box = #"{"id": "p", "view": "v", "to": {"x": 100}, "dynamics": {"model": "attachment", "frequency": 3, "integrator": "box2d", "#
        let rows: [(String, String)] = [
            (spring + #""stiffness": 0}}"#, "/animations/0/dynamics/stiffness"),
            (spring + #""damping": -1}}"#, "/animations/0/dynamics/damping"),
            (spring + #""mass": 0}}"#, "/animations/0/dynamics/mass"),
            (spring + #""duration": 0}}"#, "/animations/0/dynamics/duration"),
            (spring + #""bounce": 1.5}}"#, "/animations/0/dynamics/bounce"),
            (spring + #""bounce": -1.5}}"#, "/animations/0/dynamics/bounce"),
            (spring + #""bounce": 0.2, "visualDuration": 0}}"#, "/animations/0/dynamics/visualDuration"),
            (spring + #""restSpeed": 0}}"#, "/animations/0/dynamics/restSpeed"),
            (spring + #""restDistance": -2}}"#, "/animations/0/dynamics/restDistance"),
            (spring + #""integrator": "rk4"}}"#, "/animations/0/dynamics/integrator"),
            (spring + #""tickRate": 60}}"#, "/animations/0/dynamics/tickRate"),
            (spring + #""threshold": 1}}"#, "/animations/0/dynamics/threshold"),
            (fling + #""friction": 0}}"#, "/animations/0/dynamics/friction"),
            (fling + #""minimumVisibleChange": -1}}"#, "/animations/0/dynamics/minimumVisibleChange"),
            (fling + #""min": 10, "max": -10}}"#, "/animations/0/dynamics/max"),
            (fling + #""restSpeed": 1}}"#, "/animations/0/dynamics/restSpeed"),
            (fling + #""integrator": "exact"}}"#, "/animations/0/dynamics/integrator"),
            (scroll + #""decelerationRate": 1}}"#, "/animations/0/dynamics/decelerationRate"),
            (scroll + #""decelerationRate": 0}}"#, "/animations/0/dynamics/decelerationRate"),
            (scroll + #""decelerationRate": "slow"}}"#, "/animations/0/dynamics/decelerationRate"),
            (scroll + #""stopSpeed": 0}}"#, "/animations/0/dynamics/stopSpeed"),
            (scroll + #""threshold": 1}}"#, "/animations/0/dynamics/threshold"),
            (rebound + #""tickRate": 0}}"#, "/animations/0/dynamics/tickRate"),
            (rebound + #""restSpeed": 0}}"#, "/animations/0/dynamics/restSpeed"),
            (rebound + #""restDistance": 0}}"#, "/animations/0/dynamics/restDistance"),
            (rebound + #""threshold": 1}}"#, "/animations/0/dynamics/threshold"),
            (rebound + #""resistance": 1}}"#, "/animations/0/dynamics/resistance"),
            (box + #""resistance": -1}}"#, "/animations/0/dynamics/resistance"),
            (box + #""tickRate": 1001}}"#, "/animations/0/dynamics/tickRate"),
            (#"{"view": "v", "to": {"x": 1}, "dynamics": {"model": "spring", "integrator": "box2d"}}"#,
             "/animations/0/dynamics/integrator"),
            (#"{"view": "v", "to": {"x": 1}, "dynamics": {"model": "snap", "integrator": "rebound"}}"#,
             "/animations/0/dynamics/integrator"),
            (#"{"view": "v", "to": {"x": 1}, "dynamics": {"model": "snap", "resistance": 2}}"#,
             "/animations/0/dynamics/resistance"),
            (#"{"view": "v", "to": {"c": [1, 1]}, "dynamics": {"model": "motionSpring"}}"#, "/animations/0/to/c"),
            (#"{"view": "v", "to": {"c": [1, 1]}, "dynamics": {"model": "spring", "integrator": "rebound"}}"#,
             "/animations/0/to/c"),
            (#"{"view": "v", "channel": "c", "dynamics": {"model": "fling"}}"#, "/animations/0/channel"),
            (#"{"view": "v", "to": {"x": 1}, "dynamics": {"model": "scrollDecay"}}"#, "/animations/0/to"),
            (#"{"view": "v", "dynamics": {"model": "fling"}}"#, "/animations/0/channel"),
        ]
        for (animation, pointer) in rows {
            XCTAssertEqual(problem(Self.body(animation))?.pointer, pointer, animation)
        }
        // Box2D with its resistance, points and every integrator member in range is fine.
        XCTAssertNil(problem(Self.body(box + #""resistance": 0}}"#), expectingOne: false))
        XCTAssertNil(problem(Self.body(#"{"view": "v", "to": {"c": [1, 2]}, "dynamics": {"model": "snap", "integrator": "box2d"}}"#),
                             expectingOne: false))
    }

    /// `retarget` and `drag` on the new models and integrators are a 422 at the command's `op`;
    /// `stop` holds the value where it is.
    func testRetargetAndDragAreRefused() throws {
        let animations = [
            #"{"id": "p", "view": "v", "to": {"x": 100}, "dynamics": {"model": "motionSpring"}}"#,
            #"{"id": "p", "view": "v", "channel": "x", "velocity": 900, "dynamics": {"model": "fling"}}"#,
            #"{"id": "p", "view": "v", "channel": "x", "velocity": 900, "dynamics": {"model": "scrollDecay"}}"#,
            #"{"id": "p", "view": "v", "to": {"x": 100}, "dynamics": {"model": "spring", "integrator": "rebound"}}"#,
            #"{"id": "p", "view": "v", "to": {"x": 100}, "dynamics": {"model": "snap", "integrator": "box2d"}}"#,
        ]
        for animation in animations {
            for command in [#"{"at": 0.1, "animation": "p", "op": "retarget", "to": 5}"#,
                            #"{"at": 0.1, "animation": "p", "op": "drag", "samples": [[0.1, 1], [0.2, 2]]}"#] {
                XCTAssertEqual(problem(Self.body(animation, commands: command))?.pointer, "/commands/0/op", animation + command)
            }
            let stopped = try RenderRequest.decode(
                RequestDocument.parse(Array(Self.body(animation, commands: #"{"at": 0.1, "animation": "p", "op": "stop"}"#).utf8),
                                      limits: Limits()), limits: Limits())
            let held = stopped.scene.channels[0].value(at: 0.1).numbers
            XCTAssertEqual(stopped.scene.channels[0].value(at: 0.9).numbers, held, animation)
            XCTAssertNotEqual(held, [0], animation)
        }
    }

    /// `visualDuration` alone is ignored with a warning naming it; members a physics spring
    /// ignores warn too, and so does a velocity a time-defined spring drops.
    func testIgnoredMotionMembersWarn() throws {
        func warnings(_ dynamics: String, velocity: Double = 0) throws -> [String] {
            let animation = #"{"view": "v", "to": {"x": 100}, "velocity": \#(velocity), "dynamics": {"model": "motionSpring", "#
                + dynamics + "}}"
            let request = try RenderRequest.decode(RequestDocument.parse(Array(Self.body(animation).utf8), limits: Limits()),
                                                   limits: Limits())
            return request.warnings.map(\.pointer.description)
        }
        XCTAssertEqual(try warnings(#""visualDuration": 0.4"#), ["/animations/0/dynamics/visualDuration"])
        XCTAssertEqual(try warnings(#""stiffness": 300, "bounce": 0.5"#), ["/animations/0/dynamics/bounce"])
        XCTAssertEqual(try warnings(#""duration": 0.5"#, velocity: 300), ["/animations/0/velocity"])
        XCTAssertEqual(try warnings(#""duration": 12"#), ["/animations/0/dynamics/duration"])
        XCTAssertEqual(try warnings(#""duration": 0.5, "bounce": 0.2, "visualDuration": 0.3"#), [])
    }

    /// The problem `json` is refused with; nil (and, when one is expected, a failure) when it decodes.
    func problem(_ json: String, expectingOne: Bool = true, file: StaticString = #filePath, line: UInt = #line) -> Problem? {
        do throws(Problem) {
            _ = try RenderRequest.decode(RequestDocument.parse(Array(json.utf8), limits: Limits()), limits: Limits())
            if expectingOne { XCTFail("expected a problem", file: file, line: line) }
            return nil
        } catch {
            return error
        }
    }
}
