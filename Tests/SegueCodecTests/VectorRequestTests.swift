import Foundation
import SegueEngine
import XCTest
@testable import SegueCodec
import SegueJSON
import SegueTestSupport

/// The reference vectors (Tests/Fixtures/vectors, copied from shared/vectors) through the whole
/// codec: request JSON in, sampled response out — what `/v1/curve` computes, without a socket.
final class VectorRequestTests: XCTestCase {
    /// The cases of Tests/Fixtures/vectors/`file`, through the shared fixture loader.
    func cases(_ file: String) throws -> [[String: Any]] {
        try VectorCase.load(file).map(\.fields)
    }

    /// Runs one request body through the codec; a Problem comes back as its status.
    func sample(_ body: [String: Any]) throws -> Result<[String: Any], Problem> {
        let bytes = try JSONSerialization.data(withJSONObject: body)
        do {
            let value = try JSONReader.parse(Array(bytes), maxDepth: 64)
            let response = try CurveResponse(CurveRequest.decode(value, limits: Limits()))
            let json = try JSONSerialization.jsonObject(with: Data(try response.json().bytes()))
            return .success(try XCTUnwrap(json as? [String: Any]))
        } catch let problem as Problem {
            return .failure(problem)
        }
    }

    func testCSSCurvesMatchTheVectors() throws {
        var checked = 0
        for c in try cases("curves.json") {
            let kind = c["kind"] as? String ?? ""
            guard ["steps", "linear_easing"].contains(kind), let params = c["params"] as? [String: Any] else { continue }
            if params["before"] as? Bool == true { continue }  // the CSS before flag has no request form
            let css = params["css"] as? String
                ?? "steps(\(params["n"] as? Int ?? 0), \(params["position"] as? String ?? ""))"
            let inputs = try XCTUnwrap(c["inputs"] as? [Double])
            let expect = try XCTUnwrap(c["expect"] as? [Double])
            let tolerance = try XCTUnwrap(c["tolerance"] as? Double)
            let result = try sample(["timing": css, "at": inputs]).get()
            let progress = try XCTUnwrap(result["progress"] as? [Double])
            for (i, value) in progress.enumerated() {
                XCTAssertEqual(value, expect[i], accuracy: tolerance, "\(c["id"]!) at \(inputs[i])")
            }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 15)
    }

    func testLinearPointsResolveAsTheVectorsSay() throws {
        var checked = 0
        for c in try cases("curves.json") where c["kind"] as? String == "linear_points" {
            let css = try XCTUnwrap((c["params"] as? [String: Any])?["css"] as? String)
            let expect = try XCTUnwrap(c["expect"] as? [[Double]])
            let tolerance = try XCTUnwrap(c["tolerance"] as? Double)
            let result = try sample(["timing": css, "samples": 2]).get()
            let timing = try XCTUnwrap(result["timing"] as? [String: Any])
            XCTAssertEqual(timing["type"] as? String, "piecewiseLinear")
            let points = try XCTUnwrap(timing["points"] as? [[Double]])
            XCTAssertEqual(points.count, expect.count, css)
            for (got, want) in zip(points, expect) {
                XCTAssertEqual(got[0], want[0], accuracy: tolerance, css)
                XCTAssertEqual(got[1], want[1], accuracy: tolerance, css)
            }
            checked += 1
        }
        XCTAssertEqual(checked, 4)
    }

    /// Invalid CSS is a 422 on `/timing`; valid CSS samples exactly like its canonical spelling.
    func testEasingParseCases() throws {
        let grid = (0...20).map { Double($0) * 0.05 }
        var checked = 0
        for c in try cases("curves.json") where c["kind"] as? String == "easing_parse" {
            let css = try XCTUnwrap((c["params"] as? [String: Any])?["css"] as? String)
            let expect = try XCTUnwrap(c["expect"] as? [Any])
            switch try sample(["timing": css, "at": grid]) {
            case .failure(let problem):
                XCTAssertTrue(expect.first is NSNull, "\(css) refused: \(problem.detail)")
                XCTAssertEqual(problem.status, 422)
                XCTAssertEqual(problem.pointer, "/timing")
            case .success(let given):
                let canonical = try XCTUnwrap(expect.first as? String, "\(css) should be invalid")
                let reference = try sample(["timing": canonical, "at": grid]).get()
                XCTAssertEqual(given["progress"] as? [Double], reference["progress"] as? [Double], css)
            }
            checked += 1
        }
        XCTAssertEqual(checked, 12)
    }

    /// Spring cases through their API parameter sets, as shared/conformance/check.py maps them.
    func testSpringParameterSetsThroughTheCodec() throws {
        var checked = 0
        for c in try cases("springs.json") {
            let params = c["params"] as? [String: Any] ?? [:]
            var timing: [String: Any] = ["type": "spring"]
            var body: [String: Any] = [:]
            let from: Double, to: Double
            switch c["model"] as? String {
            case "ca.spring":
                for key in ["mass", "stiffness", "damping", "initialVelocity", "allowsOverdamping"] { timing[key] = params[key] }
                from = params["from"] as? Double ?? 0
                to = params["to"] as? Double ?? 1
            case "uikit.durationSpring":
                timing["dampingRatio"] = params["dampingRatio"]
                timing["initialVelocity"] = params["initialVelocity"]
                body["duration"] = params["duration"]
                from = params["from"] as? Double ?? 0
                to = params["to"] as? Double ?? 1
            case "android.spring":
                from = params["startValue"] as? Double ?? 0
                to = params["finalPosition"] as? Double ?? 1
                timing["stiffness"] = params["stiffness"]
                timing["dampingRatio"] = params["dampingRatio"]
                timing["initialVelocity"] = (params["startVelocity"] as? Double ?? 0) / (to - from)
            default:
                continue
            }
            let times = try XCTUnwrap(c["times"] as? [Double])
            let expect = try XCTUnwrap(c["expect"] as? [String: Any])
            let values = try XCTUnwrap(expect["value"] as? [Double])
            let tolerance = try XCTUnwrap(c["tolerance"] as? Double)
            body["timing"] = timing
            body["at"] = times
            let result = try sample(body).get()
            let progress = try XCTUnwrap(result["progress"] as? [Double])
            for (i, p) in progress.enumerated() {
                XCTAssertEqual(from + (to - from) * p, values[i], accuracy: tolerance, "\(c["id"]!) at \(times[i])")
            }
            if let settling = c["settlingDuration"] as? Double {
                let tolerance = c["settlingTolerance"] as? Double ?? tolerance
                XCTAssertEqual(try XCTUnwrap(result["settlingDuration"] as? Double), settling, accuracy: tolerance)
            }
            checked += 1
        }
        XCTAssertEqual(checked, 10)
    }
}
