import SegueEngine
import SegueJSON
import XCTest
@testable import SegueCodec

/// Every place a spring parametrisation can overflow (docs/rules.md "Conventions", docs/cost.md's
/// companion audit): computed stably where the true value is finite, else a 422 whose pointer
/// names the member — never a 200 with `inf` in it. And the work budget's 413 (docs/cost.md).
final class OverflowTests: XCTestCase {
    static func curve(_ timing: String, extra: String = "") -> String { #"{"timing":\#(timing),"samples":5\#(extra)}"# }

    static func answer(_ json: String, route: String) -> (status: Int, pointer: String?, body: [UInt8]) {
        let outcome = route == "curve" ? try? NonFinitePropertyTests.curve(json) : try? NonFinitePropertyTests.render(json)
        switch outcome {
        case .success(let bodies)?: return (200, nil, bodies[0])
        case .failure(let problem)?: return (problem.status, problem.pointer, [])
        case nil: return (0, nil, [])
        }
    }

    /// (request, route, status, pointer): each overflow a table row.
    static let table: [(String, String, Int, String?)] = [
        // The report: 1/k overflows in 2π√(m/k); √m/√k does not (response 2π·10¹⁵⁵).
        (curve(#"{"type":"spring","stiffness":1e-310,"damping":1}"#), "curve", 200, nil),
        // k·m underflows to 0 (critical damping 0, ζ = 0/0) unless taken as √k·√m.
        (curve(#"{"type":"spring","mass":1e-200,"stiffness":1e-200,"damping":1e-200,"allowsOverdamping":true}"#), "curve", 200, nil),
        // k·m overflows (ζ = c/∞ = 0, a false undamped spring) unless taken as √k·√m.
        (curve(#"{"type":"spring","mass":1e300,"stiffness":1e300,"damping":1e300}"#), "curve", 200, nil),
        // ζ·ω0 and ωo overflow, and c/(2m) too: no finite decay rate exists.
        (curve(#"{"type":"spring","mass":1e-300,"stiffness":1e300,"damping":1e300,"allowsOverdamping":true}"#), "curve", 422,
         "/timing/mass"),
        (curve(#"{"type":"spring","stiffness":1e300,"dampingRatio":1e200}"#), "curve", 422, "/timing/stiffness"),
        // k = (2π/response)² overflows.
        (curve(#"{"type":"spring","response":1e-300,"dampingRatio":0.5}"#), "curve", 422, "/timing/response"),
        (curve(#"{"type":"spring","perceptualDuration":1e-200,"bounce":0.2}"#), "curve", 422, "/timing/perceptualDuration"),
        // A huge response: k underflows towards 0, but every quantity stays finite.
        (curve(#"{"type":"spring","response":1e160,"dampingRatio":0.05}"#, extra: #","duration":1"#), "curve", 200, nil),
        // The velocity's sine coefficient a·v0 overflows.
        (curve(#"{"type":"spring","response":0.5,"dampingRatio":0.5,"initialVelocity":1e308}"#), "curve", 422,
         "/timing/initialVelocity"),
        // POP and Origami: their polynomials overflow into the stiffness (the existing check).
        (curve(#"{"type":"spring","bounciness":1e300,"speed":1e200}"#), "curve", 422, "/timing/bounciness"),
        (curve(#"{"type":"spring","tension":1e308,"friction":7}"#), "curve", 422, "/timing/tension"),
        // Negative stiffness from POP's polynomials is the set's fault, not one member's.
        (curve(#"{"type":"spring","tension":-1e3,"friction":7}"#), "curve", 422, "/timing"),
        // UIKit: dampingRatio and duration are clamped for the solve; stays finite.
        (curve(#"{"type":"spring","dampingRatio":1e-310}"#, extra: #","duration":1"#), "curve", 200, nil),
        // The same overflows inside a render: an animation's timing, a continue's timing, physics.
        (#"{"until":1,"views":{"v":{"x":0}},"animations":[{"view":"v","to":{"x":1},"#
            + #""timing":{"type":"spring","response":1e-300,"dampingRatio":1}}]}"#, "render", 422, "/animations/0/timing/response"),
        (#"{"until":1,"views":{"v":{"x":0}},"animations":[{"id":"a","view":"v","duration":1,"to":{"x":1}}],"#
            + #""commands":[{"at":0.1,"animation":"a","op":"pause"},{"at":0.2,"animation":"a","op":"continue","#
            + #""timing":{"type":"spring","stiffness":1e300,"dampingRatio":1e200}}]}"#, "render", 422,
         "/commands/1/timing/stiffness"),
        (#"{"until":1,"views":{"v":{"c":0}},"animations":[{"view":"v","to":{"c":1},"#
            + #""dynamics":{"model":"attachment","frequency":1e200,"damping":0.5}}]}"#, "render", 422,
         "/animations/0/dynamics/frequency"),
        (#"{"until":1,"views":{"v":{"c":0}},"animations":[{"view":"v","to":{"c":1},"#
            + #""dynamics":{"model":"spring","mass":1e-300,"stiffness":1e300,"damping":1e300}}]}"#, "render", 422,
         "/animations/0/dynamics/mass"),
        (#"{"until":1,"views":{"v":{"c":0}},"animations":[{"view":"v","to":{"c":1},"#
            + #""dynamics":{"model":"popSpring","bounciness":1e100,"speed":1e300}}]}"#, "render", 422,
         "/animations/0/dynamics"),
    ]

    func testEveryOverflowIsStableOrA422NamingItsMember() {
        for (json, route, status, pointer) in Self.table {
            let answer = Self.answer(json, route: route)
            XCTAssertEqual(answer.status, status, json)
            XCTAssertEqual(answer.pointer, pointer, json)
            if status == 200 { XCTAssertNil(NonFinitePropertyTests.fault(json: answer.body), json) }
        }
    }

    /// The report's spring, answered with a finite response: 2π√(1/1e-310).
    func testTheReportedSpringHasAFiniteResponse() throws {
        let request = try CurveRequest.decode(RequestDocument.parse(Array(Self.curve(#"{"type":"spring","stiffness":1e-310,"damping":1}"#).utf8),
                                                                    limits: Limits()), limits: Limits())
        let spring = try XCTUnwrap(request.curve.spring)
        XCTAssertEqual(spring.response, 2 * .pi * 1e155, accuracy: 1e142)
        XCTAssertEqual(spring.dampingRatio, 1)
    }

    // MARK: The work budget

    /// `layers` cubicPaced animations of 40 values on one 64-component channel, with velocities.
    /// With the arc-length table (docs/keyframes.md "cubicPaced") a layer's evaluations cost about
    /// as much as printing the channel's numbers, so one layer stays inside the budget up to the
    /// numbers limit; eight pass it.
    static func wide(frames: Int, layers: Int = 1) -> String {
        let values = (0..<40).map { i in "[" + (0..<64).map { k in "\(Double((i * 13 + k * 7) % 19) / 9 - 1)" }.joined(separator: ",") + "]" }
        let animation = #"{"view":"v","channel":"c","duration":1,"calculationMode":"cubicPaced","values":[\#(values.joined(separator: ","))]}"#
        return #"{"velocities":true,"fps":60,"until":\#(Double(frames - 1) / 60),"views":{"v":{"c":[\#((0..<64).map { _ in "0" }.joined(separator: ","))]}},"#
            + #""animations":[\#([String](repeating: animation, count: layers).joined(separator: ","))]}"#
    }

    func testAWideCubicPacedRenderOverTheBudgetIsA413NamingTheLimit() throws {
        let limits = Limits()
        XCTAssertEqual(limits.maxWork, 2_000_000_000)
        let over = Self.answer(Self.wide(frames: 30_000, layers: 8), route: "render")
        XCTAssertEqual(over.status, 413)
        do {
            _ = try RenderRequest.decode(RequestDocument.parse(Array(Self.wide(frames: 30_000, layers: 8).utf8), limits: limits),
                                         limits: limits)
            XCTFail("decoded")
        } catch let problem {  // a Problem: the decoders have typed throws
            XCTAssertEqual(problem.kind, .tooLarge)
            XCTAssertTrue(problem.detail.contains("is over the limit of 2000000000 work units (--max-work)"), problem.detail)
            XCTAssertTrue(problem.detail.hasPrefix("30000 frames of this render: an estimated work of "), problem.detail)
        }
        let under = try RenderRequest.decode(RequestDocument.parse(Array(Self.wide(frames: 100).utf8), limits: limits),
                                             limits: limits)
        XCTAssertLessThan(under.work, 2e9)
        XCTAssertGreaterThan(under.work, 0)
    }

    /// A `values` track whose build alone is over the budget is refused before it is built,
    /// pointing at its values.
    func testATrackOverTheBudgetIsRefusedBeforeItIsBuilt() throws {
        var limits = Limits()
        limits.maxWork = 1_000_000
        do {
            _ = try RenderRequest.decode(RequestDocument.parse(Array(Self.wide(frames: 2).utf8), limits: limits), limits: limits)
            XCTFail("decoded")
        } catch let problem {  // a Problem: the decoders have typed throws
            XCTAssertEqual(problem.status, 413)
            XCTAssertEqual(problem.pointer, "/animations/0/values")
            XCTAssertTrue(problem.detail.hasPrefix("building the keyframe tracks: an estimated work of "), problem.detail)
        }
    }

    func testTheCurveRouteHasTheBudgetToo() throws {
        var limits = Limits()
        limits.maxWork = 1000
        XCTAssertThrowsError(try CurveRequest.decode(RequestDocument.parse(Array(#"{"timing":"ease","samples":100}"#.utf8),
                                                                           limits: limits), limits: limits)) { error in
            XCTAssertEqual((error as? Problem)?.status, 413)
            XCTAssertTrue((error as? Problem)?.detail.hasPrefix("100 samples of this curve: an estimated work of ") == true)
        }
    }

    /// A raised cancellation stops the sampling with the 503 `unavailable` problem.
    func testACancelledRenderStopsWithA503() throws {
        let cancellation = WorkCancellation()
        let limits = Limits()
        let request = try RenderRequest.decode(RequestDocument.parse(Array(#"{"views":{"v":{"x":0}},"animations":[{"view":"v","duration":1,"to":{"x":1}}]}"#.utf8),
                                                                     limits: limits), limits: limits, cancellation: cancellation)
        XCTAssertNoThrow(try RenderResponse(request).json().bytes())
        cancellation.cancel()
        XCTAssertThrowsError(try RenderResponse(request).json().bytes()) { error in
            XCTAssertEqual((error as? Problem)?.kind, .unavailable)
            XCTAssertEqual((error as? Problem)?.status, 503)
        }
    }
}
