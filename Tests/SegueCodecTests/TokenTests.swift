import Foundation
import SegueCodec
import SegueEngine
import SegueJSON
import SegueTestSupport
import XCTest

/// `POST /v1/tokens` (docs/rules.md rule 39, docs/tokens.md) through `TokenExport`, on the design-token
/// files of Tests/Fixtures/tokens: every motion token's custom properties and nothing for the other
/// tokens, aliases and inherited `$type` resolved, each spring's `linear()` evaluated as CSS Easing 2
/// does (`CSSEasing`, written from the specification) against the spring's own progress over
/// continuous time, the `@supports` fallback block, the document resolved in place, and the 422 that
/// lists every bad token with its pointer.
final class TokenTests: XCTestCase {
    static let limits = Limits()
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tokens")

    // MARK: The realistic file, token by token

    /// What a motion token of motion.tokens.json must become.
    struct Expected {
        enum Easing {
            /// An exact cubic Bézier (its `$value`, an alias's target, or a CSS text in `dev.segue`).
            case bezier(Double, Double, Double, Double)
            /// An exact CSS easing written as this text's computed value (keywords, `steps()`, `linear()`).
            case css(String)
            /// A spring: a `linear()` within the tolerance of this `timing`'s progress.
            case spring
        }

        var path: [String]
        var easing: Easing?
        /// The duration written, in ms: the token's (a UIKit spring's too). nil for a spring that runs
        /// for its settling duration, and for an easing alone.
        var durationMs: Double?
        var delayMs: Double = 0
        /// A spring whose settling duration replaces the duration the token gives (the comment says so).
        var replacedMs: Double?
        /// A spring of any set but UIKit's: it has a duration (its settling duration) whatever the token type.
        var settles = false

        var hasDuration: Bool { durationMs != nil || settles }
    }

    static let motion: [Expected] = [
        // Durations, both notations and an alias; `$type` inherited from the group.
        Expected(path: ["motion", "duration", "instant"], durationMs: 0),
        Expected(path: ["motion", "duration", "short"], durationMs: 150),
        Expected(path: ["motion", "duration", "medium"], durationMs: 300),
        Expected(path: ["motion", "duration", "long"], durationMs: 500),
        Expected(path: ["motion", "duration", "slow"], durationMs: 800),
        Expected(path: ["motion", "duration", "base"], durationMs: 300),
        // Cubic Béziers, one an alias.
        Expected(path: ["motion", "easing", "standard"], easing: .bezier(0.2, 0, 0, 1)),
        Expected(path: ["motion", "easing", "decelerate"], easing: .bezier(0, 0, 0.2, 1)),
        Expected(path: ["motion", "easing", "accelerate"], easing: .bezier(0.3, 0, 1, 1)),
        Expected(path: ["motion", "easing", "emphasized"], easing: .bezier(0.05, 0.7, 0.1, 1)),
        Expected(path: ["motion", "easing", "overshoot"], easing: .bezier(0.34, 1.56, 0.64, 1)),
        Expected(path: ["motion", "easing", "default"], easing: .bezier(0.2, 0, 0, 1)),
        // Transitions: aliased duration and timing function, a delay, CSS text in dev.segue.
        Expected(path: ["motion", "transition", "fade"], easing: .bezier(0.2, 0, 0, 1), durationMs: 150),
        Expected(path: ["motion", "transition", "slide"], easing: .bezier(0.4, 0, 0.2, 1), durationMs: 300, delayMs: 50),
        Expected(path: ["motion", "transition", "expand"], easing: .bezier(0.05, 0.7, 0.1, 1), durationMs: 250),
        Expected(path: ["motion", "transition", "modal open"], easing: .bezier(0, 0, 0.2, 1), durationMs: 500),
        Expected(path: ["motion", "transition", "dismiss"], easing: .css("ease-out"), durationMs: 200),
        Expected(path: ["motion", "transition", "tick"], easing: .css("steps(4)"), durationMs: 800),
        // dev.segue timings on every token type, every spring parametrisation.
        Expected(path: ["motion", "spring", "sheet"], easing: .spring, durationMs: 500),
        Expected(path: ["motion", "spring", "press"], easing: .spring, durationMs: 150),
        Expected(path: ["motion", "spring", "card"], easing: .spring, replacedMs: 300, settles: true),
        Expected(path: ["motion", "spring", "bounce"], easing: .spring, settles: true),
        Expected(path: ["motion", "spring", "android"], easing: .spring, replacedMs: 400, settles: true),
        Expected(path: ["motion", "spring", "playful"], easing: .spring, delayMs: 100, replacedMs: 500, settles: true),
        Expected(path: ["motion", "spring", "pop"], easing: .spring, settles: true),
        Expected(path: ["motion", "spring", "origami"], easing: .spring, replacedMs: 600, settles: true),
        Expected(path: ["motion", "spring", "stagger"], easing: .css("linear(0, 0.25, 1 80%, 1)")),
        Expected(path: ["motion", "spring", "gentle"], easing: .bezier(0.45, 0, 0.55, 1)),
    ]

    /// The groups of motion.tokens.json that hold no motion token.
    static let ignoredGroups = ["color", "size", "font"]

    static func load(_ name: String) throws -> JSONValue {
        let bytes = try Data(contentsOf: fixtures.appendingPathComponent(name))
        return try RequestDocument.parse(Array(bytes), limits: limits)
    }

    static func export(_ document: JSONValue, tolerance: Double = 0.001) throws -> TokenExport {
        try TokenExport(document, tolerance: tolerance, limits: limits)
    }

    /// A custom property's name as CSSOM serialises an identifier (ASCII letters, digits, `-`, `_`
    /// and non-ASCII as they are, any other printable ASCII behind a backslash).
    static func propertyName(_ path: [String]) -> String {
        var out = "--"
        for scalar in path.joined(separator: "-").unicodeScalars {
            let v = scalar.value
            let keeps = (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v) || v == 0x2D || v == 0x5F || v >= 0x80
            if !keeps { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// The spring `timing` of a token of the realistic file, as a curve request: over the token's
    /// duration for the UIKit set, over the spring's settling duration otherwise.
    static func springCurve(_ document: JSONValue, _ e: Expected) throws -> CurveRequest {
        let token = try XCTUnwrap(document[e.path])
        let timing = try XCTUnwrap(token["$extensions"]?["dev.segue"]?["timing"], "\(e.path)")
        var body: [JSONValue.Member] = [.init("timing", timing)]
        if let ms = e.durationMs { body.append(.init("duration", .number(ms / 1000))) }
        return try CurveRequest.decode(.object(body), limits: limits)
    }

    /// Every custom property of the `:root` block, each token's with the comment before it, is
    /// exactly what its token gives; the ignored groups give none.
    func testEveryMotionTokenGetsItsCustomProperties() throws {
        let document = try Self.load("motion.tokens.json")
        let css = try TokenCSS(String(decoding: Self.export(document).css(), as: UTF8.self))
        var expectedNames: Set<String> = []
        for e in Self.motion {
            let name = Self.propertyName(e.path)
            if e.easing != nil { expectedNames.insert(name + "-easing") }
            if e.hasDuration { expectedNames.insert(name + "-duration") }
            if e.easing != nil && e.hasDuration { expectedNames.insert(name) }
        }
        XCTAssertEqual(Set(css.root.map(\.name)), expectedNames, css.text)
        XCTAssertEqual(css.root.count, expectedNames.count, "a custom property is declared twice:\n\(css.text)")
        for group in Self.ignoredGroups {
            XCTAssertFalse(css.root.contains { $0.name.hasPrefix("--\(group)-") }, "\(group) tokens are not motion tokens:\n\(css.text)")
        }
        // The name of a token with a space in its name, escaped as a CSS identifier.
        XCTAssertNotNil(css.value(#"--motion-transition-modal\ open-easing"#), css.text)

        for e in Self.motion {
            let name = Self.propertyName(e.path)
            let label = e.path.joined(separator: ".")
            // Durations: the token's (an alias's target, either notation, in ms).
            if let ms = e.durationMs {
                XCTAssertEqual(try Self.milliseconds(XCTUnwrap(css.value(name + "-duration"), label)), ms, label)
            }
            guard let easing = e.easing else { continue }
            let easingText = try XCTUnwrap(css.value(name + "-easing"), label)
            let parsed = try CSSEasing.parse(easingText)
            switch easing {
            case let .bezier(x1, y1, x2, y2):
                if case let .cubicBezier(a, b, c, d) = parsed.function {
                    XCTAssertEqual([a, b, c, d], [x1, y1, x2, y2], label)
                } else {
                    XCTFail("\(label): \(easingText) is not a cubic Bézier")
                }
            case .css(let text):
                // The same function (`steps(4)` may be written `steps(4, jump-end)`): equal everywhere.
                let given = try CSSEasing.parse(text)
                let inputs = (0...1000).map { -0.5 + 2 * Double($0) / 1000 }
                XCTAssertEqual(inputs.map { parsed.progress($0) }, inputs.map { given.progress($0) }, "\(label): \(easingText) is not \(text)")
            case .spring:
                guard case .linear = parsed.function else {
                    XCTFail("\(label): a spring is a linear(), not \(easingText)")
                    continue
                }
            }
            // The comment before the token's first declaration: its max error and its stop count.
            let comment = try XCTUnwrap(css.comment(before: name + "-easing"), "\(label): no comment before its properties")
            let (stated, stops) = try XCTUnwrap(Self.errorAndStops(comment), "\(label): \(comment)")
            if case .linear(let points) = parsed.function {
                XCTAssertEqual(stops, points.count, "\(label): \(comment)")
            } else {
                XCTAssertEqual(stops, 0, "\(label): \(comment)")
                XCTAssertEqual(stated, 0, "\(label): an exact form has no error: \(comment)")
            }
            // The shorthand: `<duration>ms <easing>`, then a nonzero delay.
            guard e.hasDuration else { continue }
            let duration = try XCTUnwrap(css.value(name + "-duration"), label)
            let delay = e.delayMs == 0 ? "" : " " + Self.text(e.delayMs) + "ms"
            XCTAssertEqual(css.value(name), "\(duration) \(easingText)\(delay)", label)
            if let replaced = e.replacedMs {
                XCTAssertTrue(comment.contains("replaced") && comment.contains(Self.text(replaced) + "ms"),
                              "\(label): the comment must say that its \(replaced) ms were replaced: \(comment)")
            } else {
                XCTAssertFalse(comment.contains("replaced"), "\(label): \(comment)")
            }
        }
    }

    /// Each spring's `linear()`, evaluated as CSS Easing 2 evaluates it over [0, D] with D its
    /// `-duration`, stays within the tolerance of the spring's progress (the UIKit set over the
    /// token's duration, every other set over its settling duration), and within its stated error;
    /// its last stop is exactly 1 when the spring is within the tolerance of 1 at D.
    func testSpringsStayWithinTheTolerance() throws {
        let document = try Self.load("motion.tokens.json")
        for tolerance in [1e-3, 1e-4] {
            let export = try Self.export(document, tolerance: tolerance)
            let css = try TokenCSS(String(decoding: export.css(), as: UTF8.self))
            let json = try RequestDocument.parse(export.json(), limits: Self.limits)
            var checked = 0
            for e in Self.motion {
                guard case .spring = e.easing else { continue }
                let label = "\(e.path.joined(separator: ".")) at \(tolerance)"
                let name = Self.propertyName(e.path)
                let request = try Self.springCurve(document, e)
                let duration = try Self.milliseconds(XCTUnwrap(css.value(name + "-duration"), label)) / 1000
                XCTAssertEqual(duration, request.duration, accuracy: 1e-12 * max(1, request.duration), label)
                let easing = try CSSEasing.parse(XCTUnwrap(css.value(name + "-easing"), label))
                let truth = { (t: Double) in request.curve.sample(at: t, duration: request.duration).progress }
                var worst = 0.0
                for t in Self.times(duration) {
                    worst = max(worst, abs(easing.progress(t / duration) - truth(t)))
                }
                XCTAssertLessThanOrEqual(worst, tolerance, label)
                let comment = try XCTUnwrap(css.comment(before: name + "-easing"), label)
                let stated = try XCTUnwrap(Self.errorAndStops(comment), "\(label): \(comment)").error
                XCTAssertLessThanOrEqual(worst, stated, "\(label): the comment's max error is below the error found: \(comment)")
                let maxError = try XCTUnwrap(json[e.path]?["$extensions"]?["dev.segue"]?["maxError"]?.number, label)
                XCTAssertLessThanOrEqual(worst, maxError + 1e-12, label)
                XCTAssertLessThanOrEqual(maxError, tolerance, label)
                if abs(truth(duration) - 1) <= tolerance, case .linear(let points) = easing.function {
                    XCTAssertEqual(points.last?.output, 1, label)
                    XCTAssertEqual(points.last?.input, 1, label)
                }
                checked += 1
            }
            XCTAssertEqual(checked, 8, "every spring parametrisation of the file")
        }
    }

    /// The `@supports not (animation-timing-function: linear(0, 1))` block redefines exactly the
    /// `linear()` easings — and the shorthands that hold them — with their `cubic-bezier()`
    /// fallback, with the same duration and delay; nothing else.
    func testSupportsBlockRedefinesEveryLinearEasing() throws {
        let document = try Self.load("motion.tokens.json")
        let css = try TokenCSS(String(decoding: Self.export(document).css(), as: UTF8.self))
        let linear = css.root.filter { $0.name.hasSuffix("-easing") && $0.value.hasPrefix("linear(") }
        XCTAssertEqual(linear.count, 9, "eight springs and one linear() text:\n\(css.text)")
        let shorthands = css.root.filter { declaration in
            linear.contains { $0.name == declaration.name + "-easing" } && css.value(declaration.name) != nil
        }
        XCTAssertEqual(Set(css.fallbacks.map(\.name)), Set(linear.map(\.name) + shorthands.map(\.name)), css.text)
        XCTAssertEqual(css.fallbacks.count, linear.count + shorthands.count, css.text)
        for declaration in linear {
            let fallback = try XCTUnwrap(css.fallback(declaration.name), declaration.name)
            XCTAssertTrue(fallback.hasPrefix("cubic-bezier("), "\(declaration.name): \(fallback)")
            guard case .cubicBezier(let x1, _, let x2, _) = try CSSEasing.parse(fallback).function else {
                XCTFail("\(declaration.name): \(fallback)")
                continue
            }
            XCTAssertTrue((0...1).contains(x1) && (0...1).contains(x2), "\(declaration.name): \(fallback)")
            let base = String(declaration.name.dropLast("-easing".count))
            if let shorthand = css.value(base) {
                let expected = shorthand.replacingOccurrences(of: declaration.value, with: fallback)
                XCTAssertEqual(css.fallback(base), expected, base)
            }
        }
    }

    /// `json()`: the document with each motion token resolved in place — a token with an easing
    /// and a duration a `transition` (its `timingFunction` the exact Bézier or the `linear()`'s
    /// fallback), an easing alone a `cubicBezier`, a duration alone a `duration` in ms — and
    /// `$extensions["dev.segue"]` with `easing`, `maxError`, `stops` and `durationMs` agreeing
    /// with the CSS; every other token, and every other extension, as it was.
    func testJSONResolvesEachMotionTokenInPlace() throws {
        let document = try Self.load("motion.tokens.json")
        let export = try Self.export(document)
        let css = try TokenCSS(String(decoding: export.css(), as: UTF8.self))
        let bytes = export.json()
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(bytes)), "json() is JSON")
        let json = try RequestDocument.parse(bytes, limits: Self.limits)
        for group in Self.ignoredGroups {
            XCTAssertEqual(json[[group]], document[[group]], "\(group) is not a motion group: it comes back as it was")
        }
        XCTAssertEqual(json[["motion", "duration", "$type"]], .string("duration"), "group properties are kept")
        for e in Self.motion {
            let label = e.path.joined(separator: ".")
            let name = Self.propertyName(e.path)
            let token = try XCTUnwrap(json[e.path], label)
            let segue = try XCTUnwrap(token["$extensions"]?["dev.segue"], "\(label): no $extensions.dev.segue")
            if e.easing != nil {
                XCTAssertEqual(segue["easing"]?.string, css.value(name + "-easing"), label)
                let maxError = try XCTUnwrap(segue["maxError"]?.number, "\(label): maxError")
                let stops = try XCTUnwrap(segue["stops"]?.number, "\(label): stops")
                let comment = try XCTUnwrap(css.comment(before: name + "-easing"), label)
                let fromComment = try XCTUnwrap(Self.errorAndStops(comment), comment)
                XCTAssertEqual(Int(stops), fromComment.stops, label)
                XCTAssertLessThanOrEqual(maxError, fromComment.error, "\(label): the comment rounds the error up")
            } else {
                XCTAssertNil(segue["easing"], label)
            }
            if e.hasDuration {
                let durationMs = try XCTUnwrap(segue["durationMs"]?.number, "\(label): durationMs")
                XCTAssertEqual(durationMs, try Self.milliseconds(XCTUnwrap(css.value(name + "-duration"))), label)
            } else {
                XCTAssertNil(segue["durationMs"], label)
            }
            // The original dev.segue timing stays, so that the file converts again the same way.
            XCTAssertEqual(segue["timing"], document[e.path]?["$extensions"]?["dev.segue"]?["timing"], label)

            let value = try XCTUnwrap(token["$value"], label)
            switch (e.easing != nil, e.hasDuration) {
            case (true, true):
                XCTAssertEqual(token["$type"], .string("transition"), label)
                XCTAssertEqual(value["duration"], .object([.init("value", segue["durationMs"]!), .init("unit", .string("ms"))]), label)
                XCTAssertEqual(value["delay"], .object([.init("value", .number(e.delayMs)), .init("unit", .string("ms"))]), label)
                try Self.assertBezier(value["timingFunction"], for: e, css: css, label)
            case (true, false):
                XCTAssertEqual(token["$type"], .string("cubicBezier"), label)
                try Self.assertBezier(value, for: e, css: css, label)
            default:
                XCTAssertEqual(token["$type"], .string("duration"), label)
                XCTAssertEqual(value, .object([.init("value", .number(e.durationMs!)), .init("unit", .string("ms"))]), label)
            }
        }
        // Other extensions of a motion token are kept.
        XCTAssertEqual(json[["motion", "spring", "gentle", "$extensions", "com.example.tool"]],
                       .object([.init("note", .string("kept as is"))]))
    }

    /// A resolved `$value` Bézier: the exact one, or the fallback the `@supports` block gives the
    /// `linear()`; for an exact easing with no Bézier form (`steps()`), a Bézier with x in [0, 1].
    static func assertBezier(_ value: JSONValue?, for e: Expected, css: TokenCSS, _ label: String) throws {
        guard case .array(let items)? = value, items.count == 4 else { return XCTFail("\(label): \(String(describing: value))") }
        let numbers = try items.map { try XCTUnwrap($0.number, label) }
        XCTAssertTrue((0...1).contains(numbers[0]) && (0...1).contains(numbers[2]), "\(label): \(numbers)")
        let exact: [Double]?
        switch e.easing {
        case let .bezier(x1, y1, x2, y2)?: exact = [x1, y1, x2, y2]
        default:
            let easing = try CSSEasing.parse(XCTUnwrap(css.value(propertyName(e.path) + "-easing")))
            if case let .cubicBezier(x1, y1, x2, y2) = easing.function { exact = [x1, y1, x2, y2] } else { exact = nil }
        }
        if let exact {
            XCTAssertEqual(numbers, exact, label)
        } else if let fallback = css.fallback(propertyName(e.path) + "-easing") {
            guard case let .cubicBezier(x1, y1, x2, y2) = try CSSEasing.parse(fallback).function else { return XCTFail(label) }
            XCTAssertEqual(numbers, [x1, y1, x2, y2], "\(label): the timingFunction is the fallback")
        }
    }

    /// Converting the resolved document again declares the same custom properties: it is a
    /// design-token document like the one given, and Segue reads its own output.
    func testResolvedDocumentConvertsToTheSameProperties() throws {
        let document = try Self.load("motion.tokens.json")
        let first = try Self.export(document)
        let again = try Self.export(RequestDocument.parse(first.json(), limits: Self.limits))
        let a = try TokenCSS(String(decoding: first.css(), as: UTF8.self))
        let b = try TokenCSS(String(decoding: again.css(), as: UTF8.self))
        XCTAssertEqual(b.root.map(\.name), a.root.map(\.name))
        XCTAssertEqual(b.root.map(\.value), a.root.map(\.value))
        XCTAssertEqual(b.fallbacks.map(\.value), a.fallbacks.map(\.value))
    }

    /// The same document gives the same bytes.
    func testSameDocumentSameBytes() throws {
        let document = try Self.load("motion.tokens.json")
        let a = try Self.export(document), b = try Self.export(document)
        XCTAssertEqual(a.css(), b.css())
        XCTAssertEqual(a.json(), b.json())
        XCTAssertEqual(a.css(), a.css())
    }

    /// A document without motion tokens: no custom property and nothing to fall back to; JSON as given.
    func testADocumentWithoutMotionTokens() throws {
        let document = try RequestDocument.parse(Array(##"{"color": {"$type": "color", "ink": {"$value": "#111111"}}}"##.utf8),
                                                 limits: Self.limits)
        let export = try Self.export(document)
        let css = try TokenCSS(String(decoding: export.css(), as: UTF8.self))
        XCTAssertTrue(css.root.isEmpty, css.text)
        XCTAssertTrue(css.fallbacks.isEmpty, css.text)
        XCTAssertEqual(try RequestDocument.parse(export.json(), limits: Self.limits), document)
    }

    /// Tokens that are not motion tokens are ignored, even a broken alias among them; a motion
    /// token aliasing one of them still resolves it.
    func testOtherTokensAreIgnoredEvenWhenBroken() throws {
        let text = ##"{"color": {"$type": "color", "ink": {"$value": "{color.nowhere}"}, "cycle": {"$value": "{color.cycle}"}},"##
            + ##" "motion": {"fast": {"$type": "duration", "$value": "{motion.base}"}, "base": {"$type": "duration", "$value": "120ms"}}}"##
        let export = try Self.export(RequestDocument.parse(Array(text.utf8), limits: Self.limits))
        let css = String(decoding: export.css(), as: UTF8.self)
        XCTAssertTrue(css.contains("--motion-fast-duration: 120ms;"), css)
        XCTAssertFalse(css.contains("--color"), css)
    }

    /// The plan counts every search the conversion makes before any of it: a `steps()` timing's
    /// Bézier for the JSON form as well as a spring's `linear()` and its fallback.
    func testThePlanCountsTheBezierSearchOfSteps() throws {
        func work(_ timing: String) throws -> Double {
            let text = ##"{"t": {"$type": "transition", "$value": {"duration": "300ms", "timingFunction": [0, 0, 1, 1]}, "##
                + ##""$extensions": {"dev.segue": {"timing": "##  + timing + "}}}}"
            return try TokenPlan(RequestDocument.parse(Array(text.utf8), limits: Self.limits), tolerance: 0.001, limits: Self.limits).work
        }
        let curve = try CurveRequest.decode(.object([.init("timing", .string("steps(4)"))]), limits: Self.limits)
        let export = try CurveExport.plan(curve, tolerance: 0.001, limits: Self.limits)
        XCTAssertEqual(try work(#""steps(4)""#), export + SceneCost.fallbackBezier(curve.curve), accuracy: 1e-6 * export)
    }

    // MARK: Bad documents

    /// Each bad file: one 422 `invalid-request` whose `errors` list every bad token — exactly these
    /// pointers, each with a detail — and whose own `pointer` and `detail` are the first one's.
    func testBadDocumentsListEveryBadToken() throws {
        let cases: [(file: String, pointers: [String])] = [
            ("bad-cycle.tokens.json", ["/motion/duration/a/$value", "/motion/duration/b/$value", "/motion/duration/self/$value",
                                       "/motion/transition/enter/$value/duration"]),
            ("bad-missing-alias.tokens.json", ["/motion/easing/typo/$value", "/motion/easing/group/$value",
                                               "/motion/transition/enter/$value/duration"]),
            ("bad-name-clash.tokens.json", ["/a/b"]),
            ("bad-timing.tokens.json", ["/motion/negative/$extensions/dev.segue/timing/dampingRatio",
                                        "/motion/mixed/$extensions/dev.segue/timing/stiffness",
                                        "/motion/keyword/$extensions/dev.segue/timing",
                                        "/motion/uikit/$extensions/dev.segue/timing",
                                        "/motion/bezier/$value",
                                        "/motion/short/$value"]),
            ("bad-duration.tokens.json", ["/motion/duration/minutes/$value", "/motion/duration/text/$value",
                                          "/motion/duration/negative/$value", "/motion/duration/noUnit/$value*",
                                          "/motion/transition/slow/$value/duration", "/motion/transition/late/$value/delay"]),
            ("bad-many.tokens.json", ["/motion/duration/loop/$value", "/motion/duration/minutes/$value", "/motion/easing/wide/$value",
                                      "/motion/transition/enter/$value/duration",
                                      "/motion/transition/sheet/$extensions/dev.segue/timing/bounciness",
                                      "/motion/transition-fade"]),
        ]
        for c in cases {
            let problem = try XCTUnwrap(Self.problem(Self.load(c.file)), c.file)
            let errors = try Self.errors(problem, c.file)
            XCTAssertEqual(errors.count, c.pointers.count, "\(c.file): \(errors)")
            for expected in c.pointers {
                // A trailing `*`: the pointer is this one or one inside it (a missing member's place).
                let matches = errors.filter { error in
                    expected.hasSuffix("*") ? error.pointer.hasPrefix(String(expected.dropLast())) : error.pointer == expected
                }
                XCTAssertEqual(matches.count, 1, "\(c.file): \(expected) in \(errors.map(\.pointer))")
            }
            for error in errors { XCTAssertFalse(error.detail.isEmpty, "\(c.file): \(error.pointer)") }
            XCTAssertEqual(problem.pointer, errors.first?.pointer, c.file)
            XCTAssertTrue(problem.detail.contains(errors.first?.detail ?? "?"), "\(c.file): \(problem.detail)")
        }
    }

    /// The details say what is wrong: the alias and the cycle, the custom property both tokens
    /// would be, the unit.
    func testDetailsNameTheFault() throws {
        func detail(_ file: String, _ pointer: String) throws -> String {
            let errors = try Self.errors(XCTUnwrap(Self.problem(Self.load(file))), file)
            return try XCTUnwrap(errors.first { $0.pointer == pointer }?.detail, "\(file) \(pointer)")
        }
        let cycle = try detail("bad-cycle.tokens.json", "/motion/duration/self/$value")
        XCTAssertTrue(cycle.contains("{motion.duration.self}") && cycle.contains("cycle"), cycle)
        let missing = try detail("bad-missing-alias.tokens.json", "/motion/easing/typo/$value")
        XCTAssertTrue(missing.contains("{motion.easing.standrad}"), missing)
        let clash = try detail("bad-name-clash.tokens.json", "/a/b")
        XCTAssertTrue(clash.contains("--a-b") && clash.contains("a.b") && clash.contains("a-b"), clash)
        let unit = try detail("bad-duration.tokens.json", "/motion/duration/minutes/$value")
        XCTAssertTrue(unit.contains("min"), unit)
    }

    /// At most 100 entries in `errors`, however many tokens are bad; the detail counts them all.
    func testErrorsAreCappedAtOneHundred() throws {
        let tokens = (0..<150).map { #""t\#($0)": {"$value": {"value": 1, "unit": "min"}}"# }.joined(separator: ", ")
        let document = try RequestDocument.parse(Array(#"{"d": {"$type": "duration", \#(tokens)}}"#.utf8), limits: Self.limits)
        let problem = try XCTUnwrap(Self.problem(document))
        let errors = try Self.errors(problem, "150 bad tokens")
        XCTAssertEqual(errors.count, 100)
        XCTAssertEqual(errors.first?.pointer, "/d/t0/$value")
        XCTAssertEqual(Set(errors.map(\.pointer)).count, 100)
        XCTAssertTrue(problem.detail.contains("150"), problem.detail)
    }

    /// A bad token among good ones fails the whole document (no partial CSS).
    func testOneBadTokenFailsTheDocument() throws {
        let text = #"{"motion": {"$type": "duration", "a": {"$value": "100ms"}, "b": {"$value": "100 ms"}, "c": {"$value": "0.3s"}}}"#
        let problem = try XCTUnwrap(Self.problem(RequestDocument.parse(Array(text.utf8), limits: Self.limits)))
        XCTAssertEqual(try Self.errors(problem, text).map(\.pointer), ["/motion/b/$value"])
    }

    /// A document that is not an object is a wrong type at the root (400), not a token error.
    func testADocumentMustBeAnObject() throws {
        for text in ["[1]", "\"{a.b}\"", "3"] {
            let problem = try XCTUnwrap(Self.problem(RequestDocument.parse(Array(text.utf8), limits: Self.limits)), text)
            XCTAssertEqual(problem.status, 400, text)
            XCTAssertEqual(problem.pointer, "", text)
        }
    }

    /// The problem `TokenExport` throws for `document`, nil (a failure) when it converts.
    static func problem(_ document: JSONValue, file: StaticString = #filePath, line: UInt = #line) -> Problem? {
        do {
            _ = try TokenExport(document, tolerance: 0.001, limits: limits)
            XCTFail("the document converted", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    /// A 422's `errors` member as (pointer, detail) pairs, checking its shape.
    static func errors(_ problem: Problem, _ label: String) throws -> [(pointer: String, detail: String)] {
        XCTAssertEqual(problem.status, 422, label)
        XCTAssertEqual(problem.kind, .invalidRequest, label)
        guard case .array(let items)? = problem.extensions.first(where: { $0.key == "errors" })?.value else {
            XCTFail("\(label): no `errors` member in \(problem)")
            return []
        }
        return try items.map { item in
            guard case .object(let members) = item else { throw Failure("\(label): an error is not an object: \(item)") }
            XCTAssertEqual(members.map(\.key), ["pointer", "detail"], label)
            return (try XCTUnwrap(item["pointer"]?.string, label), try XCTUnwrap(item["detail"]?.string, label))
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Helpers

    /// `"<n>ms"` as n.
    static func milliseconds(_ text: String) throws -> Double {
        guard text.hasSuffix("ms"), let value = Double(text.dropLast(2)) else { throw Failure("not a duration in ms: \(text)") }
        return value
    }

    /// A number as CSS text writes it here (integers without a fraction).
    static func text(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    /// `max error <e> with <n> stops` in a comment.
    static func errorAndStops(_ comment: String) -> (error: Double, stops: Int)? {
        guard let range = comment.range(of: "max error ") else { return nil }
        let words = comment[range.upperBound...].split(separator: " ")
        guard words.count >= 3, words[1] == "with", let error = Double(words[0]), let stops = Int(words[2]),
              words.count > 3 && words[3].hasPrefix("stops") else { return nil }
        return (error, stops)
    }

    /// `count` even times over [0, end] and as many seeded random ones.
    static func times(_ end: Double, count: Int = 4000) -> [Double] {
        var generator = SplitMix64(seed: 39)
        return (0...count).map { end * Double($0) / Double(count) } + (0..<count).map { _ in Double.random(in: 0...end, using: &generator) }
    }
}

/// A token export's CSS, read line by line: the `:root` block's declarations (with the comment
/// lines among them), then the `@supports not (animation-timing-function: linear(0, 1))` block's.
struct TokenCSS {
    struct Declaration { var name: String; var value: String; var line: Int }

    let text: String
    let lines: [String]
    var root: [Declaration] = []
    var fallbacks: [Declaration] = []

    init(_ text: String) throws {
        self.text = text
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard text.hasSuffix("\n"), lines.first == ":root {" else { throw TokenTests.Failure("not one :root block first:\n\(text)") }
        guard let close = lines.firstIndex(of: "}") else { throw TokenTests.Failure("the :root block is not closed:\n\(text)") }
        root = try Self.declarations(lines, 1..<close)
        let rest = Array(lines[(close + 1)...])
        // Nothing to redefine: the block may be left out.
        if rest == [""] { return }
        guard rest.count >= 5, rest[0] == "@supports not (animation-timing-function: linear(0, 1)) {", rest[1] == ":root {",
              rest.suffix(3) == ["}", "}", ""] else {
            throw TokenTests.Failure("not an @supports not (animation-timing-function: linear(0, 1)) { :root { … } } block after :root:\n\(text)")
        }
        fallbacks = try Self.declarations(lines, (close + 3)..<(lines.count - 3))
    }

    static func declarations(_ lines: [String], _ range: Range<Int>) throws -> [Declaration] {
        var out: [Declaration] = []
        for i in range {
            let line = lines[i]
            if line.hasPrefix("/*") {
                guard line.hasSuffix("*/") else { throw TokenTests.Failure("a comment on more than one line: \(line)") }
                continue
            }
            guard line.hasPrefix("--"), line.hasSuffix(";"), let colon = line.range(of: ": ") else {
                throw TokenTests.Failure("not a custom property declaration: \(line)")
            }
            out.append(Declaration(name: String(line[..<colon.lowerBound]), value: String(line[colon.upperBound...].dropLast()), line: i))
        }
        return out
    }

    func value(_ name: String) -> String? { root.first { $0.name == name }?.value }
    func fallback(_ name: String) -> String? { fallbacks.first { $0.name == name }?.value }

    /// The comment that precedes `name`'s token: the nearest comment line above it, with no
    /// declaration of another token in between.
    func comment(before name: String) -> String? {
        guard let declaration = root.first(where: { $0.name == name }) else { return nil }
        let base = name.hasSuffix("-easing") ? String(name.dropLast("-easing".count)) : name
        var i = declaration.line - 1
        while i > 0 {
            let line = lines[i]
            if line.hasPrefix("/*") { return line }
            if !(line.hasPrefix(base + "-") || line.hasPrefix(base + ":")) { return nil }
            i -= 1
        }
        return nil
    }
}

private extension JSONValue {
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    subscript(path: [String]) -> JSONValue? {
        var node: JSONValue? = self
        for key in path { node = node?[key] }
        return node
    }

    var number: Double? {
        if case .number(let x) = self { return x }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
