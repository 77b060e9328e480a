import Foundation
import XCTest
import SegueCodec
import SegueEngine
import SegueJSON
import SegueTestSupport

/// `geometry=transform` (docs/exports.md "Geometry on the compositor", rule 42): the element laid
/// out once at the view's first frame and moved by its animated `transform` is drawn where UIKit
/// draws the view, over continuous time. The check is on the corners, computed independently on
/// each side: CSS draws corner q′ of the element's box at c₀ + M(t)·q′ (M the export's transform
/// evaluated by the CSS Animations evaluator); UIKit draws the view's corner q at
/// c(t) + T(t)·q with q = (±w/2, ±h/2).
///
/// The bound the export proves: the translation within tolerance × s_e (s_e = max(1, its range))
/// and each drawn edge vector (M's columns × w₀ and h₀) within tolerance × its own scale, so a
/// corner's x is off by at most tolerance × (s_tx + (s_a + s_c)/2), its y by tolerance × (s_ty +
/// (s_b + s_d)/2).
final class PlacementErrorTests: XCTestCase {
    /// UIKit's drawn box at t: centre, size, transform.
    static func uikit(_ scene: Scene, _ view: String, at t: Double) -> (c: [Double], size: [Double], m: [Double])? {
        func channel(_ name: String) -> [Double]? { scene.channels.first { $0.view == view && $0.name == name }?.value(at: t).numbers }
        let m = channel("transform") ?? [1, 0, 0, 1, 0, 0]
        if let f = channel("frame") { return ([f[0] + f[2] / 2, f[1] + f[3] / 2], [f[2], f[3]], m) }
        guard channel("center") != nil || channel("bounds") != nil || channel("transform") != nil else { return nil }
        let c = channel("center") ?? [0, 0], b = channel("bounds") ?? [0, 0, 0, 0]
        return (c, [b[2], b[3]], m)
    }

    static let signs: [(Double, Double)] = [(-1, -1), (1, -1), (1, 1), (-1, 1)]

    func testTransformGeometryDrawsTheViewWithinTheBound() throws {
        for (name, json) in ExportErrorTests.renders {
            let request = try ExportErrorTests.render(json)
            let scene = request.scene
            for tolerance in [1e-3, 1e-2] {
                let export = try RenderExport(request, options: ExportOptions(tolerance: tolerance))
                let css = try CSSKeyframesDocument(css: String(decoding: export.css(), as: UTF8.self))
                let waapiJSON = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(export.waapi())) as? [String: Any])
                let views = try XCTUnwrap(waapiJSON["views"] as? [String: [String: Any]])
                var checked = 0, placed = 0
                for view in css.viewIDs {
                    guard let first = Self.uikit(scene, view, at: 0) else { continue }
                    placed += 1
                    // The box the rule lays the element out in; the WAAPI export's style says the same.
                    let rule = Dictionary((css.views[view] ?? []).map { ($0.name, $0.value) }) { $1 }
                    let style = try XCTUnwrap(views[view]?["style"] as? [String: String], name)
                    for key in ["left", "top", "width", "height"] { XCTAssertEqual(style[key], rule[key], "\(name): \(view) \(key)") }
                    let px = { (key: String) in Double(rule[key]?.replacingOccurrences(of: "px", with: "") ?? "0") ?? .nan }
                    let w0 = rule["width"] == nil ? 0 : px("width"), h0 = rule["height"] == nil ? 0 : px("height")
                    let c0 = [px("left") + w0 / 2, px("top") + h0 / 2]
                    XCTAssertEqual(c0[0], first.c[0], accuracy: 1e-9, "\(name): the box is the first frame's")
                    XCTAssertEqual(c0[1], first.c[1], accuracy: 1e-9, "\(name): the box is the first frame's")
                    // Scales of what is drawn over the frames, from UIKit's side.
                    let drawn = request.times.map { t -> [Double] in
                        let u = Self.uikit(scene, view, at: t)!
                        let sx = w0 != 0 ? u.size[0] / w0 : 1, sy = h0 != 0 ? u.size[1] / h0 : 1
                        return [u.m[0] * sx * w0, u.m[1] * sx * w0, u.m[2] * sy * h0, u.m[3] * sy * h0,
                                u.m[4] + u.c[0] - c0[0], u.m[5] + u.c[1] - c0[1]]
                    }
                    let s = (0..<6).map { k in max(1, (drawn.map { $0[k] }.max() ?? 0) - (drawn.map { $0[k] }.min() ?? 0)) }
                    let bound = [tolerance * (s[4] + (s[0] + s[2]) / 2), tolerance * (s[5] + (s[1] + s[3]) / 2)].map { $0 * (1 + 1e-9) + 1e-9 }
                    for t in ExportErrorTests.times(scene.end, count: 400) {
                        let m = try XCTUnwrap(css.values(view: view, at: t)["transform"]?.matrix, "\(name): \(view) transform")
                        let u = Self.uikit(scene, view, at: t)!
                        for (gx, gy) in Self.signs {
                            let q = [gx * w0 / 2, gy * h0 / 2], p = [gx * u.size[0] / 2, gy * u.size[1] / 2]
                            let shown = [c0[0] + m[0] * q[0] + m[2] * q[1] + m[4], c0[1] + m[1] * q[0] + m[3] * q[1] + m[5]]
                            let truth = [u.c[0] + u.m[0] * p[0] + u.m[2] * p[1] + u.m[4], u.c[1] + u.m[1] * p[0] + u.m[3] * p[1] + u.m[5]]
                            for k in 0..<2 where abs(shown[k] - truth[k]) > bound[k] {
                                XCTFail("\(name) at \(tolerance): \(view) corner \(gx),\(gy)[\(k)] at t = \(t) is \(shown[k]), UIKit \(truth[k]), bound \(bound[k])")
                            }
                        }
                        checked += 1
                    }
                }
                XCTAssertEqual(checked, placed * 801, name)
            }
        }
    }

    /// Under `geometry=transform` only `transform` (and what has no compositor form) animates:
    /// `left`, `top`, `width` and `height` stand in the view's rule, never in a keyframe.
    func testTransformGeometryAnimatesNoLayoutProperty() throws {
        for (name, json) in ExportErrorTests.renders {
            let text = String(decoding: try RenderExport(ExportErrorTests.render(json), options: ExportOptions()).css(), as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix("  ") {
                for property in ["left:", "top:", "width:", "height:"] {
                    XCTAssertFalse(line.contains(" " + property), "\(name): \(line)")
                }
            }
        }
    }
}
