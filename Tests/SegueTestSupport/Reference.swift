import Foundation
import XCTest
@testable import SegueHTTP

/// Independent models and the render call shared by the scenario tests.
enum Reference {
    /// A cubic Bézier timing curve (curves.md §1.1), solved by bisection on X(t) = x to the last
    /// bit — deliberately a different method from the engine's Newton + bisection.
    struct Bezier {
        var x1: Double, y1: Double, x2: Double, y2: Double
        static let easeInOut = Bezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        static let linear = Bezier(x1: 0, y1: 0, x2: 1, y2: 1)

        func callAsFunction(_ x: Double) -> Double {
            if x <= 0 { return 0 }
            if x >= 1 { return 1 }
            if x1 == y1 && x2 == y2 { return x }  // the identity (curves.md §1.2)
            let cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx
            let cy = 3 * y1, by = 3 * (y2 - y1) - cy, ay = 1 - cy - by
            var lo = 0.0, hi = 1.0
            for _ in 0..<200 {
                let mid = (lo + hi) / 2
                if mid <= lo || mid >= hi { break }
                if ((ax * mid + bx) * mid + cx) * mid < x { lo = mid } else { hi = mid }
            }
            let t = (lo + hi) / 2
            return ((ay * t + by) * t + cy) * t
        }
    }
}

/// Renders through the service without a socket; a status other than 200 fails the calling test.
struct RenderFailed: Error {}

extension XCTestCase {
    func renderObject(_ service: SegueService, _ json: String, file: StaticString = #filePath,
                      line: UInt = #line) throws -> [String: Any] {
        let response = service.respond(to: HTTPRequest(method: "POST", path: "/v1/render", query: [:], body: Array(json.utf8)))
        let bytes = try response.collectedBody()
        guard response.status == 200 else {
            XCTFail("status \(response.status): \(String(decoding: bytes, as: UTF8.self))", file: file, line: line)
            throw RenderFailed()
        }
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }
}
