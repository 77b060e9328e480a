import Foundation
import XCTest
import SegueCodec
import SegueEngine
import SegueJSON
import SegueTestSupport

/// Rule 41 (docs/exports.md "One easing per block"): a property driven over an interval by one
/// block animation on a spring is two keyframes carrying the spring's `linear()`, the same easing
/// for every property and component the block moves — not fitted keyframes. ExportErrorTests and
/// PlacementErrorTests hold these exports to the bound over continuous time.
final class BlockEasingTests: XCTestCase {
    /// An iOS push: three views on one critically damped UIKit spring, and a card whose scale and
    /// alpha share a bouncy one.
    static let push = #"""
    {"views": {"under": {"frame": [0, 0, 390, 844]}, "dim": {"frame": [0, 0, 390, 844], "backgroundColor": [0, 0, 0, 1], "alpha": 0},
               "top": {"frame": [390, 0, 390, 844]}, "card": {"center": [195, 400], "bounds": [0, 0, 300, 200], "alpha": 0,
               "transform": {"scale": [0.8, 0.8]}}},
     "animations": [
      {"view": "under", "duration": 0.5, "timing": {"type": "spring", "dampingRatio": 1}, "to": {"frame": [-117, 0, 390, 844]}},
      {"view": "dim", "duration": 0.5, "timing": {"type": "spring", "dampingRatio": 1}, "to": {"alpha": 0.1}},
      {"view": "top", "duration": 0.5, "timing": {"type": "spring", "dampingRatio": 1}, "to": {"frame": [0, 0, 390, 844]}},
      {"view": "card", "duration": 0.6, "timing": {"type": "spring", "dampingRatio": 0.7}, "to": {"alpha": 1, "transform": {"scale": [1, 1]}}}]}
    """#

    /// The keyframe blocks of each `@keyframes` rule: (position text, declarations).
    static func blocks(_ css: String) -> [String: [(String, [String: String])]] {
        var out: [String: [(String, [String: String])]] = [:]
        var current: String?
        for line in css.split(separator: "\n").map(String.init) {
            if line.hasPrefix("@keyframes ") { current = String(line.dropFirst(11).dropLast(2)); continue }
            guard let name = current, line.hasPrefix("  "), let open = line.firstIndex(of: "{") else { continue }
            let position = line[..<open].trimmingCharacters(in: .whitespaces)
            let body = line[line.index(after: open)...].dropLast().split(separator: ";").compactMap { part -> (String, String)? in
                guard let colon = part.firstIndex(of: ":") else { return nil }
                return (part[..<colon].trimmingCharacters(in: .whitespaces), part[part.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            out[name, default: []].append((position, Dictionary(body) { $1 }))
        }
        return out
    }

    func testSpringBlocksAreTwoKeyframesSharingOneEasing() throws {
        for geometry in [ExportOptions.Geometry.transform, .layout] {
            let export = try RenderExport(ExportErrorTests.render(Self.push), options: ExportOptions(geometry: geometry))
            let css = String(decoding: export.css(), as: UTF8.self)
            let blocks = Self.blocks(css)
            var easings: [String: String] = [:]
            for (name, list) in blocks {
                // Keyframes at the block's start and end only (the 0.5 s blocks hold from their end
                // to the card's 0.6 s); a constant property joins those rules, never one of its own.
                let positions = list.map(\.0)
                XCTAssertEqual(positions.count, name == "segue-card" ? 2 : 3, "\(geometry) \(name): \(css)")
                XCTAssertEqual(Set(positions).count, positions.count, "\(geometry) \(name): one rule per position: \(css)")
                let eased = list.filter { $0.1["animation-timing-function"] != nil }
                XCTAssertEqual(eased.count, 1, "\(geometry) \(name): one rule carries the easing")
                let easing = try XCTUnwrap(eased.first?.1["animation-timing-function"], "\(geometry) \(name)")
                XCTAssertTrue(easing.hasPrefix("linear("), easing)
                XCTAssertEqual(eased.first?.0, "0%", "\(geometry) \(name)")
                // Every property the block moves starts in that one rule, under that one easing.
                let moved = Set(list.flatMap(\.1.keys)).filter { key in Set(list.compactMap { $0.1[key] }).count > 1 }
                XCTAssertTrue(moved.isSubset(of: Set(eased[0].1.keys)), "\(geometry) \(name): \(moved)")
                easings[name] = easing
            }
            // One spring, one `linear()`: the three views of the push share it; the card's is its own.
            XCTAssertEqual(easings["segue-under"], easings["segue-top"], "\(geometry)")
            XCTAssertEqual(easings["segue-under"], easings["segue-dim"], "\(geometry)")
            XCTAssertNotEqual(easings["segue-under"], easings["segue-card"], "\(geometry)")
            XCTAssertLessThanOrEqual(export.maxError, export.tolerance)
        }
    }

    /// The `linear()` of a block is the curve export's `linear()` of the same spring, within the
    /// tolerance of a number moving by one unit: what `/v1/curve?format=css` would give.
    func testABlocksEasingIsTheCurveExportsLinear() throws {
        let render = try ExportErrorTests.render(#"""
        {"views": {"v": {"alpha": 0}}, "animations": [{"view": "v", "duration": 0.8, "timing": {"type": "spring", "dampingRatio": 0.6}, "to": {"alpha": 1}}]}
        """#)
        let css = String(decoding: try RenderExport(render, options: ExportOptions()).css(), as: UTF8.self)
        let curve = try CurveExport(ExportErrorTests.curve(#"{"timing": {"type": "spring", "dampingRatio": 0.6}, "duration": 0.8}"#),
                                    tolerance: 0.9e-3)
        XCTAssertTrue(css.contains("animation-timing-function: \(curve.easing);"), "\(css)\n\(curve.easing)")
        XCTAssertEqual(Self.blocks(css)["segue-v"]?.count, 2, css)
    }
}
