import Foundation
import XCTest
@testable import SegueCodec
import SegueJSON

/// Rules 40 and 44 in the Lottie export: layers in stacking order (`layers[0]` on top), named after
/// their views, filled with their own colour or a distinct palette colour, on the container's canvas.
final class LottieStackingTests: XCTestCase {
    func lottie(_ json: String) throws -> [String: Any] {
        let bytes = try LottieExport(ExportErrorTests.render(json)).lottie(tolerance: 1e-3)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// The fill colour of a layer's rectangle, when constant.
    func fill(_ layer: [String: Any]) throws -> [Double] {
        let group = try XCTUnwrap((layer["shapes"] as? [[String: Any]])?.first)
        let fill = try XCTUnwrap((group["it"] as? [[String: Any]])?.first { $0["ty"] as? String == "fl" })
        return try XCTUnwrap((fill["c"] as? [String: Any])?["k"] as? [Double])
    }

    func testEveryPresetsLayersFollowTheStackingWithDistinctFills() throws {
        for preset in PresetTests.names {
            let json = #"{"transition": {"preset": "\#(preset)", "container": [0, 0, 320, 568]}}"#
            let stacking = try ExportErrorTests.render(json).scene.stacking
            let document = try lottie(json)
            let layers = try XCTUnwrap(document["layers"] as? [[String: Any]])
            XCTAssertEqual(layers.map { $0["nm"] as? String }, stacking.reversed().map { $0 }, preset)
            XCTAssertEqual(layers.map { $0["ind"] as? Double }, (1...stacking.count).reversed().map(Double.init), preset)
            XCTAssertEqual(document["w"] as? Double, 320, preset)
            XCTAssertEqual(document["h"] as? Double, 568, preset)
            if let from = layers.first(where: { $0["nm"] as? String == "from" }), let to = layers.first(where: { $0["nm"] as? String == "to" }) {
                XCTAssertNotEqual(try fill(from), try fill(to), "\(preset): `from` and `to` are told apart")
            }
        }
    }

    func testPaletteByRequestOrderAndOwnColoursKept() throws {
        let json = #"""
        {"container": [0, 0, 100, 50], "views": {"a": {"frame": [0, 0, 10, 10]}, "b": {"frame": [0, 0, 10, 10], "zIndex": -1},
         "c": {"frame": [0, 0, 10, 10], "backgroundColor": [1, 0, 0, 1]}}}
        """#
        let document = try lottie(json)
        XCTAssertEqual(document["w"] as? Double, 100)
        XCTAssertEqual(document["h"] as? Double, 50)
        let layers = try XCTUnwrap(document["layers"] as? [[String: Any]])
        XCTAssertEqual(layers.map { $0["nm"] as? String }, ["c", "a", "b"])
        let a = try fill(layers[1]), b = try fill(layers[2])
        // Request positions 0 and 1: hues 210° and 277°, saturation 65 %, lightness 55 %.
        for (got, want) in zip(a, ViewPalette.rgb(hue: 210, saturation: 0.65, lightness: 0.55)) { XCTAssertEqual(got, want, accuracy: 1e-12) }
        for (got, want) in zip(b, ViewPalette.rgb(hue: 277, saturation: 0.65, lightness: 0.55)) { XCTAssertEqual(got, want, accuracy: 1e-12) }
        XCTAssertEqual(try fill(layers[0]), [1, 0, 0])
    }

    /// CSS Color 4's HSL conversion at known points.
    func testPaletteConversion() {
        XCTAssertEqual(ViewPalette.rgb(hue: 0, saturation: 1, lightness: 0.5), [1, 0, 0])
        XCTAssertEqual(ViewPalette.rgb(hue: 120, saturation: 1, lightness: 0.5), [0, 1, 0])
        XCTAssertEqual(ViewPalette.rgb(hue: 240, saturation: 1, lightness: 0.25), [0, 0, 0.5])
        XCTAssertEqual(ViewPalette.rgb(hue: 90, saturation: 0, lightness: 0.3), [0.3, 0.3, 0.3])
        // 360 distinct hues for the first 360 views.
        XCTAssertEqual(Set((0..<360).map { ViewPalette.color($0).map { ($0 * 1e9).rounded() } }).count, 360)
    }
}
