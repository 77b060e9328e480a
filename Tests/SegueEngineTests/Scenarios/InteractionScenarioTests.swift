import Foundation
@testable import SegueEngine
import SegueTestSupport
import XCTest

/// Percent-driven interactive transitions on a compiled `Scene` (docs/rules.md "Interaction",
/// rules 1, 18, 19). The expectations are computed here from the contract: while interacting
/// the animations sit paused at fractionComplete = percent, so (scrubsLinearly defaults to true)
/// the value is from + Δ · percent, percent holding the latest update or sample at or before t;
/// at the release `finish` runs from the presented value P to `to` along `completionCurve` in
/// (1 − p) · duration / completionSpeed, `cancel` runs reversed from P back to `from` in
/// p · duration / completionSpeed. Nothing is pasted from the implementation's output.
final class InteractionScenarioTests: XCTestCase {
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

    /// Compiles the scene over the model's frames and checks, frame by frame, the values
    /// (from + Δ · percent while interacting, then the completion curve), the animator's `state`
    /// (`paused` while interacting — rule 19 —, `running` through the completion window,
    /// `inactive` after), `fraction` (= percent while interacting), `reversed` (true from a
    /// cancel's release on), the release and completion events at their exact times without a
    /// `command` and without a separate `release` event, and `end` = the completion.
    func check(_ model: Model, view: SceneSpec.View, channel: String, animation: SceneSpec.Animation,
               interaction: Interaction, file: StaticString = #filePath, line: UInt = #line) throws {
        let at = model.frames
        let scene = try compile(SceneSpec(views: [view], animations: [animation], interaction: interaction),
                                file: file, line: line)
        let label = "\(model.finishes ? "finish" : "cancel") at p = \(model.p), speed \(model.completionSpeed)"
        let values = try scene.values(view.name, channel, at: at, file: file, line: line)
        XCTAssertEqual(values.count, at.count, file: file, line: line)
        let animator = try scene.animator("dismiss", file: file, line: line)
        let states = at.map(animator.state(at:))
        let fractions = at.map(animator.fraction(at:))
        let reversed = at.map(animator.reversed(at:))
        for (i, t) in at.enumerated() where i < values.count {
            let expected = model.value(at: t)
            XCTAssertEqual(values[i].count, expected.count, file: file, line: line)
            for (got, want) in zip(values[i], expected) {
                XCTAssertEqual(got, want, accuracy: 1e-7, "\(label): \(channel) at \(t)", file: file, line: line)
            }
            XCTAssertEqual(reversed[i], !model.finishes && t >= model.release, "\(label): reversed at \(t)", file: file, line: line)
            if t < model.release {
                XCTAssertEqual(states[i], .paused, "\(label): state at \(t)", file: file, line: line)
                XCTAssertEqual(fractions[i], model.percent(at: t), accuracy: 1e-9, "\(label): fraction at \(t)", file: file, line: line)
            } else if t < model.completion - 1e-9 {
                XCTAssertEqual(states[i], .running, "\(label): state at \(t)", file: file, line: line)
            } else if t > model.completion + 1e-9 {
                XCTAssertEqual(states[i], .inactive, "\(label): state at \(t)", file: file, line: line)
            }
        }
        XCTAssertEqual(values.last ?? [], model.finishes ? model.to : model.from, "\(label): ends exactly", file: file, line: line)
        XCTAssertEqual(scene.end, model.completion, accuracy: 1e-9, label, file: file, line: line)

        let watched: Set<AnimatorEvent.Kind> = [.interactionFinish, .interactionCancel, .completion, .release]
        let events = scene.events.filter { watched.contains($0.event.kind) }
        let expected: [(t: Double, kind: AnimatorEvent.Kind, position: AnimatorEvent.Position?)] = [
            (model.release, model.finishes ? .interactionFinish : .interactionCancel, nil),
            (model.completion, .completion, model.finishes ? .end : .start),
        ]
        XCTAssertEqual(events.map(\.event.kind), expected.map(\.kind), label, file: file, line: line)
        for (got, want) in zip(events, expected) {
            XCTAssertEqual(got.event.t, want.t, accuracy: 1e-9, "\(label): \(want.kind)", file: file, line: line)
            XCTAssertEqual(scene.id(of: got), "dismiss", file: file, line: line)
            XCTAssertNil(got.event.command, "\(label): no command caused \(want.kind)", file: file, line: line)
            if let position = want.position {
                XCTAssertEqual(got.event.position, position, label, file: file, line: line)
            }
        }
    }

    // MARK: - Pan

    let card = SceneSpec.View("card", .numbers("center", 160, 300))
    /// Timing left to UIView's default, easeInOut.
    let dismiss = SceneSpec.Animation.block(id: "dismiss", view: "card", to: [.numbers("center", 160, -100)], duration: 0.5)

    func panModel(_ samples: [(Double, Double)], speed: Double, threshold: Double = 0.5) -> Model {
        let percents = samples.map { (t: $0.0, percent: min(max($0.1 / 400, 0), 1)) }
        return Model(percents: percents, release: samples.last!.0, finishes: percents.last!.percent > threshold,
                     duration: 0.5, completionSpeed: speed, from: [160, 300], to: [160, -100])
    }

    /// `{"animations": ["dismiss"], "completionSpeed": speed, "completionCurve"?: curve,
    ///   "gesture": {"kind": "pan", "distance": 400, "threshold": 0.5, "samples": samples}}`;
    /// without `completionCurve` it is easeInOut.
    func pan(_ samples: [(Double, Double)], speed: Double, curve: TimingCurve?) -> Interaction {
        Interaction(animations: [0], gesture: .pan(distance: 400, threshold: 0.5, samples: samples.map { (t: $0.0, translation: $0.1) }),
                    completionSpeed: speed, completionCurve: curve ?? Interaction.completionCurve)
    }

    /// "Interaction" and rule 19, swipe-up dismiss: a pan whose last percent (240/400 = 0.6)
    /// exceeds the threshold 0.5 finishes at the last sample's time (0.25 s) with
    /// `interactionFinish`; the rest runs in (1 − 0.6) · 0.5 / completionSpeed along easeInOut,
    /// for completionSpeed 1 (completionCurve left at its default) and 2 (given explicitly). A
    /// sample beyond the distance clamps the percent to 1; percent holds between samples.
    func testPanPastTheThresholdFinishes() throws {
        let samples = [(0.0, 0.0), (0.05, 40.0), (0.1, 120.0), (0.15, 440.0), (0.2, 200.0), (0.25, 240.0)]
        for (speed, curve) in [(1.0, nil), (2.0, .easeInOut)] as [(Double, TimingCurve?)] {
            let model = panModel(samples, speed: speed)
            XCTAssertTrue(model.finishes)
            try check(model, view: card, channel: "center", animation: dismiss, interaction: pan(samples, speed: speed, curve: curve))
        }
    }

    /// Rule 19: a pan that stops short (last percent 120/400 = 0.3, after reaching 0.4) cancels
    /// at the last sample's time with `interactionCancel`; the animator runs reversed (`reversed`
    /// true) back to the start in 0.3 · 0.5 / completionSpeed along easeInOut, and completes with
    /// position `start`; completionSpeed 1 and 2.
    func testPanShortOfTheThresholdCancels() throws {
        let samples = [(0.0, 0.0), (0.05, 40.0), (0.1, 120.0), (0.2, 160.0), (0.25, 120.0)]
        for speed in [1.0, 2.0] {
            let model = panModel(samples, speed: speed)
            XCTAssertFalse(model.finishes)
            try check(model, view: card, channel: "center", animation: dismiss, interaction: pan(samples, speed: speed, curve: nil))
        }
    }

    /// "Interaction": the pan finishes only when the last percent *exceeds* the threshold;
    /// exactly 0.5 (200/400) cancels.
    func testPanExactlyAtTheThresholdCancels() throws {
        let samples = [(0.0, 0.0), (0.1, 100.0), (0.2, 200.0)]
        let model = panModel(samples, speed: 1)
        XCTAssertFalse(model.finishes)
        try check(model, view: card, channel: "center", animation: dismiss, interaction: pan(samples, speed: 1, curve: nil))
    }

    // MARK: - updates + end

    let slider = SceneSpec.View("v", .numbers("x", 10))
    let scalarDismiss = SceneSpec.Animation.block(id: "dismiss", view: "v", to: [.numbers("x", 110)], duration: 0.5, timing: .easeIn)

    /// `{"animations": ["dismiss"], "updates": [{0, 0}, {0.1, 0.25}, {0.2, 0.7}],
    ///   "end": {"at": 0.3, "action": action}, "completionSpeed": speed, "completionCurve": curve}`.
    func updates(finishes: Bool, speed: Double, curve: TimingCurve) -> Interaction {
        Interaction(animations: [0], updates: [.init(at: 0, percent: 0), .init(at: 0.1, percent: 0.25), .init(at: 0.2, percent: 0.7)],
                    release: .init(at: 0.3, finishes: finishes), completionSpeed: speed, completionCurve: curve)
    }

    func updatesModel(finishes: Bool, speed: Double, curve: Bezier) -> Model {
        Model(percents: [(0, 0), (0.1, 0.25), (0.2, 0.7)], release: 0.3, finishes: finishes, duration: 0.5,
              completionSpeed: speed, completionCurve: curve, from: [10], to: [110])
    }

    /// "Interaction", `updates` + `end` form with `action: finish`: percent holds 0.7 from
    /// 0.2 s to the release at `end.at` = 0.3 s, then the rest runs in 0.3 · 0.5 / completionSpeed
    /// along completionCurve (easeInOut; and linear, to show the curve is the one given and not
    /// the animation's own easeIn).
    func testUpdatesAndEndFinish() throws {
        for (speed, engineCurve, curve) in [(1.0, TimingCurve.easeInOut, Bezier.easeInOut), (2.0, .easeInOut, .easeInOut),
                                            (1.0, .linear, .linear)] as [(Double, TimingCurve, Bezier)] {
            try check(updatesModel(finishes: true, speed: speed, curve: curve), view: slider, channel: "x",
                      animation: scalarDismiss, interaction: updates(finishes: true, speed: speed, curve: engineCurve))
        }
    }

    /// "Interaction", `updates` + `end` form with `action: cancel`: an explicit cancel at 70 %
    /// runs reversed back to the start in 0.7 · 0.5 / completionSpeed (the action decides, not a
    /// threshold).
    func testUpdatesAndEndCancel() throws {
        for speed in [1.0, 2.0] {
            try check(updatesModel(finishes: false, speed: speed, curve: .easeInOut), view: slider, channel: "x",
                      animation: scalarDismiss, interaction: updates(finishes: false, speed: speed, curve: .easeInOut))
        }
    }

    // MARK: - Pinch

    /// percent = 1 − scale / first scale, clamped to [0, 1] ("Interaction", rule 19); it cancels
    /// when the last |velocity| < 5 and percent ≤ 0.3, and finishes otherwise.
    func pinchModel(_ samples: [(Double, Double, Double)]) -> Model {
        let first = samples[0].1
        let percents = samples.map { (t: $0.0, percent: min(max(1 - $0.1 / first, 0), 1)) }
        let last = samples.last!
        let cancels = abs(last.2) < 5 && percents.last!.percent <= 0.3
        return Model(percents: percents, release: last.0, finishes: !cancels, duration: 1, completionSpeed: 1,
                     from: [10], to: [110])
    }

    /// `{"animations": ["dismiss"], "gesture": {"kind": "pinch", "samples": samples}}`.
    func pinch(_ samples: [(Double, Double, Double)]) -> Interaction {
        Interaction(animations: [0], gesture: .pinch(samples: samples.map { (t: $0.0, scale: $0.1, velocity: $0.2) }))
    }

    /// Timing left to UIView's default, easeInOut.
    let pinchDismiss = SceneSpec.Animation.block(id: "dismiss", view: "v", to: [.numbers("x", 110)], duration: 1)

    /// "Interaction", pinch: released at 20 % with velocity −6 (|velocity| 6 ≥ 5) it finishes,
    /// even below 30 %; the rest runs in 0.8 · 1 s along easeInOut. A scale above the first clamps
    /// the percent to 0.
    func testPinchReleasedFastFinishesBelowThirtyPercent() throws {
        let samples = [(0.0, 2.0, 0.0), (0.05, 2.2, 1.0), (0.1, 1.8, -2.0), (0.2, 1.6, -6.0)]
        let model = pinchModel(samples)
        XCTAssertTrue(model.finishes)
        XCTAssertEqual(model.p, 0.2, accuracy: 1e-12)
        XCTAssertEqual(model.percent(at: 0.05), 0, "clamped")
        try check(model, view: slider, channel: "x", animation: pinchDismiss, interaction: pinch(samples))
    }

    /// "Interaction", pinch: released at 20 % with velocity 0.5 it cancels, reversed back to the
    /// start in 0.2 · 1 s.
    func testPinchReleasedSlowAtTwentyPercentCancels() throws {
        let samples = [(0.0, 2.0, 0.0), (0.05, 2.2, 1.0), (0.1, 1.8, -1.0), (0.2, 1.6, 0.5)]
        let model = pinchModel(samples)
        XCTAssertFalse(model.finishes)
        try check(model, view: slider, channel: "x", animation: pinchDismiss, interaction: pinch(samples))
    }
}
