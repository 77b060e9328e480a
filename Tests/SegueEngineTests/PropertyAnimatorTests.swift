import XCTest
@testable import SegueEngine

/// The UIViewPropertyAnimator state machine (docs/rules.md rules 8, 13–17) without the codec.
final class PropertyAnimatorTests: XCTestCase {
    typealias Op = SceneSpec.Operation

    let linear = ActiveTiming(curve: .cubicBezier(.linear), duration: 2)

    func animator(timing: ActiveTiming? = nil, autostart: Bool = true, delay: Double = 0, pausesOnCompletion: Bool = false,
                  scrubsLinearly: Bool = true, _ commands: [(Double, Op)]) throws(PropertyAnimator.Rejection) -> PropertyAnimator {
        try PropertyAnimator(timing: timing ?? linear, delay: delay, autostart: autostart, interactive: false,
                             scrubsLinearly: scrubsLinearly, pausesOnCompletion: pausesOnCompletion,
                             commands: commands.enumerated().map { .init(at: $1.0, index: $0, operation: .command($1.1)) })
    }

    /// Rule 13's table, written out here: every op in every state, accepted exactly when listed.
    func testEveryOperationInEveryStateFollowsRuleThirteen() throws {
        let allowed: [PropertyAnimator.State: Set<String>] = [
            .inactive: ["start", "pause", "fraction", "reverse", "addAnimations"],
            .running: ["pause", "stop", "reverse", "fraction", "addAnimations", "start"],
            .paused: ["start", "stop", "reverse", "fraction", "continue", "addAnimations", "pause"],
            .stopped: ["finish"],
        ]
        // Commands that bring a fresh (inactive, not autostarted) animator into each state at t = 0.5.
        let setups: [PropertyAnimator.State: (autostart: Bool, steps: [(Double, Op)])] = [
            .inactive: (false, []),
            .running: (true, []),
            .paused: (true, [(0.5, .pause)]),
            .stopped: (true, [(0.5, .stop(withoutFinishing: false))]),
        ]
        let ops: [Op] = [.start(delay: 0), .pause, .stop(withoutFinishing: true), .finish(.end), .reverse(true), .fraction(0.5),
                         .continue(nil, durationFactor: 1), .addAnimations(delayFactor: 0, to: []), .retarget(target: [], velocity: nil)]
        for (state, setup) in setups {
            XCTAssertEqual(try animator(autostart: setup.autostart, setup.steps).state(at: 0.6), state)
            for op in ops {
                let steps = setup.steps + [(0.6, op)]
                let accepted = allowed[state]!.contains(op.name)
                do {
                    _ = try animator(autostart: setup.autostart, steps)
                    XCTAssertTrue(accepted, "\(op.name) in \(state) should be refused")
                } catch {
                    XCTAssertFalse(accepted, "\(op.name) in \(state) should be accepted")
                    XCTAssertEqual(error.state, state)
                    XCTAssertEqual(error.command, steps.count - 1)
                    XCTAssertEqual(Set(error.allowed), allowed[state]!)
                }
            }
        }
    }

    /// Rule 14: f moves at ±1 / duration; a reverse retraces and completes at the start.
    func testReverseRetracesAndCompletesAtTheStart() throws {
        let a = try animator([(1.2, .reverse(true))])
        XCTAssertEqual(a.fraction(at: 1.2), 0.6, accuracy: 1e-12)
        XCTAssertEqual(a.fraction(at: 1.7), 0.35, accuracy: 1e-12)
        XCTAssertEqual(a.sample(at: 1.7)?.rate ?? 0, -0.5, accuracy: 1e-12)
        XCTAssertEqual(a.events.map(\.kind), [.start, .reverse, .completion])
        XCTAssertEqual(a.events.last?.t ?? 0, 2.4, accuracy: 1e-12)
        XCTAssertEqual(a.events.last?.position, .start)
        XCTAssertEqual(a.sample(at: 3)?.shown, .start)
        XCTAssertEqual(a.state(at: 3), .inactive)
        XCTAssertTrue(a.reversed(at: 3))
    }

    /// Rule 8: pause freezes what is left of a delay; the layer shows nothing until it runs.
    func testPauseFreezesTheRemainingDelay() throws {
        let a = try animator(delay: 1, [(0.4, .pause), (2, .start(delay: 0))])
        XCTAssertEqual(a.contributionStart ?? 0, 2.6, accuracy: 1e-12)
        XCTAssertEqual(a.fraction(at: 3.6), 0.5, accuracy: 1e-12)
        XCTAssertEqual(a.settles, 4.6, accuracy: 1e-12)
    }

    /// Rule 14: a linear scrub shows f while paused; resuming jumps to timing(f) and says so.
    func testLinearScrubThenResumeRecordsTheJump() throws {
        let eased = ActiveTiming(curve: .cubicBezier(.easeInOut), duration: 2)
        let a = try animator(timing: eased, autostart: false, [(0, .fraction(0.25)), (1, .start(delay: 0))])
        XCTAssertEqual(a.sample(at: 0.5)?.progress ?? 0, 0.25, accuracy: 1e-15)
        let curved = CubicBezier.easeInOut.progress(0.25)
        XCTAssertEqual(a.sample(at: 1)?.progress ?? 0, curved, accuracy: 1e-12)
        XCTAssertEqual(a.jumps.count, 1)
        XCTAssertEqual(a.jumps.first?.command, 1)
        XCTAssertEqual(a.events.map(\.kind), [.pause, .start, .completion])
        XCTAssertEqual(a.events.last?.t ?? 0, 2.5, accuracy: 1e-12)
    }

    /// A resume delayed by its `start` command still names that command for the jump (rule 14).
    func testDelayedResumeAfterALinearScrubNamesItsCommand() throws {
        let eased = ActiveTiming(curve: .cubicBezier(.easeInOut), duration: 2)
        let a = try animator(timing: eased, autostart: false, [(0, .fraction(0.25)), (1, .start(delay: 0.5))])
        XCTAssertEqual(a.jumps.first?.command, 1)
        XCTAssertEqual(a.jumps.first?.t ?? 0, 1.5, accuracy: 1e-12)
        XCTAssertEqual(a.sample(at: 1.2)?.progress ?? 0, 0.25, accuracy: 1e-15)
    }

    /// Rule 16: on a paused animator the added block waits for the resume, even with no delay.
    func testAddedBlockOnAPausedAnimatorWaitsForTheResume() throws {
        let a = try animator([(0.5, .pause), (0.7, .addAnimations(delayFactor: 0, to: [])), (1.5, .start(delay: 0))])
        XCTAssertEqual(a.blockStart(0) ?? 0, 1.5, accuracy: 1e-12)
        // Its window is the rest of the run, fraction 0.25 → 1, over the remaining 1.5 s.
        XCTAssertEqual(a.blockSample(0, at: 2.25)?.progress ?? 0, 0.5, accuracy: 1e-12)
    }

    /// A completed animator keeps its animations done; animations added to it run in a new run
    /// from fraction 0 when it starts again (UIKit reuses an inactive animator this way).
    func testAnimationsAddedAfterCompletionRunInANewRun() throws {
        let a = try animator([(3, .addAnimations(delayFactor: 0, to: [])), (4, .start(delay: 0))])
        XCTAssertEqual(a.sample(at: 2.5)?.shown, .end)
        XCTAssertEqual(a.sample(at: 5)?.shown, .end, "the first run's block stays done")
        XCTAssertEqual(a.fraction(at: 3.5), 0)
        XCTAssertEqual(a.blockStart(0) ?? 0, 4, accuracy: 1e-12)
        XCTAssertEqual(a.blockSample(0, at: 5)?.progress ?? 0, 0.5, accuracy: 1e-12)
        XCTAssertEqual(a.blockSample(0, at: 6)?.shown, .end)
        XCTAssertEqual(a.events.map(\.kind), [.start, .completion, .addAnimations, .start, .completion])
        XCTAssertEqual(a.settles, 6, accuracy: 1e-12)
    }

    /// A run of no length (a duration and repeat count whose product underflows) completes at
    /// once and reports finite fractions.
    func testARunOfNoLengthCompletesAtOnceWithFiniteFractions() throws {
        let nothing = ActiveTiming(curve: .cubicBezier(.linear), duration: 1e-300, repeatCount: 1e-300)
        let a = try animator(timing: nothing, [])
        XCTAssertEqual(a.fraction(at: 0.5), 1)
        XCTAssertEqual(a.events.map(\.kind), [.start, .completion])
    }

    /// An interaction step that pauses a running animator says so (rule 18); a stopped animator
    /// is no longer driven by the interaction.
    func testInteractionPausingARunningAnimatorEmitsPause() throws {
        let steps: [PropertyAnimator.Command] = [
            .init(at: 0.05, index: 0, operation: .command(.start(delay: 0))),
            .init(at: 0.3, index: nil, operation: .interactionUpdate(percent: 0.5)),
            .init(at: 0.4, index: 1, operation: .command(.stop(withoutFinishing: false))),
            .init(at: 0.45, index: nil, operation: .interactionUpdate(percent: 0.9)),
        ]
        let a = try PropertyAnimator(timing: linear, delay: 0, autostart: true, interactive: true, scrubsLinearly: true,
                                     pausesOnCompletion: false, commands: steps)
        XCTAssertEqual(a.events.map(\.kind), [.pause, .start, .pause, .stop])
        XCTAssertNil(a.events[2].command)
        XCTAssertEqual(a.state(at: 0.5), .stopped)
        XCTAssertEqual(a.fraction(at: 0.5), 0.5)
    }

    /// A run that ends and a new one that opens at the same instant: the ended run's values stay.
    func testARunEndingAndAnotherOpeningAtOneInstantKeepsTheEndedValues() throws {
        let a = try animator([(0.5, .stop(withoutFinishing: false)), (0.5, .finish(.end)), (0.5, .start(delay: 0))])
        XCTAssertEqual(a.sample(at: 0.5)?.shown, .end)
        XCTAssertEqual(a.sample(at: 1)?.shown, .end)
        XCTAssertEqual(a.fraction(at: 1), 0.25, accuracy: 1e-12)
        XCTAssertEqual(a.events.map(\.kind), [.start, .stop, .completion, .start, .completion])
    }

    /// Rule 16 on a paused animator: the window is placed when it resumes, from the fraction it
    /// resumes at (a scrub in between moves where, not how far along); a linear scrub shows the
    /// block linearly (rule 14); at its window's start a forward block already moves.
    func testBlockOnAPausedAnimatorPlacesItsWindowAtTheResume() throws {
        let a = try animator([(0.2, .pause), (0.3, .addAnimations(delayFactor: 0, to: [])), (0.5, .fraction(0.8)), (1, .start(delay: 0))])
        XCTAssertEqual(a.blockStart(0) ?? 0, 1, accuracy: 1e-12)
        XCTAssertEqual(a.blockSample(0, at: 1)?.progress ?? 1, 0, accuracy: 1e-12)
        XCTAssertEqual(a.blockSample(0, at: 1)?.rate ?? 0, 1 / 0.4, accuracy: 1e-9)
        XCTAssertEqual(a.blockSample(0, at: 1.2)?.progress ?? 0, 0.5, accuracy: 1e-12)

        let eased = ActiveTiming(curve: .cubicBezier(.easeIn), duration: 1)
        let b = try animator(timing: eased, [(0, .addAnimations(delayFactor: 0, to: [])), (0.5, .fraction(0.5))])
        XCTAssertEqual(b.blockSample(0, at: 0.6)?.progress ?? 0, 0.5, accuracy: 1e-15)
    }

    /// A plain pause holds an added block where it was, even where the curve crosses the
    /// diagonal; a glide (interaction release, continue with timing) carries a started block on
    /// from what it showed, with no jump, and its velocity at the glide's start is right-hand.
    func testBlocksHoldOnAPauseAndGlideOnWithoutAJump() throws {
        let eased = ActiveTiming(curve: .cubicBezier(.easeInOut), duration: 1)
        let held = try animator(timing: eased, [(0, .addAnimations(delayFactor: 0.25, to: [])), (0.5, .pause)])
        let before = try XCTUnwrap(held.blockSample(0, at: 0.5 - 1e-9)).progress
        XCTAssertEqual(try XCTUnwrap(held.blockSample(0, at: 0.6)).progress, before, accuracy: 1e-7)

        let scrubbed = try PropertyAnimator(
            timing: linear, delay: 0, autostart: false, interactive: false, scrubsLinearly: true, pausesOnCompletion: false,
            commands: [.init(at: 0, index: 0, operation: .command(.addAnimations(delayFactor: 0.25, to: []))),
                       .init(at: 0, index: 1, operation: .command(.start(delay: 0))),
                       .init(at: 0.3, index: 2, operation: .command(.fraction(0.8))),
                       .init(at: 0.5, index: 3, operation: .command(.continue(.curve(.cubicBezier(.easeIn)), durationFactor: 1)))])
        let atContinue = try XCTUnwrap(scrubbed.blockSample(0, at: 0.5))
        let justAfter = try XCTUnwrap(scrubbed.blockSample(0, at: 0.5 + 1e-7))
        XCTAssertEqual(atContinue.progress, (0.8 - 0.25) / 0.75, accuracy: 1e-12)
        XCTAssertEqual(justAfter.progress, atContinue.progress, accuracy: 1e-6)
        XCTAssertEqual(scrubbed.blockSample(0, at: 0.5 + 0.4)?.shown, .end)
    }

    /// Once its run has ended the interaction lets the animator go, also after a new run opens.
    func testInteractionLetsGoOfAStoppedAnimatorForGood() throws {
        let steps: [PropertyAnimator.Command] = [
            .init(at: 0.1, index: 0, operation: .command(.stop(withoutFinishing: true))),
            .init(at: 0.2, index: 1, operation: .command(.start(delay: 0))),
            .init(at: 0.5, index: nil, operation: .interactionUpdate(percent: 0.7)),
            .init(at: 0.6, index: nil, operation: .interactionRelease(finish: false, curve: .cubicBezier(.linear), speed: 1)),
        ]
        let a = try PropertyAnimator(timing: linear, delay: 0, autostart: false, interactive: true, scrubsLinearly: true,
                                     pausesOnCompletion: false, commands: steps)
        XCTAssertEqual(a.events.map(\.kind), [.pause, .stop, .start, .completion])
        XCTAssertEqual(a.events.last?.t ?? 0, 2.2, accuracy: 1e-12)
    }

    /// Rule 16: an added block's window starts after delayFactor · (1 − f) of the rest.
    func testAddedBlockWindowFollowsTheFraction() throws {
        let a = try animator([(1, .addAnimations(delayFactor: 0.5, to: []))])
        XCTAssertEqual(a.blockStart(0) ?? 0, 1.5, accuracy: 1e-12)
        // Linear timing: over [1.5, 2] the block's progress runs 0 → 1.
        XCTAssertEqual(a.blockSample(0, at: 1.75)?.progress ?? 0, 0.5, accuracy: 1e-12)
        XCTAssertEqual(a.blockSample(0, at: 1.75)?.rate ?? 0, 2, accuracy: 1e-9)
        XCTAssertEqual(a.blockSample(0, at: 2)?.shown, .end)
    }

    /// `continue` without timing resumes the own curve at speed 1 / durationFactor (rule 15).
    func testContinueWithoutTimingScalesTheRemainingTime() throws {
        let a = try animator([(0.5, .pause), (1, .continue(nil, durationFactor: 2))])
        XCTAssertEqual(a.fraction(at: 2), 0.25 + 1 / 4, accuracy: 1e-12)
        XCTAssertEqual(a.settles, 1 + 0.75 * 2 * 2, accuracy: 1e-12)
        XCTAssertEqual(a.events.map(\.kind), [.start, .pause, .continue, .completion])
    }

    /// An unbounded repeat keeps running (fraction 0, as it has no end) and never settles.
    func testUnboundedRepeatRunsForever() throws {
        let forever = ActiveTiming(curve: .cubicBezier(.linear), duration: 1, repeatCount: .infinity)
        let a = try animator(timing: forever, [(2.25, .pause)])
        XCTAssertEqual(a.sample(at: 2.25)?.progress ?? 0, 0.25, accuracy: 1e-12)
        XCTAssertEqual(a.settles, 2.25)
        let b = try animator(timing: forever, [])
        XCTAssertEqual(b.settles, .infinity)
        XCTAssertEqual(b.fraction(at: 5), 0)
    }
}
