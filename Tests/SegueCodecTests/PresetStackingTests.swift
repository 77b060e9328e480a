import XCTest
@testable import SegueCodec
import SegueEngine
import SegueJSON

/// Rule 40 on the presets: at mid-transition, wherever the view that moves overlaps another, it is
/// the one drawn on top for a presentation and a push (`to` inserted above `from`), and for a
/// dismissal or a pop too — there the moving view is `from`, with `to` inserted below it. A wrong
/// order draws the moving view behind an opaque one, and nothing visibly moves.
final class PresetStackingTests: XCTestCase {
    /// The view seen moving at mid-transition, and the whole stack bottom to top.
    static let expected: [(preset: String, top: String, stacking: [String])] = [
        ("bouncePresent", "to", ["from", "to"]),
        ("slideDismiss", "from", ["to", "from"]),
        ("zoomPush", "to", ["from", "to"]),
        ("zoomPop", "from", ["to", "from"]),
        ("dropDismiss", "from", ["to", "cover", "from"]),
        ("crossDissolve", "to", ["from", "to"]),
        ("swipeUpDismiss", "from", ["to", "from"]),
        ("push", "to", ["from", "dim", "to"]),
        ("pop", "from", ["to", "dim", "from"]),
        ("coverVertical", "to", ["from", "to"]),
        ("coverVerticalDismiss", "from", ["to", "from"]),
        ("pageSheet", "to", ["from", "to"]),
        ("pageSheetDismiss", "from", ["to", "from"]),
    ]

    func render(_ preset: String) throws -> RenderRequest {
        let body = #"{"transition": {"preset": "\#(preset)", "container": [0, 0, 320, 568]}}"#
        return try RenderRequest.decode(JSONReader.parse(Array(body.utf8), maxDepth: 64), limits: Limits())
    }

    /// The corners of a view as UIKit draws it at t: its bounds' size about its centre, under its
    /// transform (about the centre, the default anchor point).
    static func quad(_ scene: Scene, _ view: String, at t: Double) -> [(Double, Double)]? {
        func channel(_ name: String) -> [Double]? {
            scene.channels.first { $0.view == view && $0.name == name }?.value(at: t).numbers
        }
        let centre: (Double, Double), size: (Double, Double)
        if let frame = channel("frame") {
            (centre, size) = ((frame[0] + frame[2] / 2, frame[1] + frame[3] / 2), (frame[2], frame[3]))
        } else if let c = channel("center"), let b = channel("bounds") {
            (centre, size) = ((c[0], c[1]), (b[2], b[3]))
        } else {
            return nil
        }
        let m = channel("transform") ?? [1, 0, 0, 1, 0, 0]
        return [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { sx, sy in
            let dx = sx * size.0 / 2, dy = sy * size.1 / 2
            return (centre.0 + m[0] * dx + m[2] * dy + m[4], centre.1 + m[1] * dx + m[3] * dy + m[5])
        }
    }

    /// Whether p lies inside the convex quadrilateral (either winding).
    static func contains(_ quad: [(Double, Double)], _ p: (Double, Double)) -> Bool {
        var sign = 0.0
        for k in 0..<4 {
            let a = quad[k], b = quad[(k + 1) % 4]
            let cross = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        return sign != 0
    }

    func testTheMovingViewIsOnTopAtMidTransition() throws {
        for (preset, top, stacking) in Self.expected {
            let request = try render(preset)
            let scene = request.scene
            XCTAssertEqual(scene.stacking, stacking, preset)
            // Mid-transition: half the end (an interactive one's release is at 0.25 s of 0.33 s or so).
            let t = scene.end / 2
            let quads = scene.stacking.compactMap { view in Self.quad(scene, view, at: t).map { (view, $0) } }
            var overlaps = 0
            // A 33 × 57 grid over the container: at each point both `top` and another view cover,
            // the last covering view in the stacking is the one drawn.
            for i in 0...32 {
                for j in 0...56 {
                    let p = (Double(i) * 10 + 0.5, Double(j) * 10 + 0.5)
                    let covering = quads.filter { Self.contains($0.1, p) }.map(\.0)
                    guard covering.count > 1, covering.contains(top) else { continue }
                    overlaps += 1
                    XCTAssertEqual(covering.last, top, "\(preset) at t = \(t), point \(p)")
                }
            }
            XCTAssertGreaterThan(overlaps, 0, "\(preset): `\(top)` overlaps another view at mid-transition")
        }
    }

    func testZIndexLiftsAViewAndTiesKeepRequestOrder() throws {
        let body = #"{"views": {"a": {"alpha": 1, "zIndex": 2}, "b": {"alpha": 1}, "c": {"alpha": 1, "zIndex": -1}, "d": {"alpha": 1}}}"#
        let request = try RenderRequest.decode(JSONReader.parse(Array(body.utf8), maxDepth: 64), limits: Limits())
        XCTAssertEqual(request.scene.stacking, ["c", "b", "d", "a"])
    }

    func testZIndexMustBeAnIntegerInRange() throws {
        for (value, status) in [("1.5", 422), ("3e9", 422), ("-3e9", 422), (#""1""#, 400), ("true", 400)] {
            let body = #"{"views": {"a": {"alpha": 1, "zIndex": \#(value)}}}"#
            XCTAssertThrowsError(try RenderRequest.decode(JSONReader.parse(Array(body.utf8), maxDepth: 64), limits: Limits())) { error in
                guard let problem = error as? Problem else { return XCTFail("\(error)") }
                XCTAssertEqual(problem.status, status, "\(value): \(problem.detail)")
                XCTAssertEqual(problem.pointer, "/views/a/zIndex", value)
            }
        }
    }
}
