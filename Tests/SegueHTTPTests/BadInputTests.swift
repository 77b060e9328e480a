import Foundation
import XCTest
@testable import SegueHTTP

/// Every class of bad input against the real server: each row gets its exact status and
/// problem+json pointer, and the server still answers afterwards (docs/rules.md "Conventions").
final class BadInputTests: XCTestCase {
    struct Row {
        var name: String
        var method = "POST"
        var path = "/v1/curve"
        var headers: [(String, String)] = [("Content-Type", "application/json")]
        var body: [UInt8]
        var status: Int
        /// nil: the problem has no pointer.
        var pointer: String?
        var kind: String? = nil

        init(_ name: String, _ body: String, _ status: Int, _ pointer: String?, kind: String? = nil) {
            self.name = name
            self.body = Array(body.utf8)
            self.status = status
            self.pointer = pointer
            self.kind = kind
        }

        init(_ name: String, bytes: [UInt8], _ status: Int, _ pointer: String?, kind: String? = nil) {
            self.name = name
            self.body = bytes
            self.status = status
            self.pointer = pointer
            self.kind = kind
        }
    }

    static let rows: [Row] = {
        var rows = [
            Row("malformed JSON", #"{"timing": "ease",}"#, 400, "", kind: "malformed-json"),
            Row("truncated JSON", #"{"timing": "ease""#, 400, "", kind: "malformed-json"),
            Row("wrong type: samples as string", #"{"timing": "ease", "samples": "5"}"#, 400, "/samples", kind: "wrong-type"),
            Row("wrong type: timing as number", #"{"timing": 3}"#, 400, "/timing", kind: "wrong-type"),
            Row("wrong type: body is an array", #"[1, 2]"#, 400, "", kind: "wrong-type"),
            Row("NaN literal", #"{"timing": "ease", "duration": NaN}"#, 400, "/duration", kind: "malformed-json"),
            Row("Infinity literal", #"{"timing": "ease", "at": [0, Infinity]}"#, 400, "/at/1", kind: "malformed-json"),
            Row("-Infinity literal", #"{"timing": "ease", "duration": -Infinity}"#, 400, "/duration", kind: "malformed-json"),
            Row("1e400", #"{"timing": "ease", "duration": 1e400}"#, 400, "/duration", kind: "number-out-of-range"),
            Row("negative duration", #"{"timing": "ease", "duration": -1}"#, 422, "/duration"),
            Row("zero duration", #"{"timing": "ease", "duration": 0}"#, 422, "/duration"),
            Row("duration over the limit", #"{"timing": "ease", "duration": 3601}"#, 422, "/duration"),
            Row("fps 0", #"{"timing": "ease", "fps": 0}"#, 422, "/fps"),
            Row("fps 10^6", #"{"timing": "ease", "fps": 1000000}"#, 422, "/fps"),
            Row("fps grid over the frame limit", #"{"timing": "ease", "fps": 1000, "duration": 3600}"#, 413, "/fps", kind: "too-large"),
            Row("samples 10^8", #"{"timing": "ease", "samples": 100000000}"#, 413, "/samples", kind: "too-large"),
            Row("samples 1", #"{"timing": "ease", "samples": 1}"#, 422, "/samples"),
            Row("samples 2.5", #"{"timing": "ease", "samples": 2.5}"#, 422, "/samples"),
            Row("at and samples together", #"{"timing": "ease", "at": [0], "samples": 3}"#, 422, "/samples"),
            Row("empty at", #"{"timing": "ease", "at": []}"#, 422, "/at"),
            Row("x1 = 1.5 (object)", #"{"timing": {"type": "cubicBezier", "p1": [1.5, 0], "p2": [0.5, 1]}}"#, 422, "/timing/p1/0"),
            Row("x1 = 1.5 (CSS)", #"{"timing": "cubic-bezier(1.5, 0, 0.5, 1)"}"#, 422, "/timing"),
            Row("steps(0)", #"{"timing": "steps(0)"}"#, 422, "/timing"),
            Row("steps(1, jump-none)", #"{"timing": "steps(1, jump-none)"}"#, 422, "/timing"),
            Row("steps count 0 (object)", #"{"timing": {"type": "steps", "count": 0}}"#, 422, "/timing/count"),
            Row("unknown timing type", #"{"timing": {"type": "bounce"}}"#, 422, "/timing/type"),
            Row("unknown member", #"{"timing": "ease", "speed": 2}"#, 422, "/speed"),
            Row("unknown timing member", #"{"timing": {"type": "ease", "p1": [0, 0]}}"#, 422, "/timing/p1"),
            Row("two spring parameter sets", #"{"timing": {"type": "spring", "mass": 1, "stiffness": 100, "damping": 10, "response": 0.5}}"#,
                422, "/timing/response"),
            Row("ratio mixed with a physical set", #"{"timing": {"type": "spring", "damping": 10, "dampingRatio": 0.5}}"#,
                422, "/timing/dampingRatio"),
            Row("UIKit spring without a duration", #"{"timing": {"type": "spring", "dampingRatio": 0.5}}"#, 422, "/duration"),
            Row("undamped spring without at", #"{"timing": {"type": "spring", "mass": 1, "stiffness": 100, "damping": 0}}"#,
                422, "/timing"),
            Row("negative mass", #"{"timing": {"type": "spring", "mass": -1, "stiffness": 100, "damping": 10}}"#, 422, "/timing/mass"),
            Row("zero stiffness", #"{"timing": {"type": "spring", "stiffness": 0, "dampingRatio": 0.5}}"#, 422, "/timing/stiffness"),
            Row("bounce -1", #"{"timing": {"type": "spring", "perceptualDuration": 0.5, "bounce": -1}}"#, 422, "/timing/bounce"),
            Row("spring without a set", #"{"timing": {"type": "spring"}}"#, 422, "/timing"),
            Row("extrapolation to infinity", #"{"timing": "cubic-bezier(0.1, 100, 0.9, 1)", "at": [-1e307]}"#, 422, "/at"),
            Row("10,000 levels of nesting", String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
                400, String(repeating: "/0", count: 64), kind: "nesting-too-deep"),  // the 65th array
            Row("invalid UTF-8", bytes: Array(#"{"timing": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), 400, "/timing",
                kind: "invalid-utf8"),
            Row("empty body", "", 400, "", kind: "malformed-json"),
            Row("2 MiB body", #"{"timing": "ease", "at": ["# + String(repeating: "0,", count: 1 << 20) + "0]}", 413, nil,
                kind: "too-large"),
        ]
        rows += renderRows
        var wrongType = Row("wrong content type", #"{"timing": "ease"}"#, 415, nil, kind: "unsupported-media-type")
        wrongType.headers = [("Content-Type", "text/plain")]
        var wrongMethod = Row("wrong method", "", 405, nil, kind: "method-not-allowed")
        wrongMethod.method = "GET"
        var unknownPath = Row("unknown path", #"{"timing": "ease"}"#, 404, nil, kind: "not-found")
        unknownPath.path = "/v1/curves"
        var notAcceptable = Row("unsupported Accept", #"{"timing": "ease"}"#, 406, nil, kind: "not-acceptable")
        notAcceptable.headers.append(("Accept", "image/png"))
        var lottieCurve = Row("format=lottie on a curve", #"{"timing": "ease"}"#, 406, nil, kind: "not-acceptable")
        lottieCurve.path = "/v1/curve?format=lottie"
        rows += [wrongType, wrongMethod, unknownPath, notAcceptable, lottieCurve]
        // `?tolerance=` outside [1e-6, 0.1] or not a number (docs/rules.md "Exports"): 422 naming the parameter.
        for (value, route) in [("0", "curve"), ("-0.001", "curve"), ("1", "render"), ("NaN", "curve"), ("nan", "render"),
                               ("1e-7", "curve"), ("0.2", "render"), ("abc", "curve"), ("", "curve"), ("inf", "curve")] {
            var row = Row("tolerance=\(value) on \(route)", route == "curve" ? #"{"timing": "ease"}"# : #"{"views": {}}"#, 422, nil,
                          kind: "invalid-request")
            row.path = "/v1/\(route)?format=css&tolerance=\(value)"
            rows.append(row)
        }
        // The render exports' parameters (docs/exports.md "Export parameters"): a bad value, or one given where it
        // shapes nothing, is a 422 naming the parameter.
        let slide = #"{"transition": {"preset": "slideDismiss", "container": [0, 0, 320, 568]}}"#
        for (query, route, parameter) in [("format=css&prefix=9x", "render", "prefix"), ("format=waapi&prefix=a%20b", "render", "prefix"),
                                          ("format=css&trigger=%7B", "render", "trigger"), ("format=css&trigger=.a,.b", "render", "trigger"),
                                          ("format=waapi&trigger=.open", "render", "trigger"), ("format=css&geometry=matrix", "render", "geometry"),
                                          ("format=css&units=em", "render", "units"), ("format=lottie&prefix=a", "render", "prefix"),
                                          ("format=json&units=px", "render", "units"), ("format=css&prefix=a", "curve", "prefix"),
                                          ("format=css&geometry=layout", "curve", "geometry")] {
            var row = Row("parameter \(parameter): \(query) on \(route)", route == "curve" ? #"{"timing": "ease"}"# : slide, 422, nil,
                          kind: "invalid-request")
            row.path = "/v1/\(route)?\(query)"
            rows.append(row)
        }
        var noContainer = Row("parameter units: container units without a container", #"{"views": {"v": {"frame": [0, 0, 1, 1]}}}"#,
                              422, nil, kind: "invalid-request")
        noContainer.path = "/v1/render?format=css&units=container"
        rows.append(noContainer)
        // An export of a render over the result limits, or whose fitting is over the work limit: 413 before any work.
        var framesOver = Row("css export over the frame limit", #"{"fps": 1000, "until": 3600, "views": {"v": {"alpha": 1}}}"#, 413, "/fps",
                             kind: "too-large")
        framesOver.path = "/v1/render?format=css"
        // 1000 attachments: physics, which no single easing describes, fitted on every view.
        let views = (0..<1000).map { #""v\#($0)": {"center": [0, 0], "bounds": [0, 0, 10, 10]}"# }.joined(separator: ",")
        let animations = (0..<1000).map { #"{"view": "v\#($0)", "to": {"center": [200, \#($0)]}, "dynamics": {"model": "attachment", "frequency": 1, "damping": 0.2}}"# }
            .joined(separator: ",")
        var workOver = Row("waapi export over the work limit", #"{"fps": 60, "views": {\#(views)}, "animations": [\#(animations)]}"#,
                           413, nil, kind: "too-large")
        workOver.path = "/v1/render?format=waapi"
        // UIKit's dampingRatio 0 solves to a spring of megahertz: no export can follow it.
        var unexportable = Row("css export of a curve no keyframes can follow",
                               #"{"timing": {"type": "spring", "dampingRatio": 0}, "duration": 0.8}"#, 413, nil, kind: "too-large")
        unexportable.path = "/v1/curve?format=css&tolerance=0.01"
        rows += [framesOver, workOver, unexportable]
        // `POST /v1/tokens` (rule 39): the first bad token's pointer, every one in `errors` (TokenTests).
        let cycle = #"{"a": {"$type": "duration", "x": {"$value": "{a.y}"}, "y": {"$value": "{a.x}"}}}"#
        let missing = #"{"t": {"$type": "transition", "$value": {"duration": "{d.none}", "timingFunction": [0, 0, 1, 1]}}}"#
        let badSpring = #"{"s": {"$type": "duration", "$value": "200ms", "$extensions": {"dev.segue": {"timing": {"type": "spring", "dampingRatio": -1}}}}}"#
        let badUnit = #"{"d": {"$type": "duration", "$value": {"value": 2, "unit": "min"}}}"#
        let clash = #"{"a-b": {"$type": "cubicBezier", "$value": [0, 0, 1, 1]}, "a": {"b": {"$type": "cubicBezier", "$value": [0, 0, 1, 1]}}}"#
        let huge = #"{"d": {"$type": "duration", "$value": "1e300s"}}"#
        let hexadecimal = #"{"d": {"$type": "duration", "$value": "0x10ms"}}"#
        // A chain of 40 aliases: refused at its start, neither recursing nor working along all of it.
        let chain = #"{"g": {"$type": "duration", "#
            + (0..<40).map { #""t\#($0)": {"$value": "{g.t\#($0 + 1)}"}, "# }.joined() + #""t40": {"$value": "100ms"}}}"#
        for (name, body, pointer) in [("a cycle of aliases", cycle, "/a/x/$value"), ("an alias to nothing", missing, "/t/$value/duration"),
                                      ("a spring with a negative damping ratio", badSpring, "/s/$extensions/dev.segue/timing/dampingRatio"),
                                      ("an unknown duration unit", badUnit, "/d/$value"),
                                      ("two tokens with one custom property", clash, "/a/b"),
                                      ("a duration beyond the limit", huge, "/d/$value"),
                                      ("a hexadecimal duration", hexadecimal, "/d/$value"),
                                      ("a chain of 40 aliases", chain, "/g/t0/$value")] {
            var row = Row("tokens: \(name)", body, 422, pointer, kind: "invalid-request")
            row.path = "/v1/tokens"
            rows.append(row)
        }
        var notObject = Row("tokens: a document that is not an object", "[1]", 400, "", kind: "wrong-type")
        notObject.path = "/v1/tokens"
        var tokenParameter = Row("tokens: a render's export parameter", #"{}"#, 422, nil, kind: "invalid-request")
        tokenParameter.path = "/v1/tokens?prefix=a"
        var tokenFormat = Row("tokens: format=lottie", #"{}"#, 406, nil, kind: "not-acceptable")
        tokenFormat.path = "/v1/tokens?format=lottie"
        rows += [notObject, tokenParameter, tokenFormat]
        return rows
    }()

    /// `POST /v1/render` rows (docs/rules.md "The render route", rules 1–25).
    static let renderRows: [Row] = {
        let view = #""views": {"card": {"frame": [0, 0, 10, 10], "alpha": 1}}"#
        func animation(_ body: String) -> String { #"{\#(view), "animations": [\#(body)]}"# }
        var rows = [
            Row("render: zIndex 1.5", #"{"views": {"card": {"alpha": 1, "zIndex": 1.5}}}"#, 422, "/views/card/zIndex"),
            Row("render: zIndex 2^31", #"{"views": {"card": {"alpha": 1, "zIndex": 2147483648}}}"#, 422, "/views/card/zIndex"),
            Row("render: zIndex as text", #"{"views": {"card": {"alpha": 1, "zIndex": "1"}}}"#, 400, "/views/card/zIndex", kind: "wrong-type"),
            Row("render: container of width 0", #"{"container": [0, 0, 0, 10], \#(view)}"#, 422, "/container/2"),
            Row("render: container of three numbers", #"{"container": [0, 0, 10], \#(view)}"#, 422, "/container"),
            Row("render: container beside a preset", #"{"container": [0, 0, 10, 10], "transition": {"preset": "zoomPush", "container": [0, 0, 10, 10]}}"#,
                422, "/container"),
            Row("render: unknown view", animation(#"{"view": "nope", "duration": 1, "to": {"alpha": 0}}"#), 422, "/animations/0/view"),
            Row("render: frame together with center", #"{"views": {"card": {"frame": [0, 0, 1, 1], "center": [0, 0]}}}"#,
                422, "/views/card/center"),
            Row("render: animating center on a frame view", animation(#"{"view": "card", "duration": 1, "to": {"center": [1, 1]}}"#),
                422, "/animations/0/to/center"),
            Row("render: custom channel not given", animation(#"{"view": "card", "duration": 1, "to": {"blur": 3}}"#),
                422, "/animations/0/to/blur"),
            Row("render: keyframe start + duration > 1",
                animation(#"{"view": "card", "duration": 1, "keyframes": [{"start": 0.6, "duration": 0.5, "to": {"alpha": 0}}]}"#),
                422, "/animations/0/keyframes/0/duration"),
            Row("render: negative until", #"{"until": -1, \#(view)}"#, 422, "/until"),
            Row("render: unbounded repeat without until",
                animation(#"{"view": "card", "duration": 1, "to": {"alpha": 0}, "repeatCount": "infinite"}"#),
                422, "/animations/0/repeatCount"),
            Row("render: undamped spring without until",
                animation(#"{"view": "card", "timing": {"type": "spring", "stiffness": 100, "dampingRatio": 0}, "to": {"alpha": 0}}"#),
                422, "/animations/0/timing"),
            Row("render: duration with a physical spring",
                animation(#"{"view": "card", "duration": 1, "timing": {"type": "spring", "stiffness": 100}, "to": {"alpha": 0}}"#),
                422, "/animations/0/duration"),
            Row("render: spring timing with keyframes",
                animation(#"{"view": "card", "duration": 1, "timing": {"type": "spring", "dampingRatio": 0.5}, "keyframes": [{"start": 0, "duration": 1, "to": {"alpha": 0}}]}"#),
                422, "/animations/0/timing"),
            Row("render: missing duration", animation(#"{"view": "card", "to": {"alpha": 0}}"#), 422, "/animations/0/duration"),
            Row("render: duplicate ids", #"{\#(view), "animations": [{"id": "x", "view": "card", "duration": 1, "to": {"alpha": 0}}, {"id": "x", "view": "card", "duration": 1, "to": {"alpha": 1}}]}"#,
                422, "/animations/1/id"),
            Row("render: at with fps", #"{"at": [0], "fps": 30, \#(view)}"#, 422, "/fps"),
            Row("render: decreasing at", #"{"at": [0, 0.5, 0.2], \#(view)}"#, 422, "/at/2"),
            Row("render: frames over the frame limit",
                #"{"until": 3600, "fps": 1000, "views": {"card": {"alpha": 1}}}"#, 413, "/fps", kind: "too-large"),
            // 96,001 frames × (1 + 13 views × 4) numbers = 5.09 million, over 5 million.
            Row("render: frames × channels over the numbers limit",
                #"{"until": 1600, "views": {"# + (0..<13).map { #""v\#($0)": {"frame": [0, 0, 1, 1]}"# }.joined(separator: ",") + "}}",
                413, nil, kind: "too-large"),
            Row("render: wrong channel length", animation(#"{"view": "card", "duration": 1, "to": {"frame": [0, 0, 1]}}"#),
                422, "/animations/0/to/frame"),
            Row("render: alpha outside 0…1", #"{"views": {"card": {"alpha": 7}}}"#, 422, "/views/card/alpha"),
            Row("render: colour component outside 0…1", #"{"views": {"card": {"backgroundColor": [2, 0, 0, 1]}}}"#, 422,
                "/views/card/backgroundColor/0"),
            Row("render: a number beyond 1e15", #"{"views": {"card": {"center": [1e308, 0]}}}"#, 422, "/views/card/center/0"),
            Row("render: repeatCount forever", animation(#"{"view": "card", "duration": 1, "to": {"alpha": 0}, "repeatCount": "forever"}"#),
                422, "/animations/0/repeatCount"),
            Row("render: an animation ending past the duration limit",
                animation(#"{"view": "card", "duration": 3000, "delay": 3000, "to": {"alpha": 0}}"#), 422, "/animations/0/duration"),
            Row("render: a spring settling past the duration limit",
                animation(#"{"view": "card", "timing": {"type": "spring", "damping": 0.001}, "to": {"alpha": 0}}"#), 422,
                "/animations/0/timing"),
            Row("physics: negative mass",
                animation(#"{"view": "card", "to": {"alpha": 0}, "dynamics": {"model": "spring", "mass": -1}}"#), 422,
                "/animations/0/dynamics/mass"),
            Row("physics: zero stiffness",
                animation(#"{"view": "card", "to": {"alpha": 0}, "dynamics": {"model": "spring", "stiffness": 0}}"#), 422,
                "/animations/0/dynamics/stiffness"),
            Row("physics: deceleration 1",
                animation(#"{"view": "card", "channel": "alpha", "dynamics": {"model": "decay", "deceleration": 1}}"#), 422,
                "/animations/0/dynamics/deceleration"),
            Row("physics: deceleration 0",
                animation(#"{"view": "card", "channel": "alpha", "dynamics": {"model": "decay", "deceleration": 0}}"#), 422,
                "/animations/0/dynamics/deceleration"),
            Row("physics: tickRate 0",
                animation(#"{"view": "card", "to": {"alpha": 0}, "dynamics": {"model": "spring", "integrator": "euler", "tickRate": 0}}"#),
                422, "/animations/0/dynamics/tickRate"),
            // A tick longer than the whole timeline never comes: no hang, and the motion never rests.
            Row("physics: a tick rate too slow to tick",
                animation(#"{"view": "card", "to": {"alpha": 0}, "dynamics": {"model": "spring", "integrator": "rk4", "tickRate": 1e-300}}"#),
                422, "/animations/0/dynamics"),
            Row("physics: a decay with a to", animation(#"{"view": "card", "to": {"alpha": 0}, "dynamics": {"model": "decay"}}"#),
                422, "/animations/0/to"),
            Row("physics: a geometry rectangle", animation(#"{"view": "card", "to": {"frame": [0, 0, 1, 1]}, "dynamics": {"model": "spring"}}"#),
                422, "/animations/0/to/frame"),
            Row("physics: duration with dynamics",
                animation(#"{"view": "card", "duration": 1, "to": {"alpha": 0}, "dynamics": {"model": "spring"}}"#), 422,
                "/animations/0/duration"),
            Row("physics: an undamped spring without until",
                animation(#"{"view": "card", "to": {"alpha": 0}, "dynamics": {"model": "spring", "damping": 0}}"#), 422,
                "/animations/0/dynamics"),
        ]
        // Commands, interaction and presets (docs/rules.md "Commands", rules 13–22).
        let block = #"{"id": "a", "view": "card", "duration": 1, "to": {"alpha": 0}}"#
        let pane = #"{"id": "p", "view": "card", "to": {"center": [0, 0]}, "dynamics": {"model": "attachment", "frequency": 2}}"#
        let decay = #"{"id": "d", "view": "card", "channel": "center", "velocity": [0, 100], "dynamics": {"model": "decay"}}"#
        let ball = #""views": {"card": {"center": [0, 100]}}"#
        func commands(_ animations: String, _ list: String, views: String = view) -> String {
            #"{\#(views), "animations": [\#(animations)], "commands": [\#(list)]}"#
        }
        func interaction(_ body: String) -> String { #"{\#(view), "animations": [\#(block)], "interaction": \#(body)}"# }
        rows += [
            Row("command: a drag with times going backwards",
                commands(pane, #"{"at": 0, "animation": "p", "op": "drag", "samples": [[0, 0, 0], [0.2, 0, 5], [0.1, 0, 9]]}"#,
                         views: ball), 422, "/commands/0/samples/2/0"),
            Row("command: a drag sample before the command",
                commands(pane, #"{"at": 1, "animation": "p", "op": "drag", "samples": [[0.5, 0, 0]]}"#, views: ball), 422,
                "/commands/0/samples/0/0"),
            Row("command: retarget on a decay", commands(decay, #"{"at": 0.1, "animation": "d", "op": "retarget", "to": [0, 0]}"#,
                                                         views: ball), 422, "/commands/0/op"),
            Row("command: stop(false) on physics",
                commands(pane, #"{"at": 0.1, "animation": "p", "op": "stop", "withoutFinishing": false}"#, views: ball), 422,
                "/commands/0/withoutFinishing"),
            Row("command: pause on physics", commands(pane, #"{"at": 0.1, "animation": "p", "op": "pause"}"#, views: ball), 422,
                "/commands/0", kind: "illegal-command"),
            Row("command: negative time", commands(block, #"{"at": -0.1, "animation": "a", "op": "pause"}"#), 422, "/commands/0/at"),
            Row("command: unknown op", commands(block, #"{"at": 0.1, "animation": "a", "op": "explode"}"#), 422, "/commands/0/op"),
            Row("command: fraction above 1", commands(block, #"{"at": 0.1, "animation": "a", "op": "fraction", "value": 2}"#), 422,
                "/commands/0/value"),
            Row("command: durationFactor 0",
                commands(block, #"{"at": 0.1, "animation": "a", "op": "pause"}, {"at": 0.2, "animation": "a", "op": "continue", "durationFactor": 0}"#),
                422, "/commands/1/durationFactor"),
            Row("command: fraction on an endless repeat",
                commands(#"{"id": "a", "view": "card", "duration": 1, "to": {"alpha": 0}, "repeatCount": "infinite"}"#,
                         #"{"at": 0.1, "animation": "a", "op": "fraction", "value": 0.5}"#), 422, "/commands/0/op"),
            Row("command: finish while running", commands(block, #"{"at": 0.1, "animation": "a", "op": "finish", "position": "end"}"#),
                422, "/commands/0", kind: "illegal-command"),
            Row("interaction: completionSpeed 0",
                interaction(#"{"animations": ["a"], "updates": [{"at": 0, "percent": 0.1}], "completionSpeed": 0}"#), 422,
                "/interaction/completionSpeed"),
            Row("interaction: a pan without distance",
                interaction(#"{"animations": ["a"], "gesture": {"kind": "pan", "samples": [[0, 0]]}}"#), 422,
                "/interaction/gesture/distance"),
            Row("interaction: a pinch from scale 0",
                interaction(#"{"animations": ["a"], "gesture": {"kind": "pinch", "samples": [[0, 0, 0]]}}"#), 422,
                "/interaction/gesture/samples/0/1"),
            Row("interaction: updates going back in time",
                interaction(#"{"animations": ["a"], "updates": [{"at": 0.5, "percent": 0.1}, {"at": 0.2, "percent": 0.2}]}"#), 422,
                "/interaction/updates/1/at"),
            Row("interaction: an unknown animation", interaction(#"{"animations": ["zz"], "updates": []}"#), 422,
                "/interaction/animations/0"),
            // Work bounds found by review: every one answered before the work, naming the member.
            Row("interaction: steps × animations over the bound",
                #"{"at": [0], \#(view), "animations": ["# + (0..<200).map { #"{"id": "a\#($0)", "view": "card", "duration": 1, "to": {"alpha": 0}}"# }.joined(separator: ",")
                    + #"], "interaction": {"animations": ["# + (0..<200).map { #""a\#($0)""# }.joined(separator: ",")
                    + #"], "gesture": {"kind": "pan", "distance": 100, "samples": ["# + (0..<5001).map { "[\(Double($0) / 100), 1]" }.joined(separator: ",") + "]}}}",
                413, "/interaction", kind: "too-large"),
            Row("command: 1000 added blocks over 6001 frames",
                #"{"until": 100, \#(view), "animations": [\#(block)], "commands": ["#
                    + Array(repeating: #"{"at": 0, "animation": "a", "op": "addAnimations", "to": {"alpha": 0.3}}"#, count: 1000).joined(separator: ",") + "]}",
                413, nil, kind: "too-large"),
            Row("command: a durationFactor too small to run",
                commands(block, #"{"at": 0.5, "animation": "a", "op": "pause"}, {"at": 0.6, "animation": "a", "op": "continue", "durationFactor": 5e-324}"#),
                422, "/commands/1/durationFactor"),
            Row("command: continue with a spring of no finite motion",
                commands(block, #"{"at": 0.5, "animation": "a", "op": "pause"}, {"at": 0.6, "animation": "a", "op": "continue", "timing": {"type": "spring", "mass": 1e-300, "stiffness": 1e300, "damping": 1e-300}}"#),
                422, "/commands/1/timing/mass"),
            Row("command: continue with a spring settling past the limit",
                commands(block, #"{"at": 0.5, "animation": "a", "op": "pause"}, {"at": 0.6, "animation": "a", "op": "continue", "timing": {"type": "spring", "perceptualDuration": 3000, "bounce": 0.99}}"#),
                422, "/commands/1/timing"),
            Row("command: a late start past the duration limit",
                commands(#"{"id": "a", "view": "card", "duration": 3600, "autostart": false, "to": {"alpha": 0}}"#,
                         #"{"at": 3600, "animation": "a", "op": "start", "delay": 3600}"#), 422, "/commands/0"),
            // An undamped semi-implicit Euler spring keeps its energy: 3.6 million ticks an hour at 1 kHz.
            Row("physics: two undamped 1 kHz Euler springs for an hour",
                #"{"until": 3600, "fps": 1, "views": {"card": {"x": 0}}, "animations": ["#
                    + (0..<2).map { #"{"id": "s\#($0)", "view": "card", "to": {"x": 1}, "dynamics": {"model": "spring", "damping": 0, "integrator": "euler", "tickRate": 1000, "restDistance": 0.1}}"# }.joined(separator: ",") + "]}",
                413, "/animations/1/dynamics", kind: "too-large"),
            Row("physics: an exact spring whose rest test never ends",
                #"{"until": 3600, "fps": 1, "views": {"card": {"x": [0, 0, 0, 0]}}, "animations": [{"view": "card", "to": {"x": [1, 1, 1, 1]}, "dynamics": {"model": "spring", "damping": 0.001, "restSpeed": 2000, "restDistance": 1e-9}}]}"#,
                413, "/animations/0/dynamics", kind: "too-large"),
            Row("preset: more pane taps than commands allow",
                #"{"transition": {"preset": "pane", "container": [0, 0, 100, 100], "taps": ["# + (0..<9998).map { "\(Double($0) / 10000)" }.joined(separator: ",") + "]}}",
                422, "/transition/taps"),
        ]
        for i in rows.indices { rows[i].path = "/v1/render" }
        return rows
    }()

    func testEveryRowAnswersItsProblemAndTheServerStaysUp() throws {
        let server = try LiveServer()
        for row in Self.rows {
            let response = try server.request(row.method, row.path, headers: row.headers, body: row.body)
            XCTAssertEqual(response.status, row.status, "\(row.name): \(response.text.prefix(300))")
            XCTAssertEqual(response.header("Content-Type"), "application/problem+json", row.name)
            let problem = response.json
            XCTAssertEqual(problem["status"] as? Int, row.status, row.name)
            XCTAssertEqual(problem["pointer"] as? String, row.pointer, "\(row.name): \(response.text.prefix(300))")
            XCTAssertNotNil(problem["detail"] as? String, row.name)
            if let kind = row.kind {
                XCTAssertEqual(problem["type"] as? String, "https://segue.dev/problems/" + kind, row.name)
            }
            if row.status == 405 {
                XCTAssertEqual(response.header("Allow"), "POST, OPTIONS", row.name)
            }
            if row.name.hasPrefix("tolerance=") {
                XCTAssertEqual(problem["parameter"] as? String, "tolerance", row.name)
            }
            if row.name.hasPrefix("parameter ") {
                let named = row.name.dropFirst("parameter ".count).prefix { $0 != ":" }
                XCTAssertEqual(problem["parameter"] as? String, String(named), row.name)
            }
            let health = try server.request("GET", "/healthz")
            XCTAssertEqual(health.status, 200, "server answers after \(row.name)")
        }
    }

    /// `at` with 10⁶ entries does not fit the default 1 MiB body; with a larger body limit the
    /// samples limit refuses it, before any sampling.
    func testAtWithAMillionEntriesIsRefusedBySizeAndBySampleLimit() throws {
        let body = Array((#"{"timing": "ease", "at": ["# + String(repeating: "1,", count: 999_999) + "1]}").utf8)
        let server = try LiveServer()
        XCTAssertEqual(try server.request("POST", "/v1/curve", body: body).status, 413)

        var configuration = ServiceConfiguration()
        configuration.limits.maxBodyBytes = 4 << 20
        let roomy = try LiveServer(configuration: configuration)
        let response = try roomy.request("POST", "/v1/curve", body: body)
        XCTAssertEqual(response.status, 413)
        XCTAssertEqual(response.json["pointer"] as? String, "/at")
        XCTAssertTrue((response.json["detail"] as? String ?? "").contains("100000"), response.text)
    }

    /// A chunked upload has no declared length: it is counted while it arrives, drained, and
    /// answered 413.
    func testChunkedBodyOverTheLimitIs413() throws {
        var configuration = ServiceConfiguration()
        configuration.limits.maxBodyBytes = 1000
        let server = try LiveServer(configuration: configuration)
        let chunk = String(repeating: " ", count: 600)
        var raw = "POST /v1/curve HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
        for _ in 0..<3 { raw += String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n" }
        raw += "0\r\n\r\n"
        let response = try server.send(Array(raw.utf8))
        XCTAssertEqual(response.status, 413)
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200)
    }
}
