import Foundation
@testable import SegueEngine
import SegueTestSupport
import XCTest
@testable import SegueCodec
import SegueJSON

/// Rule 46's names for timings (docs/curves.md "Core Animation's names", docs/springs.md "SwiftUI's
/// names"): each new name and form against the reference vectors where they exist and against
/// expectations derived by hand, the normalised echo, conflicts and ranges.
final class TimingVocabularyTests: XCTestCase {
    func decode(_ json: String) throws -> CurveRequest {
        try CurveRequest.decode(JSONReader.parse(Array(json.utf8), maxDepth: 64), limits: Limits())
    }

    /// The engine spring a spring timing resolves to.
    func spring(_ timing: String) throws -> Spring {
        guard case .spring(let spring) = try decode(#"{"timing": "# + timing + "}").curve else {
            throw Problem.invalid("not a spring", at: nil)
        }
        return spring
    }

    /// The normalised `timing` the curve route echoes.
    func echo(_ timing: String) throws -> String {
        String(decoding: try decode(#"{"timing": "# + timing + "}").timing.text, as: UTF8.self)
    }

    func problem(_ json: String) -> Problem? {
        do {
            _ = try CurveResponse(decode(json))
            return nil
        } catch let problem as Problem {
            return problem
        } catch {
            return nil
        }
    }

    func assertSameSpring(_ a: Spring, _ b: Spring, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.mass, b.mass, label, file: file, line: line)
        XCTAssertEqual(a.stiffness, b.stiffness, label, file: file, line: line)
        XCTAssertEqual(a.damping, b.damping, label, file: file, line: line)
        XCTAssertEqual(a.initialVelocity, b.initialVelocity, label, file: file, line: line)
    }

    // MARK: Curve names

    func testDefaultIsCoreAnimationsDefaultCurveEchoedUnderItsName() throws {
        let request = try decode(#"{"timing": "default", "at": [0.25, 0.5]}"#)
        XCTAssertEqual(request.curve, .cubicBezier(CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)))
        XCTAssertEqual(try echo(#""default""#), #"{"type":"default"}"#)
        XCTAssertEqual(try echo(#""DEFAULT""#), #"{"type":"default"}"#, "keywords are ASCII case-insensitive")
        // The echo is itself a timing: the object form reads back to the same curve.
        XCTAssertEqual(try decode(#"{"timing": {"type": "default"}}"#).curve, request.curve)
    }

    func testEaseInEaseOutIsEaseInOut() throws {
        XCTAssertEqual(try decode(#"{"timing": "easeInEaseOut"}"#).curve,
                       .cubicBezier(CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)))
        XCTAssertEqual(try echo(#""easeInEaseOut""#), #"{"type":"easeInOut"}"#)
    }

    // MARK: SwiftUI's presets

    /// The presets against springs.json's SwiftUI cases (duration 0.5, bounce 0.15 and 0.3) at
    /// their tolerances, and smooth against the perceptual set derived by hand: bounce 0 is ζ = 1,
    /// k = (2π/0.5)², c = 2·2π/0.5.
    func testPresetsMatchTheReferenceVectors() throws {
        let cases = try VectorCase.load("springs.json")
        for (name, id) in [("snappy", "swiftui-snappy"), ("bouncy", "swiftui-bouncy")] {
            let vector = try XCTUnwrap(cases.first { $0.id == id }, id)
            let times = vector.numbers("times")
            let expect = try XCTUnwrap(vector.fields["expect"] as? [String: Any])
            let values = VectorCase.numbers(expect["value"]), velocities = VectorCase.numbers(expect["velocity"])
            let tolerance = try XCTUnwrap(vector.number("tolerance")), velocityTolerance = try XCTUnwrap(vector.number("velocityTolerance"))
            for form in [#""\#(name)""#, #"{"type": "spring", "preset": "\#(name)"}"#] {
                let at = times.map { String($0) }.joined(separator: ", ")
                let response = try CurveResponse(decode(#"{"timing": \#(form), "at": [\#(at)]}"#))
                for i in times.indices {
                    assertClose(response.progress[i], values[i], tolerance, "\(form) at \(times[i])")
                    assertClose(response.velocity[i], velocities[i], velocityTolerance, "\(form) velocity at \(times[i])")
                }
            }
        }
        let smooth = try spring(#""smooth""#)
        let omega = 2 * Double.pi / 0.5
        XCTAssertEqual(smooth.stiffness, omega * omega, accuracy: 1e-12)
        XCTAssertEqual(smooth.damping, 2 * omega, accuracy: 1e-12)
        XCTAssertEqual(smooth.dampingRatio, 1, accuracy: 1e-15)
    }

    func testPresetsAreThePerceptualSetWithTheirBounce() throws {
        for (name, bounce) in [("smooth", 0.0), ("snappy", 0.15), ("bouncy", 0.3)] {
            let perceptual = try spring(#"{"type": "spring", "perceptualDuration": 0.5, "bounce": \#(bounce)}"#)
            assertSameSpring(try spring(#""\#(name)""#), perceptual, name)
            assertSameSpring(try spring(#"{"type": "spring", "preset": "\#(name)"}"#), perceptual, name)
            // duration and extraBounce: the perceptual set with that duration and bounce + extra.
            let moved = try spring(#"{"type": "spring", "preset": "\#(name)", "duration": 0.8, "extraBounce": 0.1}"#)
            assertSameSpring(moved, try spring(#"{"type": "spring", "perceptualDuration": 0.8, "bounce": \#(bounce + 0.1)}"#),
                             name + " with duration 0.8 and extraBounce 0.1")
        }
    }

    func testPresetEchoNamesThePresetSet() throws {
        XCTAssertEqual(try echo(#""snappy""#),
                       #"{"type":"spring","preset":"snappy","duration":0.5,"extraBounce":0,"initialVelocity":0}"#)
        XCTAssertEqual(try echo(#"{"type": "spring", "preset": "bouncy", "extraBounce": -0.1, "initialVelocity": 2}"#),
                       #"{"type":"spring","preset":"bouncy","duration":0.5,"extraBounce":-0.1,"initialVelocity":2}"#)
    }

    // MARK: SwiftUI's parameter names

    func testDurationAndBounceAreThePerceptualSet() throws {
        for (d, b) in [(0.5, 0.3), (0.4, -0.5), (1.2, 0.0), (0.3, 0.9)] {
            assertSameSpring(try spring(#"{"type": "spring", "duration": \#(d), "bounce": \#(b), "initialVelocity": 0.5}"#),
                             try spring(#"{"type": "spring", "perceptualDuration": \#(d), "bounce": \#(b), "initialVelocity": 0.5}"#),
                             "duration \(d), bounce \(b)")
        }
        // Bounce defaults to 0 as SwiftUI's does.
        assertSameSpring(try spring(#"{"type": "spring", "duration": 0.5}"#), try spring(#""smooth""#), "bounce 0")
        XCTAssertEqual(try echo(#"{"type": "spring", "duration": 0.5, "bounce": 0.2}"#),
                       #"{"type":"spring","duration":0.5,"bounce":0.2,"initialVelocity":0}"#)
    }

    func testDampingFractionIsTheResponseSetsDampingRatio() throws {
        assertSameSpring(try spring(#"{"type": "spring", "response": 0.55, "dampingFraction": 0.825}"#),
                         try spring(#"{"type": "spring", "response": 0.55, "dampingRatio": 0.825}"#), "dampingFraction")
        XCTAssertEqual(try echo(#"{"type": "spring", "response": 0.55, "dampingFraction": 0.825}"#),
                       #"{"type":"spring","response":0.55,"dampingFraction":0.825,"initialVelocity":0}"#)
        // The older spelling keeps its echo.
        XCTAssertEqual(try echo(#"{"type": "spring", "response": 0.55, "dampingRatio": 0.825}"#),
                       #"{"type":"spring","response":0.55,"dampingRatio":0.825,"initialVelocity":0}"#)
    }

    func testBlendDurationIsIgnoredWithAWarning() throws {
        for timing in [#"{"type": "spring", "response": 0.55, "dampingFraction": 0.825, "blendDuration": 0.25}"#,
                       #"{"type": "spring", "duration": 0.5, "bounce": 0.2, "blendDuration": 0}"#,
                       #"{"type": "spring", "response": 0.55, "dampingRatio": 0.825, "blendDuration": 1}"#] {
            let request = try decode(#"{"timing": \#(timing)}"#)
            XCTAssertEqual(request.warnings.map(\.pointer.description), ["/timing/blendDuration"], timing)
            let without = timing.replacingOccurrences(of: #", "blendDuration": 0.25"#, with: "")
                .replacingOccurrences(of: #", "blendDuration": 0"#, with: "")
                .replacingOccurrences(of: #", "blendDuration": 1"#, with: "")
            XCTAssertEqual(request.curve, try decode(#"{"timing": \#(without)}"#).curve, "ignored: " + timing)
            XCTAssertFalse(String(decoding: request.timing.text, as: UTF8.self).contains("blendDuration"))
        }
        // In a render too, pointed at the animation's member.
        let render = try RenderRequest.decode(RequestDocument.parse(Array("""
        {"views": {"v": {"alpha": 0}}, "animations": [{"view": "v", "to": {"alpha": 1},
         "timing": {"type": "spring", "response": 0.3, "dampingFraction": 0.8, "blendDuration": 0.1}}]}
        """.utf8), limits: Limits()), limits: Limits())
        XCTAssertEqual(render.warnings.map(\.pointer.description), ["/animations/0/timing/blendDuration"])
        // And in a `continue` command's timing (rule 15), pointed at the command's member.
        let continued = try RenderRequest.decode(RequestDocument.parse(Array("""
        {"views": {"v": {"alpha": 0}}, "animations": [{"id": "a", "view": "v", "duration": 1, "to": {"alpha": 1}}],
         "commands": [{"at": 0.1, "animation": "a", "op": "pause"},
                      {"at": 0.2, "animation": "a", "op": "continue",
                       "timing": {"type": "spring", "response": 0.3, "dampingFraction": 0.8, "blendDuration": 0.1}}]}
        """.utf8), limits: Limits()), limits: Limits())
        XCTAssertEqual(continued.warnings.map(\.pointer.description), ["/commands/1/timing/blendDuration"])
    }

    // MARK: settlingDuration

    /// Hand-derived: mass 1 and, from rest, at t = s the sine term's envelope ζ/√(1−ζ²)·e^(−ζω s)
    /// is exactly ε (ζ < 1); for ζ = 1 the distance still to go, 1 − progress(s), is exactly ε.
    func testSettlingDurationSolveReachesEpsilonExactlyAtS() throws {
        for (s, zeta, epsilon) in [(1.0, 0.5, 0.001), (0.35, 0.2, 0.01), (2.0, 0.9, 1e-6), (0.5, 0.999, 0.001)] {
            let spring = try spring(#"{"type": "spring", "settlingDuration": \#(s), "dampingRatio": \#(zeta), "epsilon": \#(epsilon)}"#)
            XCTAssertEqual(spring.mass, 1)
            let omega = spring.stiffness.squareRoot()
            XCTAssertEqual(spring.damping, 2 * zeta * omega, accuracy: 1e-12 * spring.damping)
            let envelope = zeta / (1 - zeta * zeta).squareRoot() * exp(-zeta * omega * s)
            XCTAssertEqual(envelope, epsilon, accuracy: 1e-12 * epsilon, "s \(s), ζ \(zeta), ε \(epsilon)")
        }
        for (s, epsilon) in [(1.0, 0.001), (0.3, 0.05), (4.0, 1e-9)] {
            let spring = try spring(#"{"type": "spring", "settlingDuration": \#(s), "dampingRatio": 1, "epsilon": \#(epsilon)}"#)
            XCTAssertEqual(spring.dampingRatio, 1, accuracy: 1e-15)
            XCTAssertEqual(1 - spring.progress(at: s), epsilon, accuracy: 1e-12, "critical, s \(s), ε \(epsilon)")
            XCTAssertGreaterThan(1 - spring.progress(at: s * 0.99), epsilon, "not before s")
        }
    }

    /// With ε = 0.001 (the default) and from rest it is UIKit's duration solve of `dampingRatio` and
    /// duration s (whose 12 Newton steps converge to the same root).
    func testSettlingDurationAtTheDefaultEpsilonIsUIKitsSolve() throws {
        for (s, zeta) in [(0.5, 0.5), (1.0, 0.2), (0.3, 1.0), (2.5, 0.75)] {
            let settling = try spring(#"{"type": "spring", "settlingDuration": \#(s), "dampingRatio": \#(zeta)}"#)
            let uikit = Spring.uikit(dampingRatio: zeta, duration: s, initialVelocity: 0).spring
            XCTAssertEqual(settling.stiffness, uikit.stiffness, accuracy: 1e-9 * uikit.stiffness, "s \(s), ζ \(zeta)")
            XCTAssertEqual(settling.damping, uikit.damping, accuracy: 1e-9 * uikit.damping, "s \(s), ζ \(zeta)")
        }
        // docs/springs.md's table: 0.3 s, ζ 1 → stiffness 947.288, damping 61.556.
        let table = try spring(#"{"type": "spring", "settlingDuration": 0.3, "dampingRatio": 1}"#)
        XCTAssertEqual(table.stiffness, 947.288, accuracy: 5e-4)
        XCTAssertEqual(table.damping, 61.556, accuracy: 5e-4)
        XCTAssertEqual(try echo(#"{"type": "spring", "settlingDuration": 0.3, "dampingRatio": 1}"#),
                       #"{"type":"spring","settlingDuration":0.3,"dampingRatio":1,"epsilon":0.001,"initialVelocity":0}"#)
    }

    func testCriticalEnvelopeRootMatchesUIKitsConstant() {
        XCTAssertEqual(Spring.criticalEnvelopeRoot(epsilon: 0.001), 9.233413476451585, accuracy: 1e-12)
        for epsilon in [0.5, 0.1, 1e-4, 1e-12, 1e-300] {
            let u = Spring.criticalEnvelopeRoot(epsilon: epsilon)
            XCTAssertEqual(log1p(u) - u, log(epsilon), accuracy: 1e-12 * max(1, -log(epsilon)), "ε \(epsilon)")
        }
    }

    // MARK: Conflicts and ranges

    /// Every SwiftUI form given with a member of another set: a 422 naming both sets, pointing at
    /// the last member of a set.
    func testConflictingSetsNameBoth() {
        let rows: [(String, [String], String)] = [
            (#""preset": "smooth", "bounce": 0.2"#, ["SwiftUI preset", "perceptual"], "/timing/bounce"),
            (#""preset": "smooth", "mass": 1"#, ["SwiftUI preset", "physical"], "/timing/mass"),
            (#""dampingRatio": 0.5, "preset": "snappy""#, ["SwiftUI preset", "UIKit"], "/timing/preset"),
            (#""extraBounce": 0.1, "perceptualDuration": 0.5"#, ["SwiftUI preset", "perceptual"], "/timing/perceptualDuration"),
            (#""preset": "bouncy", "settlingDuration": 1"#, ["SwiftUI preset", "SwiftUI settlingDuration"], "/timing/settlingDuration"),
            (#""duration": 0.5, "perceptualDuration": 0.5"#, ["SwiftUI duration/bounce", "perceptual"], "/timing/perceptualDuration"),
            (#""duration": 0.5, "dampingRatio": 0.5"#, ["SwiftUI duration/bounce", "UIKit"], "/timing/dampingRatio"),
            (#""duration": 0.5, "response": 0.5"#, ["SwiftUI duration/bounce", "response"], "/timing/response"),
            (#""response": 0.5, "dampingFraction": 0.8, "dampingRatio": 0.8"#, ["SwiftUI response/dampingFraction", "response"],
             "/timing/dampingRatio"),
            (#""dampingFraction": 0.8, "tension": 40"#, ["SwiftUI response/dampingFraction", "Origami"], "/timing/tension"),
            (#""settlingDuration": 1, "dampingRatio": 0.5, "stiffness": 100"#, ["SwiftUI settlingDuration", "Android"],
             "/timing/stiffness"),
            (#""settlingDuration": 1, "dampingRatio": 0.5, "bounce": 0.1"#, ["SwiftUI settlingDuration", "perceptual"], "/timing/bounce"),
            (#""epsilon": 0.01, "duration": 1"#, ["SwiftUI settlingDuration", "SwiftUI duration/bounce"], "/timing/duration"),
            (#""settlingDuration": 1, "dampingRatio": 0.5, "bounciness": 4"#, ["SwiftUI settlingDuration", "POP"],
             "/timing/bounciness"),
        ]
        for (members, sets, pointer) in rows {
            let problem = self.problem(#"{"timing": {"type": "spring", \#(members)}}"#)
            XCTAssertEqual(problem?.status, 422, members)
            XCTAssertEqual(problem?.pointer, pointer, members)
            for set in sets { XCTAssert(problem?.detail.contains("the \(set) and") == true || problem?.detail.contains("and \(set) sets") == true,
                                        "\(members): \(problem?.detail ?? "no problem") names \(set)") }
        }
        // blendDuration with a set whose SwiftUI animation takes none names that set.
        for members in [#""dampingRatio": 0.5, "blendDuration": 0.1"#, #""preset": "smooth", "blendDuration": 0.1"#,
                        #""settlingDuration": 1, "dampingRatio": 0.5, "blendDuration": 0.1"#] {
            let problem = self.problem(#"{"timing": {"type": "spring", \#(members)}, "duration": 1}"#)
            XCTAssertEqual(problem?.pointer, "/timing/blendDuration", members)
            XCTAssert(problem?.detail.contains("not with the") == true, members)
        }
    }

    func testOutOfRangeMembersPointAtThemselves() {
        let rows: [(String, String)] = [
            (#""preset": "smooth", "duration": 0"#, "/timing/duration"),
            (#""preset": "smooth", "duration": -1"#, "/timing/duration"),
            (#""preset": "smooth", "extraBounce": -1"#, "/timing/extraBounce"),
            (#""preset": "bouncy", "extraBounce": -1.3"#, "/timing/extraBounce"),
            (#""preset": "fluffy""#, "/timing/preset"),
            (#""extraBounce": 0.1"#, "/timing/preset"),
            (#""duration": 0, "bounce": 0.2"#, "/timing/duration"),
            (#""duration": 0.5, "bounce": -1"#, "/timing/bounce"),
            (#""response": 0, "dampingFraction": 0.5"#, "/timing/response"),
            (#""response": 0.5, "dampingFraction": -0.1"#, "/timing/dampingFraction"),
            (#""dampingFraction": 0.5"#, "/timing/response"),
            (#""response": 0.5, "dampingFraction": 0.5, "blendDuration": -1"#, "/timing/blendDuration"),
            (#""settlingDuration": 0, "dampingRatio": 0.5"#, "/timing/settlingDuration"),
            (#""settlingDuration": 1"#, "/timing/dampingRatio"),
            (#""epsilon": 0.01, "dampingRatio": 0.5"#, "/timing/settlingDuration"),
            (#""settlingDuration": 1, "dampingRatio": 1.5"#, "/timing/dampingRatio"),
            (#""settlingDuration": 1, "dampingRatio": 0"#, "/timing/dampingRatio"),
            (#""settlingDuration": 1, "dampingRatio": 0.0005"#, "/timing/dampingRatio"),
            (#""settlingDuration": 1, "dampingRatio": 0.5, "epsilon": 0"#, "/timing/epsilon"),
            (#""settlingDuration": 1, "dampingRatio": 0.5, "epsilon": 1"#, "/timing/epsilon"),
            (#""settlingDuration": 1e-300, "dampingRatio": 0.5"#, "/timing/settlingDuration"),
        ]
        for (members, pointer) in rows {
            let problem = self.problem(#"{"timing": {"type": "spring", \#(members)}}"#)
            XCTAssertEqual(problem?.status, 422, members)
            XCTAssertEqual(problem?.pointer, pointer, "\(members): \(problem?.detail ?? "accepted")")
        }
        // Just inside the ζ bound a positive stiffness solves.
        XCTAssertNil(problem(#"{"timing": {"type": "spring", "settlingDuration": 1, "dampingRatio": 0.0011}, "duration": 1}"#))
    }

    /// The new springs run for their settling duration: an animation `duration` is refused as for
    /// every set but UIKit's (rule 7).
    func testSwiftUISpringsTakeNoAnimationDuration() throws {
        for timing in [#""snappy""#, #"{"type": "spring", "duration": 0.5, "bounce": 0.1}"#,
                       #"{"type": "spring", "settlingDuration": 1, "dampingRatio": 0.7}"#] {
            let body = """
            {"views": {"v": {"alpha": 0}}, "animations": [{"view": "v", "duration": 1, "timing": \(timing), "to": {"alpha": 1}}]}
            """
            XCTAssertThrowsError(try RenderRequest.decode(RequestDocument.parse(Array(body.utf8), limits: Limits()), limits: Limits()),
                                 timing) { error in
                XCTAssertEqual((error as? Problem)?.pointer, "/animations/0/duration", timing)
            }
        }
    }
}
