import Foundation
import XCTest
@testable import SegueCodec
import SegueEngine
import SegueJSON

/// Rules 40, 42 and 43 in the export text: stacking as `z-index`, names under `?prefix=`, the
/// `?trigger=` split, container query units and the parameters' checks (docs/exports.md "Scoping and
/// triggering", "Units", "Export parameters").
final class ScopingTests: XCTestCase {
    static let slide = #"{"transition": {"preset": "slideDismiss", "container": [0, 0, 320, 568]}}"#

    func css(_ json: String, _ options: ExportOptions) throws -> String {
        String(decoding: try RenderExport(ExportErrorTests.render(json), options: options).css(), as: UTF8.self)
    }

    func waapi(_ json: String, _ options: ExportOptions) throws -> [String: Any] {
        let bytes = try RenderExport(ExportErrorTests.render(json), options: options).waapi()
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    func testZIndexFollowsTheStackingInCSSAndWAAPI() throws {
        let text = try css(Self.slide, ExportOptions())
        XCTAssertTrue(text.contains(#"[data-segue="to"] { animation: segue-to 0.3s linear both; position: absolute; "#
                                    + "transform-origin: 50% 50%; z-index: 0; left: 0px; top: 0px; width: 320px; height: 568px; }"), text)
        XCTAssertTrue(text.contains("z-index: 1;"), text)
        let views = try XCTUnwrap(waapi(Self.slide, ExportOptions())["views"] as? [String: [String: Any]])
        XCTAssertEqual(views["to"]?["zIndex"] as? Double, 0)
        XCTAssertEqual(views["from"]?["zIndex"] as? Double, 1)
        XCTAssertEqual((views["from"]?["style"] as? [String: String])?["zIndex"], "1")
    }

    func testPrefixNamesKeyframesSelectorsAndAnimationIDs() throws {
        let options = try ExportOptions.parse(tolerance: nil, prefix: "sheet-2")
        let text = try css(Self.slide, options)
        XCTAssertTrue(text.contains("@keyframes sheet-2-from {"), text)
        XCTAssertTrue(text.contains(#"[data-sheet-2="from"] { animation: sheet-2-from 0.3s linear both;"#), text)
        XCTAssertFalse(text.contains("segue"), text)
        let views = try XCTUnwrap(waapi(Self.slide, options)["views"] as? [String: [String: Any]])
        XCTAssertEqual(views["from"]?["selector"] as? String, #"[data-sheet-2="from"]"#)
        XCTAssertEqual((views["from"]?["options"] as? [String: Any])?["id"] as? String, "sheet-2-from")
    }

    func testTriggerPlacesViewsAtTheirFirstFrameAndAnimatesUnderTheSelector() throws {
        let options = try ExportOptions.parse(tolerance: nil, trigger: ".is-presented > main")
        let text = try css(Self.slide, options)
        XCTAssertTrue(text.contains(#"[data-segue="from"] { position: absolute; transform-origin: 50% 50%; z-index: 1; "#
                                    + "left: 0px; top: 0px; width: 320px; height: 568px; "
                                    + "transform: translate(0px, 0px) rotate(0rad) scale(1, 1); }"), text)
        XCTAssertTrue(text.contains(#".is-presented > main [data-segue="from"] { animation: segue-from 0.3s linear both; }"#), text)
        // No animation outside the trigger's rules.
        for line in text.split(separator: "\n") where line.contains("animation:") {
            XCTAssertTrue(line.hasPrefix(".is-presented > main "), String(line))
        }
    }

    func testContainerUnitsAreShareOfTheContainer() throws {
        let json = #"{"transition": {"preset": "slideDismiss", "container": [10, 20, 400, 800]}}"#
        let text = try css(json, ExportOptions(units: .container))
        XCTAssertTrue(text.contains("[data-segue-container] { container-type: size; position: relative; }"), text)
        // Positions from the container's origin, lengths as shares of its size.
        XCTAssertTrue(text.contains("left: 0cqw; top: 0cqh; width: 100cqw; height: 100cqh;"), text)
        XCTAssertTrue(text.contains("translate(0cqw, 100cqh)"), text)
        let layout = try css(json, ExportOptions(geometry: .layout, units: .container))
        XCTAssertTrue(layout.contains("top: 100cqh;"), layout)
        // Pixels are measured from the container's origin too.
        let pixels = try css(json, ExportOptions())
        XCTAssertTrue(pixels.contains("left: 0px; top: 0px; width: 400px; height: 800px;"), pixels)
        XCTAssertFalse(pixels.contains("container-type"), pixels)
    }

    func testContainerUnitsNeedAContainer() throws {
        let request = try ExportErrorTests.render(#"{"views": {"v": {"frame": [0, 0, 10, 10]}}}"#)
        XCTAssertThrowsError(try RenderExport(request, options: ExportOptions(units: .container))) { error in
            XCTAssertEqual((error as? Problem)?.status, 422)
            XCTAssertEqual((error as? Problem)?.extensions.first { $0.key == "parameter" }?.value, .string("units"))
        }
        // A plain render may give its own container.
        let given = try ExportErrorTests.render(#"{"container": [0, 0, 20, 40], "views": {"v": {"frame": [5, 10, 10, 10]}}}"#)
        let text = String(decoding: try RenderExport(given, options: ExportOptions(units: .container)).css(), as: UTF8.self)
        XCTAssertTrue(text.contains("left: 25cqw; top: 25cqh; width: 50cqw; height: 25cqh;"), text)
    }

    func testBadParametersNameTheParameter() {
        let cases: [(prefix: String?, trigger: String?, geometry: String?, units: String?, parameter: String)] = [
            ("9x", nil, nil, nil, "prefix"), ("a b", nil, nil, nil, "prefix"), ("", nil, nil, nil, "prefix"),
            ("é", nil, nil, nil, "prefix"), ("Card", nil, nil, nil, "prefix"), (String(repeating: "a", count: 65), nil, nil, nil, "prefix"),
            (nil, "{", nil, nil, "trigger"), (nil, ".a, .b", nil, nil, "trigger"), (nil, ".a { } .b", nil, nil, "trigger"),
            (nil, ":not(.a)", nil, nil, "trigger"), (nil, "::before", nil, nil, "trigger"), (nil, "", nil, nil, "trigger"),
            (nil, "a >", nil, nil, "trigger"), (nil, #"[x="a"b"]"#, nil, nil, "trigger"), (nil, "/* c */ .a", nil, nil, "trigger"),
            (nil, ".a" + String(repeating: "b", count: 199), nil, nil, "trigger"),
            (nil, nil, "matrix", nil, "geometry"), (nil, nil, nil, "em", "units"),
        ]
        for c in cases {
            XCTAssertThrowsError(try ExportOptions.parse(tolerance: nil, prefix: c.prefix, trigger: c.trigger, geometry: c.geometry,
                                                         units: c.units), "\(c)") { error in
                XCTAssertEqual((error as? Problem)?.status, 422, "\(c)")
                XCTAssertEqual((error as? Problem)?.extensions.first { $0.key == "parameter" }?.value, .string(c.parameter), "\(c)")
            }
        }
    }

    func testSelectorsOfTheSubsetAreTaken() throws {
        for selector in [".is-presented", "#stage.open", "body > .sheet ~ main", "div[data-state=open]", #"[aria-expanded="true"]"#,
                         "main:hover .card", "* + .x", "-x", "--y", "a_b", ".a\t.b", "[x |= 'en']"] {
            XCTAssertTrue(CSSSelector.isValid(selector), selector)
            XCTAssertEqual(try ExportOptions.parse(tolerance: nil, trigger: selector).trigger, selector)
        }
        XCTAssertEqual(try ExportOptions.parse(tolerance: nil, prefix: "card_1-x").prefix, "card_1-x")
    }
}
