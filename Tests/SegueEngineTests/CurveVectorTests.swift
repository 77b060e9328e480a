@testable import SegueEngine
import SegueTestSupport
import XCTest

/// Every curves.json case of the kinds the engine owns, each to its own tolerance.
final class CurveVectorTests: XCTestCase {
    /// Kinds checked here; the others (easing_parse, keyframes, …) belong to other modules.
    static let kinds: Set<String> = [
        "cubic_bezier", "cubic_bezier_slope", "cubic_bezier_chain", "steps", "steps_chain",
        "linear_easing", "linear_points",
    ]

    func testEveryEngineCase() throws {
        var checked: [String: Int] = [:]
        for vector in try VectorCase.load("curves.json") {
            guard let kind = vector.fields["kind"] as? String, Self.kinds.contains(kind) else { continue }
            let tolerance = try XCTUnwrap(vector.number("tolerance"), vector.id)
            if kind == "linear_points" {
                try checkResolvedPoints(vector, tolerance)
            } else {
                let evaluate = try evaluator(kind: kind, vector)
                let inputs = vector.numbers("inputs")
                let expected = vector.numbers("expect")
                XCTAssertEqual(inputs.count, expected.count, vector.id)
                for (x, y) in zip(inputs, expected) {
                    assertClose(evaluate(x), y, tolerance, "\(vector.id) x=\(x)")
                }
            }
            checked[kind, default: 0] += 1
        }
        // Counts from the vectors README; a change in the file shows up here.
        XCTAssertEqual(
            checked,
            [
                "cubic_bezier": 14, "cubic_bezier_slope": 2, "cubic_bezier_chain": 2, "steps": 13,
                "steps_chain": 5, "linear_easing": 6, "linear_points": 4,
            ])
    }

    /// x → output for one case.
    private func evaluator(kind: String, _ vector: VectorCase) throws -> (Double) -> Double {
        let p = vector.params
        switch kind {
        case "cubic_bezier", "cubic_bezier_slope":
            let curve = try CubicBezier(["x1", "y1", "x2", "y2"].map { try XCTUnwrap(vector.param($0)) })
            if kind == "cubic_bezier" { return { curve.progress($0) } }
            return { curve.slope($0) }
        case "cubic_bezier_chain":
            let inner = try CubicBezier(VectorCase.numbers(p["inner"]))
            let outer = try CubicBezier(VectorCase.numbers(p["outer"]))
            return { outer.progress(inner.progress($0)) }
        case "steps", "steps_chain":
            let steps = Steps(
                count: Int(try XCTUnwrap(vector.param("n"))),
                position: try StepPosition(css: try XCTUnwrap(p["position"] as? String)))
            let before = p["before"] as? Bool ?? false
            guard kind == "steps_chain" else { return { steps.progress($0, before: before) } }
            let inner = try CubicBezier(VectorCase.numbers(p["inner"]))
            return { steps.progress(inner.progress($0)) }
        case "linear_easing":
            let points = (p["points"] as? [Any] ?? []).map(VectorCase.numbers)
            let curve = PiecewiseLinear(points: points.map { .init(input: $0[0], output: $0[1]) })
            // The stated points are also what the stops of the CSS text resolve to.
            let fromText = try XCTUnwrap(PiecewiseLinear(stops: linearStops(css: try XCTUnwrap(p["css"] as? String))))
            XCTAssertEqual(fromText, curve, vector.id)
            return { curve.progress($0) }
        default:
            throw VectorError.malformed("kind \(kind)")
        }
    }

    private func checkResolvedPoints(_ vector: VectorCase, _ tolerance: Double) throws {
        let css = try XCTUnwrap(vector.params["css"] as? String)
        let curve = try XCTUnwrap(PiecewiseLinear(stops: linearStops(css: css)), vector.id)
        let expected = (vector.fields["expect"] as? [Any] ?? []).map(VectorCase.numbers)
        XCTAssertEqual(curve.points.count, expected.count, vector.id)
        for (point, pair) in zip(curve.points, expected) {
            assertClose(point.input, pair[0], tolerance, "\(vector.id) input")
            assertClose(point.output, pair[1], tolerance, "\(vector.id) output")
        }
    }
}
