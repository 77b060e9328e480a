import Foundation
@testable import SegueEngine
import SegueTestSupport
import XCTest

/// Reading and comparing the Render vector cases (helpers of the Render test files).
enum RenderFixtures {
    /// A number as a one-element vector, an array as itself.
    static func vectorValue(_ value: Any) -> [Double] {
        VectorCase.number(value).map { [$0] } ?? VectorCase.numbers(value)
    }

    static func numbersOrNil(_ value: Any?) -> [Double]? {
        guard let value, !(value is NSNull) else { return nil }
        return VectorCase.numbers(value)
    }

    /// `[x1, y1, x2, y2]` as a Bézier, `null` as nil (linear).
    static func optionalBezier(_ value: Any) throws -> CubicBezier? {
        if value is NSNull { return nil }
        return try CubicBezier(VectorCase.numbers(value))
    }

    static func assertAllClose(
        _ actual: [Double], _ expected: [Double], _ tolerance: Double, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(actual.count, expected.count, message, file: file, line: line)
        for (i, (a, e)) in zip(actual, expected).enumerated() {
            assertClose(a, e, tolerance, "\(message)[\(i)]", file: file, line: line)
        }
    }

    /// Every input of the case through `evaluate`, against `expect` (numbers or vectors).
    static func compare(
        _ vector: VectorCase, file: StaticString = #filePath, line: UInt = #line, _ evaluate: (Double) -> [Double]
    ) throws {
        let tolerance = try XCTUnwrap(vector.number("tolerance"), vector.id)
        let expected = try XCTUnwrap(vector.fields["expect"] as? [Any], vector.id).map(RenderFixtures.vectorValue)
        let inputs = vector.numbers("inputs")
        XCTAssertEqual(inputs.count, expected.count, vector.id)
        for (t, e) in zip(inputs, expected) {
            try RenderFixtures.assertAllClose(evaluate(t), e, tolerance, "\(vector.id) t=\(t)", file: file, line: line)
        }
    }

    /// As `compare` for angles: the difference is taken modulo 2π.
    static func compareAngles(_ vector: VectorCase, _ evaluate: (Double) -> Double) throws {
        let tolerance = try XCTUnwrap(vector.number("tolerance"), vector.id)
        for (t, e) in zip(vector.numbers("inputs"), vector.numbers("expect")) {
            assertClose(
                remainder(evaluate(t) - e, 2 * .pi), 0, tolerance, "\(vector.id) t=\(t) angle \(evaluate(t)) vs \(e)")
        }
    }
}
