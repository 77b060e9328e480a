import Foundation
import XCTest
import SegueCodec
import SegueEngine
import SegueJSON
import SegueTestSupport

/// Every CSS and Web Animations export evaluated the way a browser does — by the evaluators in
/// SegueTestSupport/Web, written from CSS Easing 2, CSS Animations, Web Animations, CSS
/// Transforms and CSS Color — against Segue's own values over continuous time (docs/rules.md rule
/// 26): dense and random times over the whole window, not only the frames.
final class ExportErrorTests: XCTestCase {
    static let limits = Limits()

    static func curve(_ json: String) throws -> CurveRequest {
        try CurveRequest.decode(RequestDocument.parse(Array(json.utf8), limits: limits), limits: limits)
    }

    static func render(_ json: String) throws -> RenderRequest {
        try RenderRequest.decode(RequestDocument.parse(Array(json.utf8), limits: limits), limits: limits)
    }

    /// `count` even times over [0, end] and as many seeded random ones.
    static func times(_ end: Double, count: Int = 4000) -> [Double] {
        var generator = SplitMix64(seed: 2026)
        return (0...count).map { end * Double($0) / Double(count) } + (0..<count).map { _ in Double.random(in: 0...end, using: &generator) }
    }

    // MARK: Curves

    static let springCurves = [
        #"{"timing": {"type": "spring", "mass": 1, "stiffness": 100, "damping": 10}}"#,
        #"{"timing": {"type": "spring", "mass": 1, "stiffness": 100, "damping": 40, "allowsOverdamping": true}}"#,
        #"{"timing": {"type": "spring", "dampingRatio": 0.5, "initialVelocity": 1}, "duration": 0.6}"#,
        #"{"timing": {"type": "spring", "stiffness": 1500, "dampingRatio": 0.2}}"#,
        #"{"timing": {"type": "spring", "response": 0.55, "dampingRatio": 0.825}}"#,
        #"{"timing": {"type": "spring", "perceptualDuration": 0.5, "bounce": 0.3}}"#,
        #"{"timing": {"type": "spring", "bounciness": 12, "speed": 8}}"#,
        #"{"timing": {"type": "spring", "tension": 40, "friction": 7}}"#,
    ]

    /// Springs in every parametrisation: the `linear()` (CSS and WAAPI) within the tolerance of
    /// the curve over [0, D], its stated error the largest found, its fallback's too; the last stop
    /// exactly 1 when progress(D) is within the tolerance of 1.
    func testSpringCurvesStayWithinTheBound() throws {
        for json in Self.springCurves {
            let request = try Self.curve(json)
            let duration = request.duration
            let truth = { (t: Double) in request.curve.sample(at: t, duration: duration).progress }
            for tolerance in [1e-3, 1e-4] {
                let export = try CurveExport(request, tolerance: tolerance)
                let css = String(decoding: export.css(), as: UTF8.self)
                let lines = css.split(separator: "\n")
                let easing = try CSSEasing.parse(String(lines.last!))
                let waapi = try WAAPICurve(json: Data(export.waapi()))
                var worst = 0.0
                for t in Self.times(duration) {
                    worst = max(worst, abs(easing.progress(t / duration) - truth(t)))
                    XCTAssertEqual(waapi.progress(at: t), easing.progress(t / duration), accuracy: 1e-12, json)
                }
                XCTAssertLessThanOrEqual(worst, tolerance, "\(json) at \(tolerance)")
                XCTAssertLessThanOrEqual(worst, export.maxError + 1e-12, json)
                XCTAssertTrue(lines[lines.count - 3].contains("max error") && lines[lines.count - 3].contains("with \(export.stops) stops"),
                              css)
                if abs(truth(duration) - 1) <= tolerance { XCTAssertTrue(lines.last!.hasSuffix(" 1 100%)"), String(lines.last!)) }
                let fallbackText = try XCTUnwrap(export.fallback?.easing)
                XCTAssertTrue(lines[lines.count - 2].hasPrefix("/* fallback: \(fallbackText); max error "))
                let fallback = try CSSEasing.parse(fallbackText)
                let fallbackError = Self.times(duration, count: 2000).map { abs(fallback.progress($0 / duration) - truth($0)) }.max()!
                XCTAssertLessThanOrEqual(fallbackError, export.fallback!.maxError * 1.0001 + 1e-9, json)
            }
        }
    }

    /// Exact forms: a Bézier is its keyword or `cubic-bezier()` verbatim, steps `steps()`, a
    /// piecewise-linear curve `linear()` with its points — error 0, no fallback but for `linear()`.
    func testExactCurvesAreWrittenAsTheyAre() throws {
        let cases: [(String, String)] = [
            (#"{"timing": "ease-in-out"}"#, "ease-in-out"),
            (#"{"timing": {"type": "easeOut"}}"#, "ease-out"),
            (#"{"timing": "cubic-bezier(0.3, 1.4, 0.6, 0.9)", "duration": 2}"#, "cubic-bezier(0.3, 1.4, 0.6, 0.9)"),
            (#"{"timing": "steps(4, jump-both)"}"#, "steps(4, jump-both)"),
            (#"{"timing": "step-start"}"#, "steps(1, start)"),
            (#"{"timing": "linear(0, 0.25 40%, 1)"}"#, "linear(0 0%, 0.25 40%, 1 100%)"),
        ]
        for (json, easing) in cases {
            let export = try CurveExport(try Self.curve(json), tolerance: 1e-3)
            XCTAssertEqual(export.easing, easing)
            XCTAssertEqual(export.maxError, 0)
            XCTAssertEqual(String(decoding: export.css(), as: UTF8.self).split(separator: "\n").last.map(String.init), easing)
            XCTAssertEqual(export.fallback == nil, !easing.hasPrefix("linear("), json)
        }
    }

    // MARK: Renders

    static let renders: [(String, String)] = [
        ("blocks: spring frame, eased alpha, transform, colour, custom channels", #"""
        {"fps": 60, "views": {"card": {"frame": [0, 568, 320, 568], "alpha": 0, "transform": {"rotation": 0},
          "backgroundColor": [1, 0, 0, 1], "glow": 0, "uv": [0, 1]}},
         "animations": [
          {"id": "present", "view": "card", "duration": 0.8, "timing": {"type": "spring", "dampingRatio": 0.6}, "to": {"frame": [0, 0, 320, 568]}},
          {"view": "card", "duration": 0.5, "delay": 0.1, "timing": "ease-in-out",
           "to": {"alpha": 1, "transform": {"rotation": 3, "scale": [1.2, 0.8], "translation": [10, -4]},
                  "backgroundColor": [0, 0, 1, 0.5], "glow": 4, "uv": [2, -1]}}]}
        """#),
        ("physics on a tick integrator: semi-implicit Euler at 60 Hz, a jump at every tick", #"""
        {"views": {"p": {"center": [0, 0], "bounds": [0, 0, 40, 40]}},
         "animations": [{"view": "p", "to": {"center": [200, 80]}, "dynamics": {"model": "spring", "stiffness": 200, "damping": 10, "integrator": "euler"}}]}
        """#),
        ("center and bounds, a direct 2π turn, a skew", #"""
        {"views": {"v": {"center": [100, 100], "bounds": [0, 0, 50, 80], "transform": {"matrix": [1, 0, 0.5, 1, 0, 0]}, "cornerRadius": 2}},
         "animations": [
          {"view": "v", "duration": 1, "timing": "ease", "to": {"center": [200, 50], "bounds": [0, 0, 100, 40], "cornerRadius": 20}},
          {"view": "v", "duration": 1.2, "timing": "linear", "rotationPath": "direct",
           "to": {"transform": {"ops": [{"rotate": 6.283185307179586}, {"scale": [2, 2]}]}}}]}
        """#),
        ("keyframe modes", #"""
        {"fps": 30, "views": {"a": {"center": [0, 0]}, "b": {"alpha": 0}, "c": {"x": 0}, "d": {"center": [0, 0]}},
         "animations": [
          {"view": "a", "duration": 1, "calculationMode": "cubicPaced", "keyframes": [{"start": 0, "duration": 0.25, "to": {"center": [100, 0]}},
            {"start": 0.25, "duration": 0.25, "to": {"center": [100, 100]}}, {"start": 0.5, "duration": 0.5, "to": {"center": [0, 300]}}]},
          {"view": "b", "duration": 1, "timing": "linear", "keyframes": [{"start": 0, "duration": 0.3, "to": {"alpha": 1}},
            {"start": 0.3, "duration": 0.7, "to": {"alpha": 0.2}}]},
          {"view": "c", "channel": "x", "duration": 1.5, "calculationMode": "cubic", "values": [0, 10, -5, 30], "keyTimes": [0, 0.2, 0.7, 1]},
          {"view": "d", "duration": 1, "calculationMode": "paced", "keyframes": [{"start": 0, "duration": 0.5, "to": {"center": [30, 40]}},
            {"start": 0.5, "duration": 0.5, "to": {"center": [30, 0]}}]}]}
        """#),
        ("animator commands", #"""
        {"views": {"v": {"frame": [0, 0, 10, 10], "alpha": 1}},
         "animations": [{"id": "a", "view": "v", "duration": 1, "timing": "ease-in", "to": {"frame": [300, 0, 10, 10], "alpha": 0}}],
         "commands": [{"at": 0.3, "animation": "a", "op": "pause"}, {"at": 0.5, "animation": "a", "op": "reverse"},
                      {"at": 0.6, "animation": "a", "op": "continue", "timing": {"type": "spring", "dampingRatio": 0.4}, "durationFactor": 1.5}]}
        """#),
        ("interaction", #"""
        {"views": {"v": {"center": [0, 0]}},
         "animations": [{"id": "dismiss", "view": "v", "duration": 0.5, "timing": "linear", "to": {"center": [0, 500]}}],
         "interaction": {"animations": ["dismiss"], "updates": [{"at": 0, "percent": 0}, {"at": 0.1, "percent": 0.25}, {"at": 0.3, "percent": 0.4}],
                         "end": {"at": 0.4, "action": "finish"}, "completionSpeed": 1, "completionCurve": "easeOut"}}
        """#),
        ("physics", #"""
        {"views": {"pane": {"center": [160, 400]}, "ball": {"center": [0, 0]}},
         "animations": [{"id": "p", "view": "pane", "to": {"center": [160, 100]}, "velocity": [0, -800],
                         "dynamics": {"model": "attachment", "frequency": 3.5, "damping": 0.4}},
                        {"id": "d", "view": "ball", "channel": "center", "velocity": [300, 200], "dynamics": {"model": "decay"}}],
         "commands": [{"at": 0.3, "animation": "p", "op": "retarget", "to": {"center": [160, 300]}}]}
        """#),
        ("a colour from transparent with a spring", #"""
        {"views": {"v": {"backgroundColor": [1, 0, 0, 0]}},
         "animations": [{"view": "v", "duration": 0.6, "timing": {"type": "spring", "dampingRatio": 0.5}, "to": {"backgroundColor": [0, 0, 1, 1]}}]}
        """#),
        ("jumps: steps timing and a finish at the start", #"""
        {"views": {"v": {"frame": [0, 0, 10, 10], "alpha": 1}},
         "animations": [{"id": "s", "view": "v", "duration": 1, "timing": "steps(4)", "to": {"frame": [100, 0, 10, 10]}},
                        {"id": "f", "view": "v", "duration": 1, "timing": "linear", "to": {"alpha": 0}}],
         "commands": [{"at": 0.45, "animation": "f", "op": "stop", "withoutFinishing": false}, {"at": 0.45, "animation": "f", "op": "finish", "position": "start"}]}
        """#),
    ]

    /// Segue's value of a CSS property of a view at t (rule 28's mapping, written here again
    /// from the rule), clamped where CSS clamps: components in the order the evaluator gives them.
    static func segue(_ scene: Scene, view: String, property: String, at t: Double) -> [Double]? {
        func channel(_ name: String) -> [Double]? {
            scene.channels.first { $0.view == view && $0.name == name }?.value(at: t).numbers
        }
        let clamp = { (x: Double) in min(max(x, 0), 1) }
        switch property {
        case "left": return channel("frame").map { [$0[0]] } ?? channel("center").map { c in [c[0] - (channel("bounds")?[2] ?? 0) / 2] }
        case "top": return channel("frame").map { [$0[1]] } ?? channel("center").map { c in [c[1] - (channel("bounds")?[3] ?? 0) / 2] }
        case "width": return (channel("frame") ?? channel("bounds")).map { [$0[2]] }
        case "height": return (channel("frame") ?? channel("bounds")).map { [$0[3]] }
        case "opacity": return channel("alpha").map { [clamp($0[0])] }
        case "transform": return channel("transform")
        // Colours as drawn: premultiplied by alpha, in 0–1 (docs/exports.md "Colours").
        case "background-color": return channel("backgroundColor").map { c in c.enumerated().map { $0 < 3 ? clamp($1) * clamp(c[3]) : clamp($1) } }
        case "border-radius": return channel("cornerRadius")
        default:
            guard property.hasPrefix("--") else { return nil }
            let name = String(property.dropFirst(2))
            if let value = channel(name) { return value }
            guard let dash = name.lastIndex(of: "-"), let k = Int(name[name.index(after: dash)...]),
                  let vector = channel(String(name[..<dash])) else { return nil }
            return [vector[k]]
        }
    }

    /// A value's components; a colour premultiplied, in 0–1.
    static func components(_ value: WebAnimatedValue) -> [Double] {
        if let c = value.color { return [c[0] / 255 * c[3], c[1] / 255 * c[3], c[2] / 255 * c[3], c[3]] }
        return value.number.map { [$0] } ?? value.matrix ?? []
    }

    /// Jump times of a render's channels: where consecutive samples of a fine grid differ by
    /// more than `factor` × the tolerance × scale, narrowed by bisection.
    static func jumps(_ scene: Scene, scales: [[Double]], tolerance: Double) -> [Double] {
        let n = 20_000, end = scene.end
        var found: [Double] = []
        for (c, channel) in scene.channels.enumerated() {
            var previous = channel.value(at: 0).numbers
            for i in 1...n {
                let t = end * Double(i) / Double(n)
                let value = channel.value(at: t).numbers
                let leaps = value.indices.contains { abs(value[$0] - previous[$0]) > 50 * tolerance * scales[c][$0] }
                if leaps {
                    var low = end * Double(i - 1) / Double(n), high = t
                    for _ in 0..<60 {
                        let middle = (low + high) / 2
                        let v = channel.value(at: middle).numbers
                        if v.indices.contains(where: { abs(v[$0] - previous[$0]) > 25 * tolerance * scales[c][$0] }) { high = middle } else { low = middle }
                    }
                    found.append(high)
                }
                previous = value
            }
        }
        return found
    }

    /// Each render's CSS and WAAPI exports, evaluated by the keyframe evaluators, stay within
    /// tolerance × max(1, range) of Segue's values for every property component over continuous
    /// time (around a jump, the hold of `jumpLead` before it is left out).
    func testRenderExportsStayWithinTheBound() throws {
        for (name, json) in Self.renders {
            let request = try Self.render(json)
            let scene = request.scene, end = scene.end
            for tolerance in [1e-3, 1e-2] {
                let export = try RenderExport(request, options: ExportOptions(tolerance: tolerance, geometry: .layout))
                let css = try CSSKeyframesDocument(css: String(decoding: export.css(), as: UTF8.self))
                let registrations = css.registrations.mapValues { (syntax: $0.syntax, initialValue: $0.initialValue) }
                let waapi = try WAAPIDocument(json: Data(export.waapi()), registrations: registrations)
                let scales = scene.channels.map { channel in
                    let frames = request.times.map { channel.value(at: $0).numbers }
                    return (0..<channel.kind.width).map { k in max(1, (frames.map { $0[k] }.max() ?? 0) - (frames.map { $0[k] }.min() ?? 0)) }
                }
                let jumps = Self.jumps(scene, scales: scales, tolerance: tolerance)
                var checked = 0
                for t in Self.times(end, count: 600) + jumps where !jumps.contains(where: { t < $0 && t > $0 - 1.1e-4 * end }) {
                    for view in css.viewIDs {
                        let browser = try css.values(view: view, at: t), animated = try waapi.values(view: view, at: t)
                        for (property, value) in browser {
                            let truth = try XCTUnwrap(Self.segue(scene, view: view, property: property, at: t), "\(name): \(property)")
                            let shown = Self.components(value)
                            for (a, b) in zip(Self.components(try XCTUnwrap(animated[property])), shown) {
                                XCTAssertEqual(a, b, accuracy: 1e-9 * max(1, abs(b)), "\(name): WAAPI \(property) at \(t)")
                            }
                            let bounds = Self.bounds(scene, scales, view: view, property: property, tolerance: tolerance)
                            for k in shown.indices where abs(shown[k] - truth[k]) > bounds[k] {
                                XCTFail("\(name) at \(tolerance): \(view).\(property)[\(k)] at t = \(t) is \(shown[k]), Segue \(truth[k]), bound \(bounds[k])")
                            }
                            checked += 1
                        }
                    }
                }
                XCTAssertGreaterThan(checked, 1200, name)
                XCTAssertLessThanOrEqual(export.maxError, tolerance, name)
            }
        }
    }

    /// tolerance × the scale of each component of a property (rule 26), in the property's units.
    static func bounds(_ scene: Scene, _ scales: [[Double]], view: String, property: String, tolerance: Double) -> [Double] {
        func scale(_ name: String) -> [Double] {
            scene.channels.firstIndex { $0.view == view && $0.name == name }.map { scales[$0] } ?? [1, 1, 1, 1, 1, 1]
        }
        let bound: [Double]
        switch property {
        case "left", "top":
            let geometry = scale(scene.channels.contains { $0.view == view && $0.name == "frame" } ? "frame" : "center")
            bound = [geometry[property == "left" ? 0 : 1] * tolerance]
        case "width", "height":
            let geometry = scale(scene.channels.contains { $0.view == view && $0.name == "frame" } ? "frame" : "bounds")
            bound = [geometry[property == "width" ? 2 : 3] * tolerance]
        case "opacity": bound = [scale("alpha")[0] * tolerance]
        case "transform": bound = scale("transform").map { $0 * tolerance }
        case "background-color": bound = [tolerance, tolerance, tolerance, tolerance]
        case "border-radius": bound = [scale("cornerRadius")[0] * tolerance]
        default:
            // A custom channel `--c`, or component k of a vector one, `--c-k`.
            let name = String(property.dropFirst(2))
            if scene.channels.contains(where: { $0.view == view && $0.name == name }) {
                bound = [scale(name)[0] * tolerance]
            } else {
                let dash = name.lastIndex(of: "-")!
                bound = [scale(String(name[..<dash]))[Int(name[name.index(after: dash)...])!] * tolerance]
            }
        }
        // What a left/top from centre and bounds adds: both channels' errors.
        return bound.map { $0 * (1 + 1e-9) + 1e-9 }
    }

    /// A block animation with a Bézier timing exports that `cubic-bezier()` verbatim on a
    /// two-keyframe track (plus the holds at 0 % and 100 %), for numbers and transforms alike.
    func testBezierTimedBlocksAreExact() throws {
        let request = try Self.render(#"""
        {"views": {"v": {"alpha": 0, "transform": {"rotation": 0}, "cornerRadius": 0}},
         "animations": [{"view": "v", "delay": 0.25, "duration": 0.5, "timing": "cubic-bezier(0.3, 1.4, 0.6, 0.9)",
                         "to": {"alpha": 1, "transform": {"rotation": 2.5, "scale": [2, 2]}, "cornerRadius": 8}}],
         "until": 1}
        """#)
        let export = try RenderExport(request, options: ExportOptions(tolerance: 1e-3))
        let css = String(decoding: export.css(), as: UTF8.self)
        XCTAssertTrue(css.contains("  25% { transform: translate(0px, 0px) rotate(0rad) scale(1, 1); opacity: 0; border-radius: 0px; "
                                   + "animation-timing-function: cubic-bezier(0.3, 1.4, 0.6, 0.9); }"), css)
        XCTAssertTrue(css.contains("  75% { transform: translate(0px, 0px) rotate(2.5rad) scale(2, 2); opacity: 1; border-radius: 8px; }"), css)
        XCTAssertEqual(export.keyframeCount, 3 * 4, css)
        XCTAssertLessThan(export.maxError, 1e-9)
    }

    /// View ids are escaped as CSS identifiers in `@keyframes` names and as CSS strings in the
    /// attribute selector; custom channel names as identifiers after `--`.
    func testUserTextIsEscaped() throws {
        let request = try Self.render(#"""
        {"views": {"a\"b c<1": {"alpha": 0, "x y": 0}}, "animations": [{"view": "a\"b c<1", "duration": 1, "to": {"alpha": 1, "x y": 2}}]}
        """#)
        let css = String(decoding: try RenderExport(request, options: ExportOptions(tolerance: 1e-3)).css(), as: UTF8.self)
        XCTAssertTrue(css.contains(#"@keyframes segue-a\"b\ c\<1 {"#), css)
        XCTAssertTrue(css.contains(#"[data-segue="a\"b c<1"] { animation: segue-a\"b\ c\<1 1s linear both;"#), css)
        XCTAssertTrue(css.contains(#"@property --x\ y { syntax: '<number>'; inherits: false; initial-value: 0; }"#), css)
    }
}
