import Foundation
import XCTest
@testable import SegueHTTP

/// `GET /v1/presets` and `transition` presets through `POST /v1/render` (docs/rules.md "Presets",
/// rule 25): every listed preset renders, and its `?expand=true` expansion renders to the same
/// bytes.
final class PresetRouteTests: XCTestCase {
    /// No response cache: every render is computed.
    let service: SegueService = {
        var configuration = ServiceConfiguration()
        configuration.cacheEntries = 0
        return SegueService(configuration: configuration)
    }()

    func post(_ body: [UInt8], query: [String: String] = [:]) -> HTTPResponse {
        service.respond(to: HTTPRequest(method: "POST", path: "/v1/render", query: query,
                                        headers: ["content-type": "application/json"], body: body))
    }

    func catalogue() throws -> [[String: Any]] {
        let response = service.respond(to: HTTPRequest(method: "GET", path: "/v1/presets"))
        XCTAssertEqual(response.status, 200)
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return try XCTUnwrap(body["presets"] as? [[String: Any]])
    }

    func testCatalogueListsTheContractsPresetsWithDefaults() throws {
        let presets = try catalogue()
        XCTAssertEqual(presets.compactMap { $0["name"] as? String },
                       ["bouncePresent", "slideDismiss", "zoomPush", "zoomPop", "dropDismiss", "crossDissolve", "swipeUpDismiss",
                        "pane", "push", "pop", "coverVertical", "coverVerticalDismiss", "pageSheet", "pageSheetDismiss"])
        for preset in presets {
            XCTAssertFalse((preset["description"] as? String ?? "").isEmpty)
            let parameters = try XCTUnwrap(preset["parameters"] as? [String: [String: Any]], "\(preset["name"] ?? "")")
            for (name, parameter) in parameters {
                XCTAssertTrue(parameter.keys.contains("default"), name)
                XCTAssertFalse((parameter["description"] as? String ?? "").isEmpty, name)
            }
        }
    }

    func testEveryPresetRendersAndItsExpansionRendersToTheSameBytes() throws {
        for preset in try catalogue() {
            let name = try XCTUnwrap(preset["name"] as? String)
            let request = Array(#"{"fps": 30, "transition": {"preset": "\#(name)", "container": [0, 0, 390, 844]}}"#.utf8)
            let direct = post(request)
            XCTAssertEqual(direct.status, 200, "\(name): \(String(decoding: direct.body, as: UTF8.self).prefix(300))")
            let timeline = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(direct.body)) as? [String: Any])
            XCTAssertGreaterThan(timeline["frameCount"] as? Int ?? 0, 1, name)
            XCTAssertFalse((timeline["animators"] as? [String: Any] ?? [:]).isEmpty, name)
            XCTAssertNil(timeline["expanded"], name)

            let withExpansion = post(request, query: ["expand": "true"])
            XCTAssertEqual(withExpansion.status, 200, name)
            let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(withExpansion.body)) as? [String: Any])
            let expanded = try XCTUnwrap(body["expanded"] as? [String: Any], name)
            XCTAssertNil(expanded["transition"], name)
            XCTAssertEqual(expanded["fps"] as? Double, 30, name)
            XCTAssertNotNil(expanded["views"], name)
            // The expansion exactly as sent (member order matters to the bytes): `expanded` is the
            // response's last member.
            let text = String(decoding: withExpansion.body, as: UTF8.self)
            let start = try XCTUnwrap(text.range(of: #","expanded":"#)).upperBound
            let raw = Array(text[start...].dropLast().utf8)
            let again = post(raw)
            XCTAssertEqual(again.status, 200, name)
            XCTAssertTrue(again.body == direct.body, "\(name): the expansion renders to other bytes")
        }
    }

    func testExpandQueryIsCheckedAndEchoesAPlainRequest() throws {
        let plain = Array(#"{"views": {"card": {"alpha": 1}}}"#.utf8)
        let echoed = post(plain, query: ["expand": "true"])
        XCTAssertEqual(echoed.status, 200)
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(echoed.body)) as? [String: Any])
        XCTAssertEqual((body["expanded"] as? [String: Any]).map { NSDictionary(dictionary: $0) },
                       NSDictionary(dictionary: ["views": ["card": ["alpha": 1]]]))
        XCTAssertEqual(post(plain, query: ["expand": "maybe"]).status, 400)
        XCTAssertEqual(post(plain, query: ["expand": "true", "format": "csv"]).status, 400)
        XCTAssertEqual(post(plain, query: ["expand": "false"]).status, 200)
    }

    /// The issue's pane story from the preset: dragged up, released at 800 pt/s, tapped 0.2 s
    /// later — it heads open, turns back without a velocity jump and settles closed.
    func testPanePresetDraggedUpThenTappedSettlesClosed() throws {
        let samples = stride(from: 0.0, through: 0.2 + 1e-12, by: 0.02).map { "[\($0), \(1000 - 800 * $0)]" }
        let h = 1e-5, tap = 0.4
        let request = """
        {"at": [\(tap - 2 * h), \(tap - h), \(tap), 20], "velocities": true,
         "transition": {"preset": "pane", "container": [0, 0, 400, 1000], "open": 400, "closed": 1000,
                        "samples": [\(samples.joined(separator: ","))], "taps": [\(tap)]}}
        """
        let response = post(Array(request.utf8))
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let velocity = try XCTUnwrap(((body["velocity"] as? [String: Any])?["pane"] as? [String: Any])?["center"] as? [[Double]])
        let center = try XCTUnwrap(((body["views"] as? [String: Any])?["pane"] as? [String: Any])?["center"] as? [[Double]])
        XCTAssertEqual(velocity[2][1], 2 * velocity[1][1] - velocity[0][1], accuracy: 1e-2)
        XCTAssertGreaterThan(abs(velocity[2][1]), 1, "still moving when tapped")
        XCTAssertEqual(center[3], [200, 1000])
        let events = try XCTUnwrap(body["events"] as? [[String: Any]])
        XCTAssertEqual(events.last?["type"] as? String, "completion")
    }
}
