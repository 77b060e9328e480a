import SegueEngine
import SegueJSON

/// Samples a decoded render and writes it (API.md §4 "Response"): columnar JSON — one array
/// per view channel, one value per frame — or CSV with one row per frame. Both are
/// `SectionedBody`s, sampled while they are written, so a large render can stream.
///
/// A value that is not finite is a 422 naming the channel (API.md §1), found while writing.
public struct RenderResponse: Sendable {
    public let request: RenderRequest
    /// Adds `"expanded"`: the request after preset expansion (`?expand=true`, API.md §6 rule 25).
    public let includesExpanded: Bool

    public init(_ request: RenderRequest, expanded: Bool = false) {
        self.request = request
        includesExpanded = expanded
    }

    /// Bytes per number, for size estimates.
    static let bytesPerNumber = 19

    public func json() -> SectionedBody {
        let r = request
        let frames = r.times.count
        var sections: [SectionedBody.Section] = []
        var head = JSONWriter()
        head.raw("{")
        head.key("fps", first: true)
        if let fps = r.fps { head.number(fps) } else { head.raw("null") }
        head.key("duration"); head.number(r.end)
        head.key("frameCount"); head.integer(Int64(frames))
        head.key("t"); head.raw("[")
        sections.append(array(prefix: head.bytes, suffix: Array("],\"views\":{".utf8)) { w, k in w.number(r.times[k]) })
        appendChannels(to: &sections) { output, t in output.track.value(at: t).numbers }
        if r.velocities {
            sections.append(.init(prefix: Array("},\"velocity\":{".utf8)))
            appendChannels(to: &sections) { output, t in output.track.velocity(at: t) }
        }
        var middle = JSONWriter()
        middle.raw("},\"events\":[")
        for (i, event) in events.enumerated() {
            if i > 0 { middle.byte(0x2C) }
            middle.raw("{")
            middle.key("t", first: true); middle.number(event.event.t)
            middle.key("animation"); middle.string(r.animators[event.animation].id)
            middle.key("type"); middle.string(event.event.kind.rawValue)
            if let command = event.event.command {
                middle.key("command"); middle.integer(Int64(command))
            }
            if let position = event.event.position {
                middle.key("position"); middle.string(position.rawValue)
            }
            if let flag = event.event.withoutFinishing {
                middle.key("withoutFinishing"); middle.raw(flag ? "true" : "false")
            }
            if let flag = event.event.reversed {
                middle.key("reversed"); middle.raw(flag ? "true" : "false")
            }
            middle.raw("}")
        }
        middle.raw("],\"animators\":{")
        sections.append(.init(prefix: middle.bytes))
        for (i, named) in r.animators.enumerated() {
            var open = JSONWriter()
            if i > 0 { open.byte(0x2C) }
            open.string(named.id)
            switch named.timeline {
            case .property(let animator):
                open.raw(":{\"fraction\":[")
                sections.append(array(prefix: open.bytes, suffix: Array("],\"state\":[".utf8)) { w, k in
                    w.number(animator.fraction(at: r.times[k]))
                })
                sections.append(array(prefix: [], suffix: Array("],\"reversed\":[".utf8)) { w, k in
                    w.string(animator.state(at: r.times[k]).rawValue)
                })
                sections.append(array(prefix: [], suffix: Array("]}".utf8)) { w, k in
                    w.raw(animator.reversed(at: r.times[k]) ? "true" : "false")
                })
            case .physics(let chain):
                // Physics animations have no time fraction (§6 rule 18); moving is running.
                open.raw(":{\"fraction\":null,\"state\":[")
                sections.append(.init(prefix: open.bytes))
                sections.append(array(prefix: [], suffix: Array("],\"reversed\":[".utf8)) { w, k in
                    w.string(chain?.isRunning(at: r.times[k]) == true ? "running" : "inactive")
                })
                sections.append(array(prefix: [], suffix: Array("]}".utf8)) { w, _ in w.raw("false") })
            }
        }
        var tail = JSONWriter()
        tail.raw("}")
        tail.key("warnings")
        tail.value(.array(r.warnings.map(\.json)))
        if includesExpanded {
            tail.key("expanded")
            tail.value(r.expanded)
        }
        tail.raw("}")
        sections.append(.init(prefix: tail.bytes))
        let width = r.outputs.reduce(0) { $0 + $1.kind.width } * (r.velocities ? 2 : 1)
        return SectionedBody(sections: sections,
                             estimatedBytes: frames * ((1 + width) * Self.bytesPerNumber + r.animators.count * 30))
    }

    /// `t` and one column per channel component (`card.frame.x`, `card.transform.tx`, …).
    public func csv() -> SectionedBody {
        let r = request
        var header = JSONWriter()
        header.raw("t")
        for output in r.outputs {
            for suffix in output.kind.columns(for: output.channel) {
                header.byte(0x2C)
                header.write(Self.csvField(output.view + "." + output.channel + suffix))
            }
        }
        header.byte(0x0A)
        let rows = SectionedBody.Section(prefix: header.bytes, count: r.times.count) { w, k throws(Problem) in
            let t = r.times[k]
            w.number(t)
            for output in r.outputs {
                for number in try Self.finite(output.track.value(at: t).numbers, output, t) {
                    w.byte(0x2C)
                    w.number(number)
                }
            }
            w.byte(0x0A)
        }
        let width = r.outputs.reduce(0) { $0 + $1.kind.width }
        return SectionedBody(sections: [rows], estimatedBytes: r.times.count * (1 + width) * Self.bytesPerNumber)
    }

    /// Every state change, at its exact time, in the order it took effect (API.md §6 rules 1,
    /// 18): by time; at one time the initial states, then command-caused changes in command
    /// order, then completions, then interaction releases; ties by animation index.
    public var events: [(animation: Int, event: AnimatorEvent)] {
        var all: [(animation: Int, event: AnimatorEvent, rank: Int)] = []
        for (index, named) in request.animators.enumerated() {
            let events: [AnimatorEvent]
            switch named.timeline {
            case .property(let animator): events = animator.events
            case .physics(let chain): events = chain?.events ?? []
            }
            var previous: (t: Double, rank: Int)?
            for (k, event) in events.enumerated() {
                var rank: Int
                if event.kind == .interactionFinish || event.kind == .interactionCancel || event.kind == .release {
                    rank = Int.max  // releases, of an interaction or of a drag, come last (rule 1)
                } else if let command = event.command {
                    rank = 1 + command
                } else if k == 0 && (event.kind == .start || event.kind == .pause) {
                    rank = 0  // autostart or an interaction's initial pause
                } else {
                    rank = Int.max - 1
                }
                // What one animator did at one instant stays in its order (a release that
                // completes at once, a command's start then retarget).
                if let previous, previous.t == event.t { rank = max(rank, previous.rank) }
                previous = (event.t, rank)
                all.append((index, event, rank))
            }
        }
        // A stable sort keeps each animator's own order and the animation index for ties.
        let ordered = all.enumerated().sorted { a, b in
            (a.element.event.t, a.element.rank, a.offset) < (b.element.event.t, b.element.rank, b.offset)
        }
        return ordered.map { ($0.element.animation, $0.element.event) }
    }

    /// A comma-separated array section over the frames.
    private func array(prefix: [UInt8], suffix: [UInt8],
                       _ element: @escaping @Sendable (inout JSONWriter, Int) throws(Problem) -> Void) -> SectionedBody.Section {
        SectionedBody.Section(prefix: prefix, count: request.times.count, suffix: suffix) { w, k throws(Problem) in
            if k > 0 { w.byte(0x2C) }
            try element(&w, k)
        }
    }

    /// `"view":{"channel":[…],…},…` for every output, values from `sample`.
    private func appendChannels(to sections: inout [SectionedBody.Section],
                                _ sample: @escaping @Sendable (RenderRequest.Output, Double) -> [Double]) {
        let times = request.times
        var previousView: String?
        for output in request.outputs {
            var open = JSONWriter()
            if let previousView {
                if previousView != output.view { open.raw("},") } else { open.byte(0x2C) }
            }
            if previousView != output.view {
                open.string(output.view)
                open.raw(":{")
            }
            previousView = output.view
            open.string(output.channel)
            open.raw(":[")
            let scalar = output.kind == .scalar
            sections.append(array(prefix: open.bytes, suffix: [0x5D]) { w, k throws(Problem) in
                let numbers = try Self.finite(sample(output, times[k]), output, times[k])
                if scalar { w.number(numbers.first ?? 0) } else { w.numbers(numbers) }
            })
        }
        if previousView != nil { sections.append(.init(prefix: [0x7D])) }
        // An empty `views` still closes: the caller's next prefix starts with "}".
        if previousView == nil { sections.append(.init(prefix: [])) }
    }

    static func finite(_ numbers: [Double], _ output: RenderRequest.Output, _ t: Double) throws(Problem) -> [Double] {
        for number in numbers where !number.isFinite {
            throw Problem.invalid("`\(output.view).\(output.channel)` has no finite value at t = \(t)",
                                  at: JSONPointer(["views", output.view, output.channel]))
        }
        return numbers
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
