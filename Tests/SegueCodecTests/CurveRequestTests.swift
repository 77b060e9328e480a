import SegueEngine
import XCTest
@testable import SegueCodec
import SegueJSON

final class CurveRequestTests: XCTestCase {
    func decode(_ json: String, limits: Limits = Limits()) throws -> CurveRequest {
        try CurveRequest.decode(JSONReader.parse(Array(json.utf8), maxDepth: 64), limits: limits)
    }

    func problem(_ json: String, limits: Limits = Limits()) -> Problem? {
        do {
            _ = try CurveResponse(decode(json, limits: limits))
            return nil
        } catch let problem as Problem {
            return problem
        } catch {
            return nil
        }
    }

    func testDefaultSamplingIs101EvenSamplesEndingExactlyOnTheDuration() throws {
        let request = try decode(#"{"timing": "ease", "duration": 0.3}"#)
        XCTAssertEqual(request.times.count, 101)
        XCTAssertEqual(request.times.first, 0)
        XCTAssertEqual(request.times.last, 0.3)
        XCTAssertEqual(request.times[50], 0.3 * 50 / 100)
    }

    func testFPSGrid() throws {
        // 1 s at 60 fps: frames 0…60; 1/60 s · i exactly as i / fps.
        let request = try decode(#"{"timing": "linear", "fps": 60}"#)
        XCTAssertEqual(request.times.count, 61)
        XCTAssertEqual(request.times[7], 7.0 / 60)
        // 0.25 s at 60 fps = 15 frames after 0: ceil(15 − 1e-9) = 15.
        XCTAssertEqual(try decode(#"{"timing": "linear", "fps": 60, "duration": 0.25}"#).times.count, 16)
        // A duration just past a frame adds one.
        XCTAssertEqual(try decode(#"{"timing": "linear", "fps": 60, "duration": 0.2501}"#).times.count, 17)
    }

    func testAtKeepsOrderAndAllowsExtrapolation() throws {
        let request = try decode(#"{"timing": "cubic-bezier(0.25, 0.1, 0.25, 1)", "at": [1.5, -0.5, 0.5]}"#)
        XCTAssertEqual(request.times, [1.5, -0.5, 0.5])
        let response = try CurveResponse(request)
        // Before 0 the start gradient y1/x1 = 0.4; after 1 the end gradient (y2−1)/(x2−1) = 0.
        XCTAssertEqual(response.progress[0], 1)
        XCTAssertEqual(response.progress[1], -0.2, accuracy: 1e-15)
        XCTAssertEqual(response.velocity[1], 0.4, accuracy: 1e-15)
    }

    func testVelocityIsPerSecondOverTheDuration() throws {
        let response = try CurveResponse(decode(#"{"timing": "linear", "duration": 2, "samples": 3}"#))
        XCTAssertEqual(response.velocity, [0.5, 0.5, 0.5])
    }

    func testVerticalTangentReportsGreatestFiniteMagnitude() throws {
        // cubic-bezier(0, 0.5, 1, 0.5) starts vertically: X′(0) = 3·x1 = 0, Y′(0) = 3·y1 = 1.5.
        // With duration 0.5 the slope divided by the duration would overflow; it stays the
        // largest finite double (docs/rules.md rule 4).
        let response = try CurveResponse(decode(#"{"timing": "cubic-bezier(0, 0.5, 1, 0.5)", "at": [0], "duration": 0.5}"#))
        XCTAssertEqual(response.velocity[0], .greatestFiniteMagnitude)
        XCTAssertTrue(String(decoding: try response.json().bytes(), as: UTF8.self).contains("1.7976931348623157e+308"))
    }

    /// The JSON body's one layout, written whole (`jsonBytes`, what a small body takes) and in
    /// sections (`json`, what a large one streams as), piece by piece and at once: the same bytes,
    /// for a Bézier, a spring (with its settling time and the `spring` member), a curve with a
    /// warning, and sample counts from 1 to past the streaming size; and whole with the sample-time
    /// memo, on its miss and on its hit.
    func testWholeAndSectionedJSONBodiesAreTheSameBytes() throws {
        let requests = [
            #"{"timing": "ease", "samples": 2}"#,
            #"{"timing": "cubic-bezier(0.25, 0.1, 0.25, 1)", "samples": 61}"#,
            #"{"timing": {"type": "spring", "dampingRatio": 0.5}, "duration": 1, "samples": 5000}"#,
            #"{"timing": {"type": "spring", "dampingRatio": 2}, "duration": 20, "samples": 30}"#,
            #"{"timing": "linear(0, 0.5 25%, 1)", "at": [0.5]}"#,
            #"{"timing": {"type": "spring", "response": 0.5, "dampingRatio": 1.2}, "fps": 60}"#,
            #"{"timing": "steps(3, jump-both)", "duration": 2, "samples": 1500}"#,
        ]
        var warnings = 0, streamed = 0
        let memo = ColumnTextMemo()
        for json in requests {
            let request = try decode(json)
            let response = try CurveResponse(request)
            let whole = response.jsonBytes()
            XCTAssertEqual(try response.json().bytes(), whole, json)
            XCTAssertEqual(response.jsonBytes(timesFrom: memo), whole, "memo missed: \(json)")
            XCTAssertEqual(response.jsonBytes(timesFrom: memo), whole, "memo hit: \(json)")
            var pieces: [UInt8] = [], cursor = SectionedBody.Cursor(), w = TextWriter()
            let body = response.json()
            while try body.writeNext(&cursor, into: &w) {
                pieces += w.bytes
                w.bytes.removeAll(keepingCapacity: true)
            }
            XCTAssertEqual(pieces, whole, json)
            XCTAssertNotNil(try JSONReader.parse(whole, maxDepth: 64), json)
            warnings += request.warnings.count
            streamed += response.estimatedBytes > 1 << 16 ? 1 : 0
        }
        XCTAssertEqual(warnings, 2)
        XCTAssertEqual(streamed, 2)
    }

    func testSpringSetSelection() throws {
        func set(_ timing: String, duration: String = "") throws -> SpringSpec.ParameterSet {
            let request = try decode(#"{"timing": "# + timing + duration + "}")
            guard case .spring(let spec) = request.timing else { throw Problem.invalid("not a spring", at: nil) }
            return spec.parameters
        }
        XCTAssertEqual(try set(#"{"type": "spring", "dampingRatio": 0.5}"#, duration: #", "duration": 1"#),
                       .uikit(dampingRatio: 0.5))
        XCTAssertEqual(try set(#"{"type": "spring", "stiffness": 300}"#),
                       .physical(mass: 1, stiffness: 300, damping: 10, allowsOverdamping: false))
        XCTAssertEqual(try set(#"{"type": "spring", "damping": 12}"#),
                       .physical(mass: 1, stiffness: 100, damping: 12, allowsOverdamping: false))
        XCTAssertEqual(try set(#"{"type": "spring", "stiffness": 1500, "dampingRatio": 0.5}"#),
                       .android(stiffness: 1500, dampingRatio: 0.5))
        XCTAssertEqual(try set(#"{"type": "spring", "response": 0.5, "dampingRatio": 0.8}"#),
                       .response(response: 0.5, dampingRatio: 0.8))
        XCTAssertEqual(try set(#"{"type": "spring", "perceptualDuration": 0.5}"#), .perceptual(duration: 0.5, bounce: 0))
        XCTAssertEqual(try set(#"{"type": "spring", "speed": 20}"#), .pop(bounciness: 4, speed: 20))
        XCTAssertEqual(try set(#"{"type": "spring", "tension": 40, "friction": 7}"#), .origami(tension: 40, friction: 7))
        XCTAssertEqual(problem(#"{"timing": {"type": "spring", "response": 0.5}}"#)?.pointer, "/timing/dampingRatio")
        XCTAssertEqual(problem(#"{"timing": {"type": "spring", "bounciness": 5, "tension": 40}}"#)?.status, 422)
        XCTAssertEqual(problem(#"{"timing": {"type": "spring", "bounciness": 5, "tension": 40}}"#)?.pointer, "/timing/tension")
        // Origami tension far below the physical range: refused, not a runaway.
        XCTAssertEqual(problem(#"{"timing": {"type": "spring", "tension": -100, "friction": 7}}"#)?.pointer, "/timing")
    }

    func testSpringWindowDefaultsToItsSettlingDuration() throws {
        let request = try decode(#"{"timing": {"type": "spring", "mass": 1, "stiffness": 100, "damping": 10}}"#)
        let spring = Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, allowsOverdamping: false)
        XCTAssertEqual(request.duration, spring.settlingDuration)
        XCTAssertEqual(request.times.last, spring.settlingDuration)
    }

    func testUndampedSpringNeedsAtOrDuration() throws {
        let undamped = #"{"type": "spring", "stiffness": 100, "dampingRatio": 0}"#
        XCTAssertEqual(problem(#"{"timing": "# + undamped + "}")?.pointer, "/timing")
        XCTAssertNoThrow(try decode(#"{"timing": "# + undamped + #", "duration": 2}"#))
        let sampled = try CurveResponse(decode(#"{"timing": "# + undamped + #", "at": [0, 0.5]}"#))
        XCTAssertEqual(sampled.request.duration, 0.5)
        // ω0 = 10: p(t) = 1 − cos(10 t).
        XCTAssertEqual(sampled.progress[1], 1 - cos(5), accuracy: 1e-12)
    }

    func testSpringReadsZeroBeforeStart() throws {
        let response = try CurveResponse(decode(#"{"timing": {"type": "spring", "response": 0.5, "dampingRatio": 1}, "at": [-1, 0]}"#))
        XCTAssertEqual(response.progress, [0, 0])
        XCTAssertEqual(response.velocity, [0, 0])
    }

    func testNullMembersAreAbsent() throws {
        XCTAssertEqual(try decode(#"{"timing": "ease", "fps": null, "samples": 5}"#).times.count, 5)
        let spring = try decode(#"{"timing": {"type": "spring", "mass": null, "stiffness": 300, "dampingRatio": 0.5}}"#)
        guard case .spring(let spec) = spring.timing else { return XCTFail("not a spring") }
        XCTAssertEqual(spec.parameters, .android(stiffness: 300, dampingRatio: 0.5))
        XCTAssertEqual(problem(#"{"timing": null}"#)?.pointer, "/timing")
    }

    func testConfiguredLimitsApply() {
        var limits = Limits()
        limits.maxSamples = 10
        XCTAssertEqual(problem(#"{"timing": "ease", "samples": 11}"#, limits: limits)?.status, 413)
        XCTAssertEqual(problem(#"{"timing": "ease", "fps": 60}"#, limits: limits)?.status, 413)
        limits = Limits()
        limits.maxNumbers = 30
        XCTAssertEqual(problem(#"{"timing": "ease", "samples": 11}"#, limits: limits)?.status, 413)
        limits = Limits()
        limits.maxDuration = 2
        XCTAssertEqual(problem(#"{"timing": "ease", "duration": 3}"#, limits: limits)?.pointer, "/duration")
    }

    func testNormalisedTimingEcho() throws {
        func echo(_ timing: String) throws -> String {
            String(decoding: try decode(#"{"timing": "# + timing + "}").timing.text, as: UTF8.self)
        }
        XCTAssertEqual(try echo(#""ease-in""#), #"{"type":"easeIn"}"#)
        XCTAssertEqual(try echo(#""step-start""#), #"{"type":"steps","count":1,"position":"start"}"#)
        XCTAssertEqual(try echo(#""steps(3, jump-both)""#), #"{"type":"steps","count":3,"position":"jumpBoth"}"#)
        XCTAssertEqual(try echo(#""cubic-bezier(0.1, 0.2, 0.8, 0.9)""#),
                       #"{"type":"cubicBezier","p1":[0.1,0.2],"p2":[0.8,0.9]}"#)
        XCTAssertEqual(try echo(#""linear(0, 0.5 25%, 1)""#), #"{"type":"piecewiseLinear","points":[[0,0],[0.25,0.5],[1,1]]}"#)
        XCTAssertEqual(try echo(#"{"type": "spring", "speed": 20}"#),
                       #"{"type":"spring","bounciness":4,"speed":20,"initialVelocity":0}"#)
    }
}

private extension JSONValue {
    static func bytes(_ value: JSONValue) -> () -> [UInt8] { { value.bytes } }
}
