import Foundation
import SegueEngine
import XCTest
@testable import SegueCodec
import SegueJSON
import SegueTestSupport

/// `"analysis": true` on `/v1/curve` (docs/curves.md "Motion analysis") through the codec: every
/// case of Tests/Fixtures/vectors/analysis.json to its tolerances, the member order, the refusal
/// with formats other than JSON, and `false` answering exactly what leaving it out answers.
final class CurveAnalysisRequestTests: XCTestCase {
    func request(_ body: [String: Any]) throws -> CurveRequest {
        let bytes = try JSONSerialization.data(withJSONObject: body)
        return try CurveRequest.decode(JSONReader.parse(Array(bytes), maxDepth: 64), limits: Limits())
    }

    func request(_ json: String) throws -> CurveRequest {
        try CurveRequest.decode(JSONReader.parse(Array(json.utf8), maxDepth: 64), limits: Limits())
    }

    func responseBytes(_ json: String) throws -> [UInt8] {
        try CurveResponse(request(json)).json().bytes()
    }

    func testEveryVectorCaseWithinItsTolerances() throws {
        let cases = try VectorCase.load("analysis.json")
        XCTAssertEqual(cases.count, 21)
        for vector in cases {
            var body = vector.params
            body["analysis"] = true
            body["samples"] = 2
            let bytes = try CurveResponse(request(body)).json().bytes()
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            let got = try XCTUnwrap(json["analysis"] as? [String: Any], vector.id)
            let expect = try XCTUnwrap(vector.fields["expect"] as? [String: Any], vector.id)
            let tolerance = try XCTUnwrap(vector.number("tolerance"))
            let velocityTolerance = try XCTUnwrap(vector.number("velocityTolerance"))
            for key in ["overshoot", "overshootAt", "undershoot", "undershootAt", "peakVelocityAt", "halfway"] {
                compare(got[key], expect[key], tolerance, "\(vector.id) \(key)")
            }
            compare(got["peakVelocity"], expect["peakVelocity"], velocityTolerance, "\(vector.id) peakVelocity")
            let settle = try XCTUnwrap(got["settle"] as? [String: Any], vector.id)
            let expectedSettle = try XCTUnwrap(expect["settle"] as? [String: Any], vector.id)
            XCTAssertEqual(Set(settle.keys), ["0.01", "0.001"], vector.id)
            for band in ["0.01", "0.001"] {
                compare(settle[band], expectedSettle[band], tolerance, "\(vector.id) settle \(band)")
            }
            XCTAssertEqual(got["oscillations"] as? Int, expect["oscillations"] as? Int, "\(vector.id) oscillations")
            XCTAssertEqual(got["oscillations"] is NSNull, expect["oscillations"] is NSNull, "\(vector.id) oscillations")
        }
    }

    /// Both null, or both numbers within `tolerance`.
    func compare(_ got: Any?, _ expect: Any?, _ tolerance: Double, _ what: String) {
        if expect is NSNull {
            XCTAssertTrue(got is NSNull, "\(what): got \(String(describing: got)), expected null")
            return
        }
        guard let want = VectorCase.number(expect), let value = VectorCase.number(got), !(got is NSNull) else {
            return XCTFail("\(what): got \(String(describing: got)), expected \(String(describing: expect))")
        }
        assertClose(value, want, tolerance, what)
    }

    func testMembersInTheRuleOrderBeforeTheWarnings() throws {
        let text = String(decoding: try responseBytes(#"{"timing": "linear", "samples": 2, "analysis": true}"#), as: UTF8.self)
        let head = #""analysis":{"overshoot":0,"overshootAt":null,"undershoot":0,"undershootAt":null,"peakVelocity":1,"#
            + #""peakVelocityAt":0,"halfway":0.5,"settle":{"0.01":"#
        XCTAssertTrue(text.contains(#","spring"#) == false && text.contains(head), text)
        let keys = ["\"analysis\"", "\"0.01\"", "\"0.001\"", "},\"oscillations\":0}", "\"warnings\""]
        let positions = keys.map { text.range(of: $0)?.lowerBound }
        XCTAssertFalse(positions.contains(nil), text)
        XCTAssertEqual(positions.compactMap { $0 }, positions.compactMap { $0 }.sorted(), text)
    }

    func testFalseIsByteIdenticalToLeavingItOut() throws {
        for body in [#""timing": "ease""#, #""timing": {"type": "spring", "dampingRatio": 0.5}, "duration": 0.4, "fps": 60"#,
                     #""timing": "linear(0, 1.2 50%, 1)", "at": [0, 0.5, 2]"#, #""timing": "steps(3)""#] {
            let without = try CurveResponse(request("{\(body)}"))
            let with = try CurveResponse(request("{\(body), \"analysis\": false}"))
            XCTAssertEqual(try with.json().bytes(), try without.json().bytes(), body)
            XCTAssertEqual(with.jsonBytes(), without.jsonBytes(), body)
            XCTAssertEqual(with.request.work, without.request.work, body)
            XCTAssertEqual(with.estimatedBytes, without.estimatedBytes, body)
            XCTAssertNil(with.analysis)
        }
    }

    func testEveryOtherFormatIsRefusedAtTheMember() throws {
        let asked = try request(#"{"timing": "ease", "analysis": true}"#)
        XCTAssertNoThrow(try asked.refuseAnalysis(format: "json"))
        for format in ["csv", "svg", "css", "waapi"] {
            XCTAssertThrowsError(try asked.refuseAnalysis(format: format)) { error in
                let problem = error as? Problem
                XCTAssertEqual(problem?.status, 422, format)
                XCTAssertEqual(problem?.pointer, "/analysis", format)
                XCTAssertTrue(problem?.detail.contains("format=\(format)") ?? false, format)
            }
            let notAsked = try request(#"{"timing": "ease", "analysis": false}"#)
            XCTAssertNoThrow(try notAsked.refuseAnalysis(format: format))
        }
    }

    func testAWrongTypeIsA400AtTheMember() {
        XCTAssertThrowsError(try request(#"{"timing": "ease", "analysis": "yes"}"#)) { error in
            XCTAssertEqual((error as? Problem)?.status, 400)
            XCTAssertEqual((error as? Problem)?.pointer, "/analysis")
        }
    }

    func testTheAnalysisIsCountedInTheWork() throws {
        for timing in [#""ease""#, #""steps(40)""#, #""linear(0, 0.3, 1)""#, #"{"type": "spring", "mass": 1, "stiffness": 100, "damping": 10}"#] {
            let plain = try request(#"{"timing": \#(timing)}"#)
            let asked = try request(#"{"timing": \#(timing), "analysis": true}"#)
            XCTAssertEqual(asked.work, plain.work + SceneCost.curveAnalysis(asked.curve), timing)
            XCTAssertGreaterThan(SceneCost.curveAnalysis(asked.curve), 0, timing)
        }
    }

    /// The window does not limit a spring's analysis: its domain is t ≥ 0.
    func testAFreeSpringIsAnalysedBeyondItsWindow() throws {
        let short = try CurveResponse(request(#"{"timing": {"type": "spring", "stiffness": 100, "damping": 10}, "duration": 0.1, "analysis": true}"#))
        let long = try CurveResponse(request(#"{"timing": {"type": "spring", "stiffness": 100, "damping": 10}, "duration": 5, "analysis": true}"#))
        XCTAssertEqual(short.analysis, long.analysis)
        XCTAssertGreaterThan(try XCTUnwrap(short.analysis?.settle.fine), 0.1)
    }
}
