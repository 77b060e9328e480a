import Foundation
import SegueEngine
import XCTest
@testable import SegueCodec
import SegueJSON

/// `format=lottie` (docs/rules.md rule 29, the error rule 26): each case is rendered, exported, and
/// the Lottie JSON is played back by the small evaluator below — written from lottie-spec
/// "Properties" (keyframes at `t` in frames, `h` hold, the easing Bézier from `o` and `i`, the last
/// keyframe whose time is at or before the frame) — at 20 points per frame, and compared with the
/// render's own values component by component within tolerance × max(1, range over the frames).
///
/// Every case's file is also written to `.build/lottie-samples/<case>.json`, for
/// `scripts/validate-lottie.py .build/lottie-samples/*.json` (the lottie-spec schema) after the run.
final class LottieExportTests: XCTestCase {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/lottie-samples")

    func decode(_ json: String) throws -> RenderRequest {
        try RenderRequest.decode(RequestDocument.parse(Array(json.utf8), limits: Limits()), limits: Limits())
    }

    /// Renders, exports, saves the sample, checks the error bound of every layer; the parsed document.
    @discardableResult
    func export(_ name: String, _ json: String, tolerance: Double = ExportTolerance.default,
                file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let request = try decode(json)
        let bytes = try LottieExport(request).lottie(tolerance: tolerance)
        try FileManager.default.createDirectory(at: Self.samples, withIntermediateDirectories: true)
        try Data(bytes).write(to: Self.samples.appendingPathComponent(name + ".json"))
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let check = LottiePlayback(document: document, request: request, tolerance: tolerance)
        let worst = check.worstError()
        XCTAssertLessThanOrEqual(worst.ratio, 1 + 1e-9, "\(name): \(worst.what) at frame \(worst.frame)", file: file, line: line)
        print("lottie \(name): \(bytes.count) bytes, \(check.keyframeCount) keyframes, worst error \(worst.ratio) × bound (\(worst.what))")
        return document
    }

    // MARK: Cases

    /// A frame animation with UIKit's spring; a custom channel is named in `warnings`.
    func testSpringFrameAndCustomChannel() throws {
        let document = try export("spring-frame", """
        {"fps": 60, "views": {"card": {"frame": [0, 568, 320, 568], "alpha": 1, "blur": 0}},
         "animations": [{"id": "present", "view": "card", "duration": 0.8,
                         "timing": {"type": "spring", "dampingRatio": 0.6, "initialVelocity": 0},
                         "to": {"frame": [0, 0, 320, 568], "blur": 10}}]}
        """)
        XCTAssertEqual(document["v"] as? String, "5.7.0")
        XCTAssertEqual(document["fr"] as? Double, 60)
        XCTAssertEqual(document["ip"] as? Double, 0)
        XCTAssertEqual(document["op"] as? Double, 49)
        // The union of the frames: 320 wide, from the spring's overshoot above 0 down to 1136.
        XCTAssertEqual(document["w"] as? Double, 320)
        XCTAssertGreaterThan(document["h"] as? Double ?? 0, 1136)
        let warnings = try XCTUnwrap(document["warnings"] as? [[String: Any]])
        XCTAssertEqual(warnings.map { $0["pointer"] as? String }, ["/views/card/blur"])
        let layer = try XCTUnwrap((document["layers"] as? [[String: Any]])?.first)
        let transform = try XCTUnwrap(layer["ks"] as? [String: Any])
        XCTAssertEqual((transform["p"] as? [String: Any])?["a"] as? Double, 1, "the position is keyframed")
        XCTAssertEqual((transform["o"] as? [String: Any])?["a"] as? Double, 0, "a constant opacity is a value")
    }

    /// Rotation (beyond a half turn, `direct`) and scale with an overshooting Bézier, and a
    /// translation, about the centre of a `center`/`bounds` view; a background colour.
    func testTransformWithBezierTiming() throws {
        let document = try export("transform-bezier", """
        {"fps": 30, "views": {"badge": {"center": [100, 100], "bounds": [0, 0, 80, 40],
                                        "transform": {"rotation": 0, "scale": [1, 1]}, "backgroundColor": [0.2, 0.4, 0.8, 1]}},
         "animations": [{"view": "badge", "duration": 1, "timing": "cubic-bezier(0.3, 0, 0.2, 1.4)", "rotationPath": "direct",
                         "to": {"transform": {"rotation": 4, "scale": [2, 0.5], "translation": [40, -20]}}}]}
        """)
        let transform = try XCTUnwrap(((document["layers"] as? [[String: Any]])?.first)?["ks"] as? [String: Any])
        let rotation = try XCTUnwrap((transform["r"] as? [String: Any])?["k"] as? [[String: Any]])
        let last = try XCTUnwrap((rotation.last?["s"] as? [Double])?.first)
        XCTAssertEqual(last, 4 * 180 / Double.pi, accuracy: 0.1, "the direct turn of 229° is not wrapped")
        // The Bézier-timed run is an exact piece: two keyframes eased by the animation's own curve.
        XCTAssertEqual(rotation.count, 2)
        XCTAssertEqual(rotation.first?["o"] as? [String: [Double]], ["x": [0.3], "y": [0]])
        XCTAssertEqual(rotation.first?["i"] as? [String: [Double]], ["x": [0.2], "y": [1.4]])
    }

    /// A value that is not finite is the JSON response's 422, naming the channel.
    func testNonFiniteValueIsTheJSONResponsesProblem() throws {
        let request = try decode("""
        {"at": [0, 0.5, 1], "views": {"v": {"frame": [0, 0, 10, 10], "transform": {"scale": [0, 1]}}},
         "animations": [{"view": "v", "duration": 1, "timing": "linear", "blend": "additive",
                         "to": {"transform": {"scale": [2, 1]}}}]}
        """)
        func problem(_ body: () throws -> Void) -> Problem? {
            do { try body() } catch let problem as Problem { return problem } catch { XCTFail("\(error)") }
            return nil
        }
        let json = problem { _ = try RenderResponse(request).json().bytes() }
        let lottie = problem { _ = try LottieExport(request).lottie(tolerance: 0.001) }
        XCTAssertNotNil(lottie)
        XCTAssertEqual(lottie?.status, 422)
        XCTAssertEqual(lottie?.pointer, json?.pointer)
        XCTAssertEqual(lottie?.detail, json?.detail)
    }

    /// The playback check is not vacuous: a keyframe moved by a point, or a linear keyframe given
    /// an easing, is over the bound.
    func testPlaybackNoticesAWrongKeyframe() throws {
        let json = """
        {"views": {"card": {"frame": [0, 568, 320, 568]}},
         "animations": [{"view": "card", "duration": 0.8, "timing": {"type": "spring", "dampingRatio": 0.6},
                         "to": {"frame": [0, 0, 320, 568]}}]}
        """
        let request = try decode(json)
        let bytes = try LottieExport(request).lottie(tolerance: 0.001)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        XCTAssertLessThanOrEqual(LottiePlayback(document: document, request: request, tolerance: 0.001).worstError().ratio, 1)
        func altered(_ change: (inout [String: Any]) -> Void) -> [String: Any] {
            var layers = document["layers"] as! [[String: Any]]
            var transform = layers[0]["ks"] as! [String: Any]
            var position = transform["p"] as! [String: Any]
            var keyframes = position["k"] as! [[String: Any]]
            change(&keyframes[keyframes.count / 2])
            position["k"] = keyframes
            transform["p"] = position
            layers[0]["ks"] = transform
            var copy = document
            copy["layers"] = layers
            return copy
        }
        let moved = altered { key in key["s"] = (key["s"] as! [Double]).map { $0 + 1 } }
        XCTAssertGreaterThan(LottiePlayback(document: moved, request: request, tolerance: 0.001).worstError().ratio, 1)
        let eased = altered { key in key["o"] = ["x": [0.42, 0.42], "y": [0, 0]] }
        XCTAssertGreaterThan(LottiePlayback(document: eased, request: request, tolerance: 0.001).worstError().ratio, 1)
    }

    /// `alpha` and the background colour (colour and its alpha) with a corner radius; the
    /// composition's size is the union of the frames; `at` times give fr 60.
    func testAlphaColourAndCornerRadius() throws {
        let document = try export("alpha-colour", """
        {"at": [0, 0.1, 0.35, 0.5, 0.9],
         "views": {"tile": {"frame": [20, 30, 100, 60], "alpha": 1, "backgroundColor": [1, 0, 0, 1], "cornerRadius": 0}},
         "animations": [{"view": "tile", "duration": 0.9, "timing": "easeInOut",
                         "to": {"alpha": 0.25, "backgroundColor": [0, 0.5, 1, 0.5], "cornerRadius": 20}}]}
        """)
        XCTAssertEqual(document["fr"] as? Double, 60)
        XCTAssertEqual(document["op"] as? Double, 5)
        XCTAssertEqual(document["w"] as? Double, 100)
        XCTAssertEqual(document["h"] as? Double, 60)
        XCTAssertEqual((document["warnings"] as? [Any])?.count, 0)
    }

    /// Colours fitted near 0 and 1 keep every keyframe within [0, 1] (lottie-spec "Color"); an
    /// overshooting colour is clamped and named in `warnings`.
    func testColourNearItsLimits() throws {
        let document = try export("colour-limits", """
        {"views": {"calm": {"frame": [0, 0, 50, 50], "backgroundColor": [1, 0, 0, 1]},
                   "bouncy": {"frame": [50, 0, 50, 50], "backgroundColor": [1, 0, 0, 1]}},
         "animations": [{"view": "calm", "duration": 0.6, "timing": {"type": "spring", "dampingRatio": 1},
                         "to": {"backgroundColor": [0, 0.2, 1, 0.8]}},
                        {"view": "bouncy", "duration": 0.6, "timing": {"type": "spring", "dampingRatio": 0.4},
                         "to": {"backgroundColor": [0, 0.2, 1, 0.8]}}]}
        """)
        let pointers = (document["warnings"] as? [[String: Any]])?.map { $0["pointer"] as? String }
        XCTAssertEqual(pointers, ["/views/bouncy/backgroundColor"])
        for layer in document["layers"] as? [[String: Any]] ?? [] {
            let fill = LayerValues(layer: layer).item("fl")
            let keyframes = try XCTUnwrap(fill["c"]?["k"] as? [[String: Any]])
            XCTAssertGreaterThan(keyframes.count, 2)
            for key in keyframes { XCTAssertTrue((key["s"] as? [Double] ?? []).allSatisfy { (0...1).contains($0) }) }
        }
    }

    /// A physics animation (an attachment spring on `center`), at the default tolerance and at 0.01.
    func testPhysics() throws {
        let json = """
        {"views": {"pane": {"center": [160, 500], "bounds": [0, 0, 320, 400]}},
         "animations": [{"id": "pane", "view": "pane", "to": {"center": [160, 100]}, "velocity": [0, -800],
                         "dynamics": {"model": "attachment", "frequency": 3.5, "damping": 0.4}}]}
        """
        let fine = try export("physics", json)
        let coarse = try export("physics-coarse", json, tolerance: 0.01)
        func count(_ document: [String: Any]) -> Int {
            let layer = (document["layers"] as? [[String: Any]])?.first ?? [:]
            return ((layer["ks"] as? [String: Any])?["p"] as? [String: Any])?["k"].map { ($0 as? [Any])?.count ?? 0 } ?? 0
        }
        XCTAssertLessThan(count(coarse), count(fine))
    }

    /// A `values` keyframe animation with calculationMode cubic.
    func testCubicKeyframes() throws {
        try export("cubic-keyframes", """
        {"views": {"dot": {"center": [0, 0], "bounds": [0, 0, 10, 10]}},
         "animations": [{"view": "dot", "duration": 2, "channel": "center", "calculationMode": "cubic",
                         "values": [[0, 0], [100, 50], [50, 150], [200, 200]], "keyTimes": [0, 0.3, 0.6, 1]}]}
        """)
    }

    /// Animator commands: pause, reverse, start again, then stop and finish at the end — a jump,
    /// written as a hold keyframe followed by one at the same time.
    func testCommandsAndJump() throws {
        let document = try export("commands", """
        {"views": {"card": {"frame": [0, 0, 100, 100], "transform": {"rotation": 0}}},
         "animations": [{"id": "spin", "view": "card", "duration": 2, "timing": "easeInOut",
                         "to": {"frame": [200, 0, 100, 100], "transform": {"rotation": 3}}}],
         "commands": [{"at": 0.5, "animation": "spin", "op": "pause"},
                      {"at": 0.8, "animation": "spin", "op": "reverse"},
                      {"at": 1.0, "animation": "spin", "op": "start"},
                      {"at": 1.2, "animation": "spin", "op": "stop", "withoutFinishing": false},
                      {"at": 1.2, "animation": "spin", "op": "finish", "position": "end"}]}
        """)
        let transform = try XCTUnwrap(((document["layers"] as? [[String: Any]])?.first)?["ks"] as? [String: Any])
        let keyframes = try XCTUnwrap((transform["p"] as? [String: Any])?["k"] as? [[String: Any]])
        let holds = keyframes.indices.filter { keyframes[$0]["h"] as? Double == 1 }
        XCTAssertEqual(holds.count, 1, "one jump")
        if let hold = holds.first {
            XCTAssertEqual(keyframes[hold]["t"] as? Double, keyframes[hold + 1]["t"] as? Double)
            XCTAssertEqual(keyframes[hold]["t"] as? Double ?? 0, 72, accuracy: 1e-9)
            XCTAssertEqual((keyframes[hold + 1]["s"] as? [Double])?.first, 250, "after the jump: the end")
        }
    }

    /// A preset with a container: w and h are the container's; the falling view is drawn over the
    /// dimming cover, the cover over the view uncovered (rule 40).
    func testPresetContainerAndLayerOrder() throws {
        let document = try export("drop-dismiss", """
        {"fps": 30, "transition": {"preset": "dropDismiss", "container": [0, 0, 375, 667]}}
        """)
        XCTAssertEqual(document["w"] as? Double, 375)
        XCTAssertEqual(document["h"] as? Double, 667)
        let layers = try XCTUnwrap(document["layers"] as? [[String: Any]])
        XCTAssertEqual(layers.map { $0["nm"] as? String }, ["from", "cover", "to"], "the first layer is drawn on top")
        XCTAssertEqual(layers.map { $0["ind"] as? Double }, [3, 2, 1])
    }

    /// A skewed transform and an oversized corner radius are warned about; the export is deterministic.
    func testWarningsAndDeterminism() throws {
        let json = """
        {"at": [0, 0.5, 1], "views": {"v": {"frame": [0, 0, 40, 20], "cornerRadius": 15,
                                             "transform": {"matrix": [1, 0, 0.5, 1, 0, 0]}}},
         "animations": [{"view": "v", "duration": 1, "timing": "linear", "to": {"frame": [10, 10, 40, 20]}}]}
        """
        let document = try export("warnings", json)
        let pointers = (document["warnings"] as? [[String: Any]])?.map { $0["pointer"] as? String }
        XCTAssertEqual(pointers, ["/views/v/transform", "/views/v/cornerRadius"])
        let request = try decode(json)
        XCTAssertEqual(try LottieExport(request).lottie(tolerance: 0.001), try LottieExport(request).lottie(tolerance: 0.001))
    }
}

// MARK: - Playback

/// Lottie playback from lottie-spec "Properties", and the error of every layer against the render.
struct LottiePlayback {
    let document: [String: Any]
    let request: RenderRequest
    let tolerance: Double

    /// Evaluation points per frame.
    static let density = 20.0

    var fps: Double { document["fr"] as? Double ?? 60 }
    var layers: [[String: Any]] { document["layers"] as? [[String: Any]] ?? [] }

    var keyframeCount: Int {
        func count(_ value: Any) -> Int {
            if let object = value as? [String: Any] {
                if object["a"] as? Double == 1, let keys = object["k"] as? [Any] { return keys.count }
                return object.values.reduce(0) { $0 + count($1) }
            }
            if let array = value as? [Any] { return array.reduce(0) { $0 + count($1) } }
            return 0
        }
        return count(layers)
    }

    /// A property's value at frame f.
    static func value(_ property: [String: Any], at f: Double) -> [Double] {
        if property["a"] as? Double != 1 {
            if let number = property["k"] as? Double { return [number] }
            return property["k"] as? [Double] ?? []
        }
        let keys = property["k"] as? [[String: Any]] ?? []
        let values = keys.map { $0["s"] as? [Double] ?? [] }
        let times = keys.map { $0["t"] as? Double ?? 0 }
        guard let index = times.lastIndex(where: { $0 <= f }) else { return values[0] }
        guard index + 1 < keys.count, keys[index]["h"] as? Double != 1 else { return values[index] }
        let u = (f - times[index]) / (times[index + 1] - times[index])
        let out = keys[index]["o"] as? [String: [Double]] ?? [:], into = keys[index]["i"] as? [String: [Double]] ?? [:]
        return values[index].indices.map { d in
            func entry(_ handle: [String: [Double]], _ axis: String) -> Double {
                let list = handle[axis] ?? [0]
                return d < list.count ? list[d] : list[0]
            }
            let eased = bezier(x1: entry(out, "x"), y1: entry(out, "y"), x2: entry(into, "x"), y2: entry(into, "y"), at: u)
            return values[index][d] + (values[index + 1][d] - values[index][d]) * eased
        }
    }

    /// The easing y at x = u of the cubic Bézier (0,0), (x1,y1), (x2,y2), (1,1), by bisection on x.
    static func bezier(x1: Double, y1: Double, x2: Double, y2: Double, at u: Double) -> Double {
        func cubic(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let r = 1 - s
            return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s
        }
        var low = 0.0, high = 1.0
        for _ in 0..<80 {
            let mid = (low + high) / 2
            if cubic(x1, x2, mid) < u { low = mid } else { high = mid }
        }
        return cubic(y1, y2, (low + high) / 2)
    }

    struct Worst {
        var ratio = 0.0
        var what = ""
        var frame = 0.0
    }

    /// The largest |shown − Segue| / (tolerance × max(1, range)) over every compared component of
    /// every layer, at `density` points per frame over the window (points within 1 µs of an event,
    /// where the two sides of a jump meet, are left out).
    func worstError() -> Worst {
        var worst = Worst()
        let window = max(request.scene.end, request.times.last ?? 0)
        let events = request.scene.events.map(\.event.t)
        let origin = Self.origin(request)
        for layer in layers {
            guard let name = layer["nm"] as? String else { continue }
            let skewed = (document["warnings"] as? [[String: Any]] ?? []).contains { $0["pointer"] as? String == "/views/\(name)/transform" }
            let truth = SegueValues(scene: request.scene, view: name, origin: origin, skewFree: skewed)
            let shown = LayerValues(layer: layer)
            let scales = truth.components.map { component in Self.scale(request.times.map { truth.value(component, at: $0) }) }
            var k = 0.0
            while k / Self.density <= window * fps + 1e-9 {
                let f = k / Self.density, t = f / fps
                k += 1
                if events.contains(where: { abs($0 - t) < 1e-6 }) { continue }
                for (c, component) in truth.components.enumerated() {
                    let expected = truth.value(component, at: t), actual = shown.value(component, at: f)
                    for i in expected.indices {
                        let ratio = abs(expected[i] - actual[i]) / (tolerance * scales[c][i])
                        if ratio > worst.ratio { worst = Worst(ratio: ratio, what: "\(name).\(component)[\(i)]", frame: f) }
                    }
                }
            }
        }
        return worst
    }

    /// max(1, max − min) per component.
    static func scale(_ values: [[Double]]) -> [Double] {
        (values.first ?? []).indices.map { i in
            let column = values.map { $0[i] }
            return max(1, (column.max() ?? 0) - (column.min() ?? 0))
        }
    }

    /// The canvas origin rule 29 asks for: the container's corner, else the union's.
    static func origin(_ request: RenderRequest) -> (Double, Double) {
        if let container = request.container { return (container.x, container.y) }
        var low = (Double.infinity, Double.infinity)
        for channel in request.scene.channels where channel.name == "frame" || channel.name == "center" {
            let values = SegueValues(scene: request.scene, view: channel.view, origin: (0, 0), skewFree: false)
            for t in request.times {
                let centre = values.centre(at: t), size = values.value("size", at: t)
                low = (min(low.0, centre[0] - abs(size[0]) / 2), min(low.1, centre[1] - abs(size[1]) / 2))
            }
        }
        return low.0.isFinite ? low : (0, 0)
    }
}

/// What a layer should show, from the render's own values (`Scene.Channel.value(at:)`).
struct SegueValues {
    let scene: Scene
    let view: String
    let origin: (Double, Double)
    /// A transform with a skew (warned about) is compared without it: R(θ) · diag(sx, sy) of its
    /// CSS decomposition (docs/transforms.md).
    let skewFree: Bool

    func channel(_ name: String) -> Scene.Channel? { scene.channels.first { $0.view == view && $0.name == name } }

    var components: [String] {
        var names = ["position", "size"]
        if channel("transform") != nil { names.append("matrix") }
        if channel("alpha") != nil { names.append("opacity") }
        if channel("cornerRadius") != nil { names.append("roundness") }
        if channel("backgroundColor") != nil { names += ["color", "fillOpacity"] }
        return names
    }

    func centre(at t: Double) -> [Double] {
        if let frame = channel("frame")?.value(at: t).numbers { return [frame[0] + frame[2] / 2, frame[1] + frame[3] / 2] }
        return channel("center")?.value(at: t).numbers ?? [0, 0]
    }

    func value(_ component: String, at t: Double) -> [Double] {
        let matrix = channel("transform")?.value(at: t).numbers ?? [1, 0, 0, 1, 0, 0]
        switch component {
        case "position":
            let c = centre(at: t)
            return [c[0] + matrix[4] - origin.0, c[1] + matrix[5] - origin.1]
        case "size":
            let rect = (channel("frame") ?? channel("bounds"))?.value(at: t).numbers ?? [0, 0, 0, 0]
            return [rect[2], rect[3]]
        case "matrix": return skewFree ? Self.withoutSkew(matrix) : Array(matrix[0..<4])
        case "opacity": return channel("alpha")?.value(at: t).numbers ?? [1]
        case "roundness": return channel("cornerRadius")?.value(at: t).numbers ?? [0]
        case "color": return (channel("backgroundColor")?.value(at: t).numbers ?? []).prefix(3).map { min(max($0, 0), 1) }
        case "fillOpacity": return [channel("backgroundColor")?.value(at: t).numbers[3] ?? 1]
        default: return []
        }
    }
}

extension SegueValues {
    /// R(θ) · diag(sx, sy) of the CSS 2-D unmatrix of [a, b, c, d, …]: the column lengths, the flip
    /// rule, θ = atan2 of the normalised first column.
    static func withoutSkew(_ m: [Double]) -> [Double] {
        var sx = (m[0] * m[0] + m[1] * m[1]).squareRoot(), sy = (m[2] * m[2] + m[3] * m[3]).squareRoot()
        if m[0] * m[3] - m[1] * m[2] < 0 {
            if m[0] < m[3] { sx = -sx } else { sy = -sy }
        }
        let theta = atan2(m[1] / sx, m[0] / sx)
        return [sx * cos(theta), sx * sin(theta), -sy * sin(theta), sy * cos(theta)]
    }
}

/// What a layer shows at frame f, in the same components as `SegueValues`.
struct LayerValues {
    let layer: [String: Any]

    var transform: [String: [String: Any]] { layer["ks"] as? [String: [String: Any]] ?? [:] }
    var items: [[String: Any]] {
        ((layer["shapes"] as? [[String: Any]])?.first?["it"] as? [[String: Any]]) ?? []
    }
    func item(_ type: String) -> [String: [String: Any]] {
        var properties: [String: [String: Any]] = [:]
        for (key, value) in items.first(where: { $0["ty"] as? String == type }) ?? [:] {
            if let property = value as? [String: Any] { properties[key] = property }
        }
        return properties
    }

    func value(_ component: String, at f: Double) -> [Double] {
        let play = { (property: [String: Any]?) in LottiePlayback.value(property ?? [:], at: f) }
        switch component {
        case "position": return play(transform["p"])
        case "size": return play(item("rc")["s"])
        case "matrix":
            let r = play(transform["r"])[0] * .pi / 180, s = play(transform["s"]).map { $0 / 100 }
            return [s[0] * cos(r), s[0] * sin(r), -s[1] * sin(r), s[1] * cos(r)]
        case "opacity": return play(transform["o"]).map { $0 / 100 }
        case "roundness": return play(item("rc")["r"])
        case "color": return play(item("fl")["c"])
        case "fillOpacity": return play(item("fl")["o"]).map { $0 / 100 }
        default: return []
        }
    }
}
