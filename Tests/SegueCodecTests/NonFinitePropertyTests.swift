import SegueEngine
import SegueJSON
import SegueTestSupport
import XCTest
@testable import SegueCodec

/// docs/rules.md "Conventions": every number in a response is finite, and a computation that
/// would give NaN or an infinity is a 422. Seeded random requests — every timing type and
/// spring parameter set, every render form, physics models and integrators — filled with extreme
/// numbers (subnormals, ±0, 1e-310, 1e308, …) go through the handlers' path (`RequestDocument.parse`
/// → `CurveRequest.decode` / `RenderRequest.decode` → the response's JSON and CSV bytes). Every
/// success must read back as JSON (CSV: every field a finite number) with no `inf`, `nan`,
/// `Infinity` or `NaN` outside strings; every failure must be a 4xx problem.
final class NonFinitePropertyTests: XCTestCase {
    static let seed: UInt64 = 0x5E6E_C057
    static let curveCases = 1400
    static let renderCases = 700

    func testNoCurveBodyHoldsANonFiniteNumber() throws {
        var g = Generator(rng: SplitMix64(seed: Self.seed))
        var outcomes = Outcomes()
        for _ in 0..<Self.curveCases {
            let json = g.curveRequest()
            outcomes.record(json, try Self.curve(json))
        }
        outcomes.check(expectingBoth: true)
    }

    func testNoRenderBodyHoldsANonFiniteNumber() throws {
        var g = Generator(rng: SplitMix64(seed: Self.seed &+ 1))
        var outcomes = Outcomes()
        for _ in 0..<Self.renderCases {
            let json = g.renderRequest()
            outcomes.record(json, try Self.render(json))
        }
        outcomes.check(expectingBoth: true)
    }

    // MARK: The handlers' path

    enum Outcome {
        case success([[UInt8]])
        case failure(Problem)
    }

    static func curve(_ json: String) throws -> Outcome {
        do throws(Problem) {
            let limits = Limits()
            let body = try RequestDocument.parse(Array(json.utf8), limits: limits)
            let response = try CurveResponse(CurveRequest.decode(body, limits: limits))
            return .success([try response.json().bytes(), try response.csv().bytes()])
        } catch {
            return .failure(error)
        }
    }

    static func render(_ json: String) throws -> Outcome {
        do throws(Problem) {
            let limits = Limits()
            let body = try RequestDocument.parse(Array(json.utf8), limits: limits)
            let response = try RenderResponse(try RenderRequest.decode(body, limits: limits))
            return .success([try response.json().bytes(), try response.csv().bytes()])
        } catch {
            return .failure(error)
        }
    }

    struct Outcomes {
        var successes = 0, failures = 0
        var faults: [String] = []

        mutating func record(_ json: String, _ outcome: Outcome) {
            switch outcome {
            case .failure(let problem):
                failures += 1
                if !(400..<500).contains(problem.status) { faults.append("\(problem.status) \(problem.detail) for \(json)") }
            case .success(let bodies):
                successes += 1
                if let fault = NonFinitePropertyTests.fault(json: bodies[0]) ?? NonFinitePropertyTests.fault(csv: bodies[1]) {
                    faults.append("\(fault) for \(json)")
                }
            }
        }

        func check(expectingBoth: Bool, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(faults, [], "\(faults.count) faulty answers", file: file, line: line)
            // The generator reaches both outcomes often enough to mean something.
            XCTAssertGreaterThan(successes, 100, file: file, line: line)
            XCTAssertGreaterThan(failures, 100, file: file, line: line)
        }
    }

    /// Why a JSON body is not finite JSON, or nil.
    static func fault(json bytes: [UInt8]) -> String? {
        if let token = bareToken(bytes) { return "`\(token)` outside a string" }
        do throws(JSONSyntaxError) {
            _ = try JSONReader.parse(bytes, maxDepth: 512)
        } catch {
            return "does not read back: \(error.detail)"
        }
        return nil
    }

    /// Why a CSV body holds a field that is not a finite number, or nil.
    static func fault(csv bytes: [UInt8]) -> String? {
        let rows = String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst()
        for row in rows {
            for field in row.split(separator: ",", omittingEmptySubsequences: false) {
                guard let number = Double(field), number.isFinite else { return "CSV field `\(field)`" }
            }
        }
        return nil
    }

    /// The first of inf, nan, Infinity, NaN that stands outside a JSON string.
    static func bareToken(_ bytes: [UInt8]) -> String? {
        var inString = false, escaped = false
        var word: [UInt8] = []
        for byte in bytes + [0x20] {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            if byte == 0x22 { inString = true }
            let letter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            if letter {
                word.append(byte)
                continue
            }
            let text = String(decoding: word, as: UTF8.self).lowercased()
            if text == "inf" || text == "nan" || text == "infinity" { return String(decoding: word, as: UTF8.self) }
            word = []
        }
        return nil
    }
}

/// Random requests with extreme numbers, every timing type and render form.
struct Generator {
    var rng: SplitMix64

    static let magnitudes: [Double] = [
        0, .leastNonzeroMagnitude, Double("1e-310") ?? 0, .leastNormalMagnitude, 1e-300, 1e-200, 1e-160, 1e-150, 1e-100, 1e-20, 1e-9, 1e-6, 1e-3,
        0.01, 0.1, 0.5, 0.999, 1, 1.001, 2, 10, 100, 1000, 3600, 1e6, 1e9, 1e20, 1e100, 1e150, 1e160, 1e200, 1e300,
        1e308, 1.7976931348623157e308,
    ]

    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func pick<T>(_ options: [T]) -> T { options[Int.random(in: 0..<options.count, using: &rng)] }

    /// An extreme or an ordinary number, either sign (−0 included).
    mutating func number(positive: Bool = false) -> String {
        let value: Double
        if chance(0.3) {
            value = Double.random(in: -3...3, using: &rng)
        } else {
            let magnitude = pick(Self.magnitudes)
            value = positive || chance(0.7) ? magnitude : -magnitude
        }
        if value == 0 && !positive && chance(0.5) { return "-0.0" }
        return positive ? "\(abs(value))" : "\(value)"
    }

    /// `"key":value,` with probability p (the value is drawn either way, keeping the stream simple).
    /// A channel value: within the channels' ±1e15 but as extreme as that allows.
    mutating func value() -> String {
        pick(["0", "-0.0", "5e-324", "1e-310", "1e-300", "1e15", "-1e15", "9.99e14", "1", "-7.5", "\(Double.random(in: -1e3...1e3, using: &rng))"])
    }

    /// An alpha or colour component, in [0, 1].
    mutating func unit() -> String { pick(["0", "1", "5e-324", "1e-310", "0.5", "0.999999999999"]) }

    mutating func maybe(_ key: String, _ value: String, _ p: Double = 0.5) -> String {
        chance(p) ? #""\#(key)":\#(value),"# : ""
    }

    // MARK: Timings

    mutating func timing() -> String {
        switch Int.random(in: 0..<12, using: &rng) {
        case 0: return pick([#""ease""#, #""linear""#, #""easeInOut""#, #""step-start""#])
        case 1: return #""cubic-bezier(\#(number(positive: true)), \#(number()), \#(number(positive: true)), \#(number()))""#
        case 2: return #"{"type":"cubicBezier","p1":[\#(pick(["0", "1", "0.5", number(positive: true)])),\#(number())],"#
            + #""p2":[\#(pick(["0", "1", "0.5", number(positive: true)])),\#(number())]}"#
        case 3: return #"{"type":"steps","count":\#(pick(["1", "3", "1000000000", number(positive: true)])),"#
            + #""position":"\#(pick(["jumpStart", "jumpEnd", "jumpNone", "jumpBoth", "start", "end"]))"}"#
        case 4: return #""linear(\#(number()), \#(number()) \#(number())%, \#(number()))""#
        case 5: return #"{"type":"piecewiseLinear","points":[[\#(number()),\#(number())],[\#(number()),\#(number())],"#
            + #"[\#(number()),\#(number())]]}"#
        default: return spring()
        }
    }

    mutating func spring() -> String {
        let members: String
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: members = #""dampingRatio":\#(number())"#
        case 1: members = #""mass":\#(number()),"stiffness":\#(number()),"damping":\#(number()),"#
            + #""allowsOverdamping":\#(chance(0.5))"#
        case 2: members = #""stiffness":\#(number()),"dampingRatio":\#(number())"#
        case 3: members = #""response":\#(number()),"dampingRatio":\#(number())"#
        case 4: members = #""perceptualDuration":\#(number()),"bounce":\#(number())"#
        case 5: members = #""bounciness":\#(number()),"speed":\#(number())"#
        default: members = #""tension":\#(number()),"friction":\#(number())"#
        }
        return #"{"type":"spring",\#(maybe("initialVelocity", number(), 0.4))\#(members)}"#
    }

    // MARK: Requests

    mutating func curveRequest() -> String {
        let sampling: String
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: sampling = #","samples":\#(pick(["2", "5", "11"]))"#
        case 1: sampling = #","at":[\#(number()),\#(number()),\#(number()),0,1]"#
        case 2: sampling = #","fps":\#(pick(["1", "10", number(positive: true)]))"#
        default: sampling = ""
        }
        let duration = chance(0.5) ? #","duration":\#(pick(["0.5", "1", "10", number(positive: true)]))"# : ""
        return #"{"timing":\#(timing())\#(duration)\#(sampling)}"#
    }

    mutating func renderRequest() -> String {
        let views = #"{"v":{"x":\#(value()),"c":[\#(value()),\#(value())],"alpha":\#(unit()),"#
            + #""transform":{"rotation":\#(value()),"scale":[\#(value()),\#(value())],"translation":[\#(value()),0]}}}"#
        var animations: [String] = []
        for _ in 0..<Int.random(in: 1...2, using: &rng) { animations.append(animation()) }
        let grid = chance(0.8) ? #""fps":10,"until":\#(pick(["0.5", "1", "2", "2", "2", number(positive: true)])),"#
            : #""at":[0,\#(pick(["0.25", number(positive: true)])),\#(pick(["1.5", number(positive: true)]))],"#
        return #"{\#(grid)"velocities":\#(chance(0.5)),"views":\#(views),"animations":[\#(animations.joined(separator: ","))]}"#
    }

    mutating func animation() -> String {
        let head = #""view":"v",\#(maybe("delay", pick(["0.1", number()]), 0.2))"#
        let duration = #""duration":\#(pick(["0.5", "1", "1", number(positive: true)]))"#
        switch Int.random(in: 0..<6, using: &rng) {
        case 0, 1:
            let target = pick([#""x":\#(value())"#, #""c":[\#(value()),\#(value())]"#, #""alpha":\#(unit())"#,
                               #""transform":{"rotation":\#(value()),"scale":[\#(value()),1]}"#,
                               #""transform":{"matrix":[\#(value()),0,0,\#(value()),\#(value()),0]}"#])
            let timing = chance(0.5) ? #""timing":\#(spring())"# : #""timing":\#(timing()),\#(duration)"#
            return #"{\#(head)\#(timing),"to":{\#(target)},\#(maybe("repeatCount", pick(["2", "0.5", number()]), 0.2))"#
                + #""blend":"\#(pick(["replace", "additive"]))"}"#
        case 2:
            let mode = pick(CalculationMode.allCases.map(\.rawValue))
            let channel = pick([(#""x""#, 1), (#""c""#, 2), (#""transform""#, 0)])
            let values = (0..<Int.random(in: 1...4, using: &rng)).map { _ -> String in
                switch channel.1 {
                case 1: return value()
                case 2: return "[\(value()),\(value())]"
                default: return #"{"rotation":\#(value()),"scale":[\#(value()),\#(value())]}"#
                }
            }
            return #"{\#(head)\#(duration),"channel":\#(channel.0),"calculationMode":"\#(mode)","#
                + #"\#(maybe("tensionValues", "[\(value()),\(value())]", 0.2))"values":[\#(values.joined(separator: ","))]}"#
        case 3:
            return #"{\#(head)\#(duration),"keyframes":[{"start":0,"duration":0.5,"to":{"x":\#(value())}},"#
                + #"{"start":0.5,"duration":0.5,"to":{"x":\#(value()),"alpha":\#(unit())}}]}"#
        default:
            return #"{\#(head)"to":{"c":[\#(value()),\#(value())]},\#(maybe("velocity", "[\(value()),\(value())]", 0.5))"#
                + #""dynamics":\#(dynamics())}"#
        }
    }

    mutating func dynamics() -> String {
        let integrator = #""integrator":"\#(pick(["exact", "euler", "rk4"]))","#
            + #"\#(maybe("tickRate", pick(["60", "1000", number(positive: true)]), 0.3))"#
            + #"\#(maybe("restSpeed", number(positive: true), 0.2))\#(maybe("restDistance", number(positive: true), 0.2))"#
            + #"\#(maybe("threshold", number(positive: true), 0.2))"#
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return #"{\#(integrator)"model":"spring","mass":\#(number()),"stiffness":\#(number()),"damping":\#(number())}"#
        case 1: return #"{\#(integrator)"model":"attachment","frequency":\#(number()),"damping":\#(number())}"#
        case 2: return #"{\#(integrator)"model":"snap","damping":\#(number())}"#
        default: return #"{\#(integrator)"model":"popSpring","bounciness":\#(number()),"speed":\#(number())}"#
        }
    }
}
