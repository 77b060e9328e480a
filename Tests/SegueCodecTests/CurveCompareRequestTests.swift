import Foundation
import SegueEngine
import XCTest
@testable import SegueCodec
import SegueJSON
import SegueTestSupport

/// `"compare"` on `/v1/curve` (rule 35, docs/springs.md "Compare mode") through the codec: the
/// checker's compare requests for the springs.json cases, every refusal with its pointer, the
/// member order, JSON only, and the work estimate.
final class CurveCompareRequestTests: XCTestCase {
    func request(_ json: String, limits: Limits = Limits()) throws -> CurveRequest {
        try CurveRequest.decode(JSONReader.parse(Array(json.utf8), maxDepth: 64), limits: limits)
    }

    func request(_ body: [String: Any]) throws -> CurveRequest {
        let bytes = try JSONSerialization.data(withJSONObject: body)
        return try CurveRequest.decode(JSONReader.parse(Array(bytes), maxDepth: 64), limits: Limits())
    }

    /// The problem a body is refused with.
    func refusal(_ json: String, limits: Limits = Limits(), file: StaticString = #filePath,
                 line: UInt = #line) -> Problem? {
        do {
            _ = try CurveResponse(request(json, limits: limits))
            XCTFail("accepted: \(json)", file: file, line: line)
        } catch let problem as Problem {
            return problem
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return nil
    }

    func assertRefused(_ json: String, status: Int = 422, pointer: String, mentions: [String] = [],
                       file: StaticString = #filePath, line: UInt = #line) {
        guard let problem = refusal(json, file: file, line: line) else { return }
        XCTAssertEqual(problem.status, status, problem.detail, file: file, line: line)
        XCTAssertEqual(problem.pointer, pointer, problem.detail, file: file, line: line)
        for word in mentions {
            XCTAssertTrue(problem.detail.contains(word), "\(problem.detail) lacks \(word)", file: file, line: line)
        }
    }

    static let spring = #""timing": {"type": "spring", "stiffness": 100, "damping": 10}"#

    /// The requests check.py builds for objc.io, Motion's physics springs and Rebound, compared as
    /// it compares them: value = start + (end − start) · progress within each case's tolerance.
    func testTheCheckersCompareRequests() throws {
        var checked: [String: Int] = [:]
        for vector in try VectorCase.load("springs.json") {
            guard let (engine, body, start, end) = try checkerRequest(vector) else { continue }
            let response = try CurveResponse(request(body))
            let play = try XCTUnwrap(response.plays.first)
            XCTAssertEqual(response.plays.map(\.engine), [engine])
            let expect = try XCTUnwrap(vector.fields["expect"] as? [String: Any])
            let values = VectorCase.numbers(expect["value"])
            let tolerance = try XCTUnwrap(vector.number("tolerance"))
            for (i, value) in values.enumerated() {
                assertClose(start + (end - start) * play.progress[i], value, tolerance, "\(vector.id) #\(i)")
            }
            if let settling = vector.number("settlingDuration") {
                assertClose(try XCTUnwrap(play.settlingDuration), settling, try XCTUnwrap(vector.number("settlingTolerance")),
                            vector.id)
            }
            let deviation = zip(play.progress, response.progress).map { abs($0 - $1) }.max() ?? 0
            XCTAssertEqual(play.maxDeviation, deviation, vector.id)
            checked[engine.rawValue, default: 0] += 1
        }
        XCTAssertEqual(checked, ["objcio": 1, "motion": 2, "rebound": 1])
    }

    /// check.py's `compare_call` for a case, or nil for a case it sends none for.
    private func checkerRequest(_ vector: VectorCase) throws -> (SpringEngine, [String: Any], Double, Double)? {
        let p = vector.params, times = vector.numbers("times")
        func number(_ key: String) -> Double { VectorCase.number(p[key]) ?? 0 }
        var timing: [String: Any], engine: SpringEngine, start: Double, end: Double, velocity: Double
        var tickRate: Double?
        switch vector.fields["model"] as? String {
        case "objcio.euler":
            (engine, start, end, velocity, tickRate) = (.objcio, number("from"), number("to"), number("initialVelocity"),
                                                        1 / number("dt"))
            timing = ["type": "spring", "mass": number("mass"), "stiffness": number("k"), "damping": number("mu"),
                      "allowsOverdamping": true]
        case "motion.spring":
            guard ["stiffness", "damping", "mass"].contains(where: { p[$0] != nil }),
                  !["duration", "bounce", "visualDuration"].contains(where: { p[$0] != nil }) else { return nil }
            let keyframes = VectorCase.numbers(p["keyframes"])
            (engine, start, end, velocity) = (.motion, keyframes[0], keyframes[1], number("velocity"))
            timing = ["type": "spring", "mass": VectorCase.number(p["mass"]) ?? 1,
                      "stiffness": VectorCase.number(p["stiffness"]) ?? 100, "damping": VectorCase.number(p["damping"]) ?? 10,
                      "allowsOverdamping": true]
        case "rebound.spring.rk4":
            (engine, start, end, velocity, tickRate) = (.rebound, number("from"), number("to"), number("velocity"),
                                                        1 / number("frameInterval"))
            timing = ["type": "spring", "bounciness": number("bounciness"), "speed": number("speed")]
        default:
            return nil
        }
        timing["initialVelocity"] = velocity / (end - start)
        var body: [String: Any] = ["timing": timing, "at": times, "compare": [engine.rawValue], "distance": abs(end - start)]
        if let tickRate { body["tickRate"] = tickRate }
        return (engine, body, start, end)
    }

    func testRefusals() {
        let times = #""at": [0, 0.5]"#
        assertRefused(#"{\#(Self.spring), "distance": 50}"#, pointer: "/distance", mentions: ["compare"])
        assertRefused(#"{\#(Self.spring), "tickRate": 120}"#, pointer: "/tickRate", mentions: ["compare"])
        assertRefused(#"{\#(Self.spring), "compare": ["webkit", "flutter"]}"#, pointer: "/compare/1",
                      mentions: ["flutter"] + SpringEngine.allCases.map(\.rawValue))
        assertRefused(#"{\#(Self.spring), "compare": ["pop", "motion", "pop"]}"#, pointer: "/compare/2", mentions: ["pop", "twice"])
        assertRefused(#"{\#(Self.spring), "compare": []}"#, pointer: "/compare", mentions: ["webkit"])
        assertRefused(#"{"timing": "ease-in-out", "compare": ["webkit"]}"#, pointer: "/compare", mentions: ["spring"])
        assertRefused(#"{"timing": {"type": "cubicBezier", "p1": [0.3, 0], "p2": [0.2, 1]}, "compare": ["pop"]}"#,
                      pointer: "/compare", mentions: ["spring"])
        assertRefused(#"{"timing": {"type": "spring", "stiffness": 100, "damping": 0}, \#(times), "compare": ["pop"]}"#,
                      pointer: "/compare", mentions: ["undamped"])
        assertRefused(#"{"timing": {"type": "spring", "stiffness": 300, "dampingRatio": 0}, \#(times), "compare": ["android"]}"#,
                      pointer: "/compare", mentions: ["undamped"])
        assertRefused(#"{\#(Self.spring), "compare": ["pop"], "distance": 0}"#, pointer: "/distance")
        assertRefused(#"{\#(Self.spring), "compare": ["pop"], "distance": -3}"#, pointer: "/distance")
        assertRefused(#"{\#(Self.spring), "compare": ["pop"], "tickRate": 0}"#, pointer: "/tickRate", mentions: ["1000"])
        assertRefused(#"{\#(Self.spring), "compare": ["pop"], "tickRate": 1000.5}"#, pointer: "/tickRate")
        assertRefused(#"{\#(Self.spring), "compare": ["pop", 3]}"#, status: 400, pointer: "/compare/1")
        assertRefused(#"{\#(Self.spring), "compare": "pop"}"#, status: 400, pointer: "/compare")
        // The edges of the ranges are accepted.
        XCTAssertNoThrow(try CurveResponse(request(#"{\#(Self.spring), "compare": ["pop"], "tickRate": 1000, "distance": 1e-3}"#)))
        // null counts as absent, as for every member.
        XCTAssertNoThrow(try CurveResponse(request(#"{\#(Self.spring), "distance": null, "tickRate": null}"#)))
    }

    /// Compare is JSON only: with any other format it is a 422 at /compare; without it nothing is
    /// refused.
    func testCompareIsJSONOnly() throws {
        let asked = try request(#"{\#(Self.spring), "compare": ["webkit"]}"#)
        XCTAssertNoThrow(try asked.refuseCompare(format: "json"))
        for format in ["csv", "svg", "css", "waapi"] {
            XCTAssertThrowsError(try asked.refuseCompare(format: format)) { error in
                let problem = error as? Problem
                XCTAssertEqual(problem?.status, 422)
                XCTAssertEqual(problem?.pointer, "/compare")
                XCTAssertTrue(problem?.detail.contains(format) == true)
            }
            XCTAssertNoThrow(try request(#"{\#(Self.spring)}"#).refuseCompare(format: format))
        }
    }

    /// `compare` comes after `spring` and `analysis`, before `warnings`; its engines in request
    /// order, each with progress, settlingDuration and maxDeviation; streamed sections give the
    /// same bytes as the body written whole.
    func testMemberOrder() throws {
        let body = #"{\#(Self.spring), "at": [0, 0.1, 2], "analysis": true, "compare": ["objcio", "webkit", "android"], "#
            + #""distance": 300, "tickRate": 30}"#
        let response = try CurveResponse(request(body))
        let whole = response.jsonBytes()
        XCTAssertEqual(try response.json().bytes(), whole)
        guard case .object(let members) = try JSONReader.parse(whole, maxDepth: 64) else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key),
                       ["timing", "duration", "settlingDuration", "t", "progress", "velocity", "spring", "analysis", "compare",
                        "warnings"])
        guard case .object(let engines) = members[8].value else { return XCTFail("compare is not an object") }
        XCTAssertEqual(engines.map(\.key), ["objcio", "webkit", "android"])
        for engine in engines {
            guard case .object(let fields) = engine.value else { return XCTFail("\(engine.key) is not an object") }
            XCTAssertEqual(fields.map(\.key), ["progress", "settlingDuration", "maxDeviation"])
            guard case .array(let progress) = fields[0].value else { return XCTFail("progress") }
            XCTAssertEqual(progress.count, 3)
        }
        // Without compare the body has no such member.
        let plain = try CurveResponse(request(#"{\#(Self.spring), "at": [0, 0.1, 2]}"#)).jsonBytes()
        XCTAssertFalse(String(decoding: plain, as: UTF8.self).contains("compare"))
    }

    /// An engine that never comes to rest within the horizon reports null; one that diverges is a
    /// 422 naming it.
    func testNullSettlingAndDivergence() throws {
        // Euler at 1 Hz with ω0 = 100 rad/s grows without bound.
        assertRefused(#"{"timing": {"type": "spring", "stiffness": 10000, "damping": 1}, "at": [0, 1000, 3000], "#
                      + #""compare": ["webkit", "objcio"], "tickRate": 1}"#, pointer: "/compare/1", mentions: ["objcio"])
        var limits = Limits()
        limits.maxDuration = 30
        let response = try CurveResponse(request(#"{"timing": {"type": "spring", "stiffness": 100, "damping": 0.0001}, "#
                                                 + #""duration": 5, "compare": ["pop"]}"#, limits: limits))
        XCTAssertNil(response.plays[0].settlingDuration)
        XCTAssertTrue(String(decoding: response.jsonBytes(), as: UTF8.self).contains(#""settlingDuration":null,"maxDeviation""#))
    }

    /// The work estimate counts the comparison, so `--max-work` refuses a dear one before any of
    /// it runs, and the numbers limit counts its columns.
    func testWorkAndNumbersCountTheComparison() throws {
        let plain = try request(#"{\#(Self.spring)}"#).work
        let compared = try request(#"{\#(Self.spring), "compare": ["pop"]}"#).work
        let fast = try request(#"{\#(Self.spring), "compare": ["pop"], "tickRate": 1000}"#).work
        let all = try request(#"{\#(Self.spring), "compare": ["webkit", "pop", "rebound", "motion", "android", "objcio"]}"#).work
        XCTAssertGreaterThan(compared, plain)
        XCTAssertGreaterThan(fast, compared)
        XCTAssertGreaterThan(all, compared)

        var limits = Limits()
        limits.maxWork = 20_000_000
        let dear = #"{"timing": {"type": "spring", "stiffness": 100, "damping": 0.001}, "duration": 1, "#
            + #""compare": ["pop", "rebound"], "tickRate": 1000}"#
        XCTAssertNoThrow(try request(#"{"timing": {"type": "spring", "stiffness": 100, "damping": 0.001}, "duration": 1}"#,
                                     limits: limits))
        let problem = refusal(dear, limits: limits)
        XCTAssertEqual(problem?.status, 413)
        XCTAssertTrue(problem?.detail.contains("comparison") == true, problem?.detail ?? "")

        limits = Limits()
        limits.maxNumbers = 500
        XCTAssertNoThrow(try request(#"{\#(Self.spring), "samples": 101}"#, limits: limits))
        XCTAssertEqual(refusal(#"{\#(Self.spring), "samples": 101, "compare": ["pop", "motion"]}"#, limits: limits)?.status, 413)
    }
}
