import Foundation
import SegueEngine
import XCTest

/// The shared fixtures folder, Tests/Fixtures, found from this source file.
public enum Fixtures {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Tests/Fixtures/vectors (copied from shared/vectors; format in the README there).
    public static let vectors = root.appendingPathComponent("vectors")
}

/// One case of Tests/Fixtures/vectors/{curves,springs}.json (format in the README there).
public struct VectorCase {
    public let fields: [String: Any]

    public init(fields: [String: Any]) {
        self.fields = fields
    }

    public var id: String { fields["id"] as? String ?? "?" }
    public var params: [String: Any] { fields["params"] as? [String: Any] ?? [:] }

    public func number(_ key: String) -> Double? { Self.number(fields[key]) }
    public func param(_ key: String) -> Double? { Self.number(params[key]) }
    public func numbers(_ key: String) -> [Double] { Self.numbers(fields[key]) }

    public static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
    public static func numbers(_ value: Any?) -> [Double] { (value as? [Any] ?? []).compactMap(number) }

    /// Every case of Tests/Fixtures/vectors/`file`.
    public static func load(_ file: String) throws -> [VectorCase] {
        let url = Fixtures.vectors.appendingPathComponent(file)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        let cases = try XCTUnwrap(json as? [[String: Any]], "\(file) is not an array of objects")
        return cases.map(VectorCase.init)
    }
}

/// |actual − expected| ≤ tolerance, with the case and input in the message.
public func assertClose(
    _ actual: Double, _ expected: Double, _ tolerance: Double, _ message: @autoclosure () -> String,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssert(
        abs(actual - expected) <= tolerance,
        "\(message()): got \(actual), expected \(expected) ± \(tolerance)", file: file, line: line)
}

extension CubicBezier {
    /// From a JSON `[x1, y1, x2, y2]`.
    public init(_ points: [Double]) throws {
        guard points.count == 4 else { throw VectorError.malformed("Bézier \(points)") }
        self.init(x1: points[0], y1: points[1], x2: points[2], y2: points[3])
    }
}

extension StepPosition {
    /// From the CSS keyword (`jump-start`, `start`, …).
    public init(css: String) throws {
        let names: [String: StepPosition] = [
            "jump-start": .jumpStart, "jump-end": .jumpEnd, "jump-none": .jumpNone,
            "jump-both": .jumpBoth, "start": .start, "end": .end,
        ]
        guard let position = names[css] else { throw VectorError.malformed("step position \(css)") }
        self = position
    }
}

public enum VectorError: Error {
    case malformed(String)
}

/// Test-local reader for the CSS `linear(…)` text of the vectors (numbers and percentages only,
/// no calc()): each comma-separated stop is one number and up to two percentages, in any order.
/// The codec's own parser is tested in SegueCodecTests.
public func linearStops(css: String) throws -> [PiecewiseLinear.Stop] {
    guard css.hasPrefix("linear("), css.hasSuffix(")") else { throw VectorError.malformed(css) }
    return try css.dropFirst("linear(".count).dropLast().split(separator: ",").map { text in
        var output: Double?
        var inputs: [Double] = []
        for token in text.split(separator: " ") {
            if token.hasSuffix("%"), let percent = Double(token.dropLast()) {
                inputs.append(percent / 100)
            } else if let number = Double(token) {
                output = number
            } else {
                throw VectorError.malformed("token \(token) in \(css)")
            }
        }
        guard let output, inputs.count <= 2 else { throw VectorError.malformed("stop \(text) in \(css)") }
        return PiecewiseLinear.Stop(output: output, input: inputs.first, secondInput: inputs.dropFirst().first)
    }
}
