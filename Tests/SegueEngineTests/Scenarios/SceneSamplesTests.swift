@testable import SegueEngine
import XCTest

/// `SceneSamples`: a scene sampled once, frame by frame, into flat columns — the numbers every
/// render writer prints — with the finiteness check and cancellation of the sampling.
final class SceneSamplesTests: XCTestCase {
    /// A scalar, a 4-array and a transform channel, a reversed spring block and a paused one: the
    /// columns hold exactly what the scene's channels and animators answer at each time.
    func testColumnsHoldWhatTheSceneAnswersAtEachFrame() throws {
        let scene = try compile(SceneSpec(
            views: [.init("card", .numbers("frame", 0, 568, 320, 568), .numbers("alpha", 1),
                          .transform(.parts(rotation: 0.5)))],
            animations: [
                .block(id: "present", view: "card", to: [.numbers("frame", 0, 0, 320, 568), .numbers("alpha", 0.25)],
                       duration: 0.8, timing: .uikitSpring(dampingRatio: 0.6, duration: 0.8)),
                .block(id: "turn", view: "card", to: [.transform(.parts(translation: (10, -4), rotation: 2, scale: (2, 0.5)))],
                       duration: 0.5, timing: .easeIn, delay: 0.1),
            ],
            commands: [.at(0.3, .pause, animation: 1), .at(0.4, .reverse(true), animation: 1), .at(0.5, .start(delay: 0), animation: 1)]))
        let times = scene.frames(fps: 60) + [0.123_456, 5]
        let samples = try SceneSamples(scene, at: times, velocities: true)
        XCTAssertEqual(samples.times, times)
        XCTAssertEqual(samples.values.map(\.width), [4, 1, 6])
        XCTAssertEqual(samples.velocities.map(\.width), [4, 1, 6])
        for (index, channel) in scene.channels.enumerated() {
            XCTAssertEqual(samples.values[index].numbers.count, times.count * channel.kind.width)
            for (k, t) in times.enumerated() {
                XCTAssertEqual(Array(samples.values[index].frame(k)), channel.value(at: t).numbers, "\(channel.name) at \(t)")
                XCTAssertEqual(Array(samples.velocities[index].frame(k)), channel.velocity(at: t), "\(channel.name)′ at \(t)")
            }
        }
        XCTAssertEqual(samples.animators.count, 2)
        for (animator, reports) in zip(scene.animators, samples.animators) {
            XCTAssertEqual(reports.fractions, times.map(animator.fraction(at:)))
            XCTAssertEqual(reports.states, times.map(animator.state(at:)))
            XCTAssertEqual(reports.reversed, times.map(animator.reversed(at:)))
        }
        XCTAssertTrue(samples.animators[1].states.contains(.paused))
        XCTAssertTrue(samples.animators[1].reversed.contains(true))
        // 8 bytes a number (times, values, velocities), and an animator's three reports per frame.
        let numbers = times.count * (1 + 2 * 11)
        XCTAssertEqual(samples.retainedBytes, numbers * 8 + 2 * times.count * 10)
        XCTAssertTrue(try SceneSamples(scene, at: times, velocities: false).velocities.isEmpty)
    }

    /// The first number that is not finite is refused with its view, channel and time, channels
    /// in order and frames in order within a channel.
    func testANumberThatIsNotFiniteIsRefusedWithItsChannelAndTime() throws {
        let scene = try compile(SceneSpec(
            views: [.init("card", .numbers("alpha", 1), .numbers("center", -1e308, 0))],
            animations: [.block(id: "a", view: "card", to: [.numbers("center", 1e308, 0)], duration: 1, timing: .linear)]))
        let times = scene.frames(fps: 10)
        let first = try XCTUnwrap(times.first { !scene.channels[1].value(at: $0).numbers.allSatisfy(\.isFinite) })
        XCTAssertThrowsError(try SceneSamples(scene, at: times, velocities: false)) { error in
            XCTAssertEqual(error as? SceneError, .nonFinite(view: "card", channel: "center", t: first))
        }
    }

    /// A raised cancellation stops the sampling.
    func testARaisedCancellationStopsTheSampling() throws {
        let scene = try compile(SceneSpec(
            views: [.init("card", .numbers("alpha", 1))],
            animations: [.block(id: "a", view: "card", to: [.numbers("alpha", 0)], duration: 1)]))
        let cancellation = WorkCancellation()
        XCTAssertNoThrow(try SceneSamples(scene, at: [0, 0.5, 1], velocities: true, cancellation: cancellation))
        cancellation.cancel()
        XCTAssertThrowsError(try SceneSamples(scene, at: [0, 0.5, 1], velocities: true, cancellation: cancellation)) { error in
            XCTAssertEqual(error as? SceneError, .cancelled)
        }
    }
}
