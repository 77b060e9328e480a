import Foundation
import XCTest
@testable import SegueHTTP

/// Percent-driven interactive transitions through `POST /v1/render` (API.md §4 "Interaction",
/// §6 rules 1, 18, 19). The expectations are computed here from the contract: while interacting
/// the animations sit paused at fractionComplete = percent, so (scrubsLinearly defaults to true)
/// the value is from + Δ · percent, percent holding the latest update or sample at or before t;
/// at the release `finish` runs from the presented value P to `to` along `completionCurve` in
/// (1 − p) · duration / completionSpeed, `cancel` runs reversed from P back to `from` in
/// p · duration / completionSpeed. Nothing is pasted from the implementation's output.
final class InteractionScenarioTests: XCTestCase {
    let service = SegueService()

    typealias Bezier = Reference.Bezier

    /// The contract's model of one interactive transition of one animation.
    struct Model {
        /// (time, percent) of every update or sample, in time order, percent already clamped.
        var percents: [(t: Double, percent: Double)]
        var release: Double
        var finishes: Bool
        var duration: Double
        var completionSpeed: Double
        var completionCurve: Bezier = .easeInOut
        var from: [Double]
        var to: [Double]

        /// The latest update or sample at or before t; 0 before the first (rule 19: the animations
        /// start paused at fraction 0).
        func percent(at t: Double) -> Double {
            percents.last { $0.t <= t }?.percent ?? 0
        }
        var p: Double { percent(at: release) }
        var window: Double { (finishes ? 1 - p : p) * duration / completionSpeed }
        var completion: Double { release + window }

        func value(at t: Double) -> [Double] {
            let presented = zip(from, to).map { $0 + ($1 - $0) * p }
            if t < release {
                let q = percent(at: t)
                return zip(from, to).map { $0 + ($1 - $0) * q }
            }
            let target = finishes ? to : from
            let progress = completionCurve(min((t - release) / window, 1))
            return zip(presented, target).map { $0 + ($1 - $0) * progress }
        }

        /// Frame times: 0, every update, half way between updates, eight steps through the
        /// completion window and a frame after it.
        var frames: [Double] {
            var times = [0.0] + percents.map(\.t)
            times += zip(percents, percents.dropFirst()).map { ($0.t + $1.t) / 2 }
            times += (0...8).map { release + window * Double($0) / 8 }
            times.append(completion + 0.05)
            return Array(Set(times)).sorted()
        }
    }

    func render(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try renderObject(service, json, file: file, line: line)
    }

    /// A channel's per-frame values as vectors (a scalar channel becomes one-component vectors).
    func vectors(_ body: [String: Any], _ view: String, _ name: String) throws -> [[Double]] {
        let views = try XCTUnwrap(body["views"] as? [String: Any])
        let values = try XCTUnwrap((views[view] as? [String: Any])?[name] as? [Any], "\(view).\(name)")
        if let vectors = values as? [[Double]] { return vectors }
        return try XCTUnwrap(values as? [Double], "\(view).\(name)").map { [$0] }
    }

    /// Renders `interaction` over the model's frames and checks, frame by frame, the values
    /// (from + Δ · percent while interacting, then the completion curve), the animator's `state`
    /// (`paused` while interacting — rule 19 —, `running` through the completion window,
    /// `inactive` after), `fraction` (= percent while interacting), `reversed` (true from a
    /// cancel's release on), the release and completion events at their exact times without a
    /// `command` and without a separate `release` event, and `duration` = the completion.
    func check(_ model: Model, view: String, channel: String, viewJSON: String, animationJSON: String,
               interaction: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let at = model.frames
        let body = try render("""
        {"at": \(at), "views": {"\(view)": \(viewJSON)},
         "animations": [\(animationJSON)],
         "interaction": \(interaction)}
        """, file: file, line: line)
        let label = "\(model.finishes ? "finish" : "cancel") at p = \(model.p), speed \(model.completionSpeed)"
        let values = try vectors(body, view, channel)
        XCTAssertEqual(values.count, at.count, file: file, line: line)
        let entry = try XCTUnwrap((body["animators"] as? [String: Any])?["dismiss"] as? [String: Any], file: file, line: line)
        let states = try XCTUnwrap(entry["state"] as? [String], file: file, line: line)
        let fractions = try XCTUnwrap(entry["fraction"] as? [Double], file: file, line: line)
        let reversed = try XCTUnwrap(entry["reversed"] as? [Bool], file: file, line: line)
        for (i, t) in at.enumerated() where i < values.count {
            let expected = model.value(at: t)
            XCTAssertEqual(values[i].count, expected.count, file: file, line: line)
            for (got, want) in zip(values[i], expected) {
                XCTAssertEqual(got, want, accuracy: 1e-7, "\(label): \(channel) at \(t)", file: file, line: line)
            }
            XCTAssertEqual(reversed[i], !model.finishes && t >= model.release, "\(label): reversed at \(t)", file: file, line: line)
            if t < model.release {
                XCTAssertEqual(states[i], "paused", "\(label): state at \(t)", file: file, line: line)
                XCTAssertEqual(fractions[i], model.percent(at: t), accuracy: 1e-9, "\(label): fraction at \(t)", file: file, line: line)
            } else if t < model.completion - 1e-9 {
                XCTAssertEqual(states[i], "running", "\(label): state at \(t)", file: file, line: line)
            } else if t > model.completion + 1e-9 {
                XCTAssertEqual(states[i], "inactive", "\(label): state at \(t)", file: file, line: line)
            }
        }
        XCTAssertEqual(values.last ?? [], model.finishes ? model.to : model.from, "\(label): ends exactly", file: file, line: line)
        XCTAssertEqual(body["duration"] as? Double ?? .nan, model.completion, accuracy: 1e-9, label, file: file, line: line)

        let watched: Set<String> = ["interactionFinish", "interactionCancel", "completion", "release"]
        let events = try XCTUnwrap(body["events"] as? [[String: Any]], file: file, line: line)
            .filter { watched.contains($0["type"] as? String ?? "") }
        let expected: [(t: Double, type: String, position: String?)] = [
            (model.release, model.finishes ? "interactionFinish" : "interactionCancel", nil),
            (model.completion, "completion", model.finishes ? "end" : "start"),
        ]
        XCTAssertEqual(events.map { $0["type"] as? String ?? "?" }, expected.map(\.type), label, file: file, line: line)
        for (got, want) in zip(events, expected) {
            XCTAssertEqual(got["t"] as? Double ?? .nan, want.t, accuracy: 1e-9, "\(label): \(want.type)", file: file, line: line)
            XCTAssertEqual(got["animation"] as? String, "dismiss", file: file, line: line)
            XCTAssertNil(got["command"], "\(label): no command caused \(want.type)", file: file, line: line)
            if let position = want.position {
                XCTAssertEqual(got["position"] as? String, position, label, file: file, line: line)
            }
        }
    }

    // MARK: - Pan

    let card = #"{"center": [160, 300]}"#
    let dismiss = #"{"id": "dismiss", "view": "card", "duration": 0.5, "to": {"center": [160, -100]}}"#

    func panModel(_ samples: [(Double, Double)], speed: Double, threshold: Double = 0.5) -> Model {
        let percents = samples.map { (t: $0.0, percent: min(max($0.1 / 400, 0), 1)) }
        return Model(percents: percents, release: samples.last!.0, finishes: percents.last!.percent > threshold,
                     duration: 0.5, completionSpeed: speed, from: [160, 300], to: [160, -100])
    }

    func panJSON(_ samples: [(Double, Double)], speed: Double, curve: String?) -> String {
        let list = samples.map { "[\($0.0), \($0.1)]" }.joined(separator: ", ")
        let curveMember = curve.map { #", "completionCurve": "\#($0)""# } ?? ""
        return """
        {"animations": ["dismiss"], "completionSpeed": \(speed)\(curveMember),
         "gesture": {"kind": "pan", "distance": 400, "threshold": 0.5, "samples": [\(list)]}}
        """
    }

    /// §4 Interaction and §6 rule 19, swipe-up dismiss: a pan whose last percent (240/400 = 0.6)
    /// exceeds the threshold 0.5 finishes at the last sample's time (0.25 s) with
    /// `interactionFinish`; the rest runs in (1 − 0.6) · 0.5 / completionSpeed along easeInOut,
    /// for completionSpeed 1 (completionCurve left at its default) and 2 (given explicitly). A
    /// sample beyond the distance clamps the percent to 1; percent holds between samples.
    func testPanPastTheThresholdFinishes() throws {
        let samples = [(0.0, 0.0), (0.05, 40.0), (0.1, 120.0), (0.15, 440.0), (0.2, 200.0), (0.25, 240.0)]
        for (speed, curve) in [(1.0, nil), (2.0, "easeInOut")] as [(Double, String?)] {
            let model = panModel(samples, speed: speed)
            XCTAssertTrue(model.finishes)
            try check(model, view: "card", channel: "center", viewJSON: card, animationJSON: dismiss,
                      interaction: panJSON(samples, speed: speed, curve: curve))
        }
    }

    /// §6 rule 19: a pan that stops short (last percent 120/400 = 0.3, after reaching 0.4) cancels
    /// at the last sample's time with `interactionCancel`; the animator runs reversed (`reversed`
    /// true) back to the start in 0.3 · 0.5 / completionSpeed along easeInOut, and completes with
    /// position `start`; completionSpeed 1 and 2.
    func testPanShortOfTheThresholdCancels() throws {
        let samples = [(0.0, 0.0), (0.05, 40.0), (0.1, 120.0), (0.2, 160.0), (0.25, 120.0)]
        for speed in [1.0, 2.0] {
            let model = panModel(samples, speed: speed)
            XCTAssertFalse(model.finishes)
            try check(model, view: "card", channel: "center", viewJSON: card, animationJSON: dismiss,
                      interaction: panJSON(samples, speed: speed, curve: nil))
        }
    }

    /// §4 Interaction: the pan finishes only when the last percent *exceeds* the threshold;
    /// exactly 0.5 (200/400) cancels.
    func testPanExactlyAtTheThresholdCancels() throws {
        let samples = [(0.0, 0.0), (0.1, 100.0), (0.2, 200.0)]
        let model = panModel(samples, speed: 1)
        XCTAssertFalse(model.finishes)
        try check(model, view: "card", channel: "center", viewJSON: card, animationJSON: dismiss,
                  interaction: panJSON(samples, speed: 1, curve: nil))
    }

    // MARK: - updates + end

    let slider = #"{"x": 10}"#
    let scalarDismiss = #"{"id": "dismiss", "view": "v", "duration": 0.5, "timing": "easeIn", "to": {"x": 110}}"#

    func updatesJSON(action: String, speed: Double, curve: String) -> String {
        """
        {"animations": ["dismiss"],
         "updates": [{"at": 0, "percent": 0}, {"at": 0.1, "percent": 0.25}, {"at": 0.2, "percent": 0.7}],
         "end": {"at": 0.3, "action": "\(action)"}, "completionSpeed": \(speed), "completionCurve": "\(curve)"}
        """
    }

    func updatesModel(finishes: Bool, speed: Double, curve: Bezier) -> Model {
        Model(percents: [(0, 0), (0.1, 0.25), (0.2, 0.7)], release: 0.3, finishes: finishes, duration: 0.5,
              completionSpeed: speed, completionCurve: curve, from: [10], to: [110])
    }

    /// §4 Interaction, `updates` + `end` form with `action: finish`: percent holds 0.7 from
    /// 0.2 s to the release at `end.at` = 0.3 s, then the rest runs in 0.3 · 0.5 / completionSpeed
    /// along completionCurve (easeInOut; and linear, to show the curve is the one given and not
    /// the animation's own easeIn).
    func testUpdatesAndEndFinish() throws {
        for (speed, name, curve) in [(1.0, "easeInOut", Bezier.easeInOut), (2.0, "easeInOut", .easeInOut), (1.0, "linear", .linear)] as [(Double, String, Bezier)] {
            try check(updatesModel(finishes: true, speed: speed, curve: curve), view: "v", channel: "x", viewJSON: slider,
                      animationJSON: scalarDismiss, interaction: updatesJSON(action: "finish", speed: speed, curve: name))
        }
    }

    /// §4 Interaction, `updates` + `end` form with `action: cancel`: an explicit cancel at 70 %
    /// runs reversed back to the start in 0.7 · 0.5 / completionSpeed (the action decides, not a
    /// threshold).
    func testUpdatesAndEndCancel() throws {
        for speed in [1.0, 2.0] {
            try check(updatesModel(finishes: false, speed: speed, curve: .easeInOut), view: "v", channel: "x", viewJSON: slider,
                      animationJSON: scalarDismiss, interaction: updatesJSON(action: "cancel", speed: speed, curve: "easeInOut"))
        }
    }

    // MARK: - Pinch

    /// percent = 1 − scale / first scale, clamped to [0, 1] (§4, rule 19); it cancels when the last
    /// |velocity| < 5 and percent ≤ 0.3, and finishes otherwise.
    func pinchModel(_ samples: [(Double, Double, Double)]) -> Model {
        let first = samples[0].1
        let percents = samples.map { (t: $0.0, percent: min(max(1 - $0.1 / first, 0), 1)) }
        let last = samples.last!
        let cancels = abs(last.2) < 5 && percents.last!.percent <= 0.3
        return Model(percents: percents, release: last.0, finishes: !cancels, duration: 1, completionSpeed: 1,
                     from: [10], to: [110])
    }

    func pinchJSON(_ samples: [(Double, Double, Double)]) -> String {
        let list = samples.map { "[\($0.0), \($0.1), \($0.2)]" }.joined(separator: ", ")
        return #"{"animations": ["dismiss"], "gesture": {"kind": "pinch", "samples": [\#(list)]}}"#
    }

    let pinchDismiss = #"{"id": "dismiss", "view": "v", "duration": 1, "to": {"x": 110}}"#

    /// §4 Interaction, pinch: released at 20 % with velocity −6 (|velocity| 6 ≥ 5) it finishes,
    /// even below 30 %; the rest runs in 0.8 · 1 s along easeInOut. A scale above the first clamps
    /// the percent to 0.
    func testPinchReleasedFastFinishesBelowThirtyPercent() throws {
        let samples = [(0.0, 2.0, 0.0), (0.05, 2.2, 1.0), (0.1, 1.8, -2.0), (0.2, 1.6, -6.0)]
        let model = pinchModel(samples)
        XCTAssertTrue(model.finishes)
        XCTAssertEqual(model.p, 0.2, accuracy: 1e-12)
        XCTAssertEqual(model.percent(at: 0.05), 0, "clamped")
        try check(model, view: "v", channel: "x", viewJSON: slider, animationJSON: pinchDismiss, interaction: pinchJSON(samples))
    }

    /// §4 Interaction, pinch: released at 20 % with velocity 0.5 it cancels, reversed back to the
    /// start in 0.2 · 1 s.
    func testPinchReleasedSlowAtTwentyPercentCancels() throws {
        let samples = [(0.0, 2.0, 0.0), (0.05, 2.2, 1.0), (0.1, 1.8, -1.0), (0.2, 1.6, 0.5)]
        let model = pinchModel(samples)
        XCTAssertFalse(model.finishes)
        try check(model, view: "v", channel: "x", viewJSON: slider, animationJSON: pinchDismiss, interaction: pinchJSON(samples))
    }
}
