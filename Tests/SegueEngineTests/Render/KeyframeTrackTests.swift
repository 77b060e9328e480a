@testable import SegueEngine
import XCTest

/// KeyframeTrack structure handling (docs/keyframes.md "Calculation modes", docs/rules.md rule 12) and UIView keyframe
/// derivation (docs/keyframes.md "UIView keyframe blocks", docs/rules.md rule 11) beyond the reference vectors.
final class KeyframeTrackTests: XCTestCase {
    private let three: [[Double]] = [[0], [1], [2]]

    private func track(
        _ values: [[Double]], _ mode: CalculationMode, keyTimes: [Double]? = nil, timing: [CubicBezier?]? = nil,
        tension: [Double]? = nil, continuity: [Double]? = nil, bias: [Double]? = nil
    ) -> KeyframeTrack {
        KeyframeTrack(
            values: values, keyTimes: keyTimes, timingFunctions: timing.map { $0.map { $0.map(TimingCurve.cubicBezier) } },
            mode: mode, tension: tension,
            continuity: continuity, bias: bias)
    }

    func testIgnoredKeyTimesWarnAndFallBackToEvenSpacing() {
        for keyTimes in [[0, 1], [0.1, 0.5, 1], [0, 0.5, 0.9], [0, 1.2, 1], [0, .nan, 1]] {
            let linear = track(three, .linear, keyTimes: keyTimes)
            XCTAssertEqual(linear.warnings.map(\.subject.member.rawValue), ["keyTimes"], "\(keyTimes)")
            XCTAssertEqual(linear.effectiveKeyTimes, [0, 0.5, 1], "\(keyTimes)")
            XCTAssertEqual(linear.value(at: 0.25), [0.5])
        }
        // Discrete takes one key time per value or one more; paced modes ignore them silently.
        XCTAssertEqual(track(three, .discrete, keyTimes: [0, 0.2, 1]).warnings, [])
        XCTAssertEqual(track(three, .discrete, keyTimes: [0, 0.2, 0.4, 1]).value(at: 0.3), [1])
        XCTAssertEqual(track(three, .discrete, keyTimes: [0, 1]).warnings.map(\.subject.member.rawValue), ["keyTimes"])
        XCTAssertEqual(track(three, .paced, keyTimes: [0, 1], timing: [nil]).warnings, [])
        XCTAssertEqual(track(three, .cubicPaced, keyTimes: [0.3], timing: [nil]).warnings, [])
    }

    func testIgnoredTimingFunctionsAndTCBWarn() {
        let easeIn = CubicBezier.easeIn
        let wrong = track(three, .linear, timing: [easeIn])
        XCTAssertEqual(wrong.warnings.map(\.subject.member.rawValue), ["timingFunctions"])
        XCTAssertEqual(wrong.value(at: 0.25), [0.5])  // segments linear
        XCTAssertEqual(track(three, .linear, timing: [easeIn, nil]).value(at: 0.25), [easeIn.progress(0.5)])

        let tcb = track(three, .cubic, tension: [1], continuity: [0, 0], bias: [0, 0, 0, 0])
        XCTAssertEqual(tcb.warnings.map(\.subject.member.rawValue), ["tensionValues", "continuityValues", "biasValues"])
        XCTAssertEqual(tcb.value(at: 0.25), track(three, .cubic).value(at: 0.25))
        // Tension 1 on every key: zero tangents, so a segment's middle is the chord's middle.
        let tight = track([[0], [10], [0]], .cubic, tension: [1, 1, 1])
        XCTAssertEqual(tight.value(at: 0.25), [5])
    }

    func testUIViewKeyframeDerivation() {
        func derive(_ frames: [(Double, Double, Double)]) -> ([Double], [Double]) {
            UIViewKeyframes.track(
                from: 0.0, keyframes: frames.map { RelativeKeyframe(start: $0.0, duration: $0.1, value: $0.2) })
        }
        // Zero duration: two points at one key time (a jump, the later value shown from then).
        let jump = derive([(0.5, 0, 1)])
        XCTAssertEqual(jump.0, [0, 0.5, 0.5, 1])
        XCTAssertEqual(jump.1, [0, 0, 1, 1])
        XCTAssertEqual(track(jump.1.map { [$0] }, .linear, keyTimes: jump.0).value(at: 0.5), [1])
        // Overlap: delayed to the previous end, keeping the duration, clipped at 1.
        XCTAssertEqual(derive([(0, 0.5, 1), (0.25, 0.25, 2)]).0, [0, 0.5, 0.75, 1])
        XCTAssertEqual(derive([(0, 0.8, 1), (0.5, 0.5, 2)]).0, [0, 0.8, 1])
        XCTAssertEqual(derive([(0, 0.8, 1), (0.5, 0.5, 2)]).1, [0, 1, 2])
        // No keyframes: the value holds.
        XCTAssertEqual(derive([]).0, [0, 1])
    }

    /// No input traps: empty, mismatched and non-finite values, key times and times, every mode.
    func testNoTrapOnOddInput() {
        let odd: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, 0, 0.5, 1]
        let valueSets: [[[Double]]] = [[], [[1]], [[1, 2], [3]], [[.nan], [1e308], [-1e308]], odd.map { [$0, 1] }]
        for mode in CalculationMode.allCases {
            for values in valueSets {
                for keyTimes in [nil, [.nan, 0.5, 1], odd, [0, 1]] as [[Double]?] {
                    let t = track(values, mode, keyTimes: keyTimes, timing: [nil, .easeIn], tension: [.nan], bias: odd)
                    for time in odd {
                        XCTAssertEqual(t.value(at: time).count, values.map(\.count).min() ?? 0)
                    }
                }
            }
        }
        let frames = odd.map { RelativeKeyframe(start: $0, duration: $0, value: $0) }
        let derived = UIViewKeyframes.track(from: 0.0, keyframes: frames)
        XCTAssertEqual(derived.keyTimes.count, derived.values.count)
        _ = KeyframeTrack(
            values: derived.values.map { [$0] }, keyTimes: derived.keyTimes, timingFunctions: nil, mode: .linear,
            tension: nil, continuity: nil, bias: nil
        ).value(at: 0.5)
    }
}
