import SegueEngine
import SegueJSON

/// A compiled render sampled once and written (docs/rules.md "The render route"): columnar JSON —
/// one array per view channel, one value per frame — or CSV with one row per frame. Both are
/// `SectionedBody`s written from the samples, so a large render streams without evaluating the
/// scene again.
///
/// A value that is not finite is a 422 naming the channel ("Conventions"), found while sampling,
/// before anything is written.
public struct RenderResponse: Sendable {
    public let request: RenderRequest
    /// Adds `"expanded"`: the request after preset expansion (`?expand=true`, rule 25).
    public let includesExpanded: Bool
    /// Every number the body prints, sampled at the request's times.
    public let samples: SceneSamples

    /// Samples the render (velocities when asked), stopping with a 503 once the request's
    /// cancellation is raised.
    public init(_ request: RenderRequest, expanded: Bool = false) throws(Problem) {
        self.request = request
        includesExpanded = expanded
        samples = try Self.problem(request) { () throws(SceneError) in
            try SceneSamples(request.scene, at: request.times, velocities: request.velocities,
                             cancellation: request.cancellation)
        }
    }

    /// Bytes per number, for size estimates.
    static let bytesPerNumber = 19

    public func json() -> SectionedBody {
        let r = request
        let frames = r.times.count
        var sections: [SectionedBody.Section] = []
        var head = TextWriter()
        head.raw("{")
        head.key("fps", first: true)
        if let fps = r.fps { head.number(fps) } else { head.raw("null") }
        head.key("duration"); head.number(r.scene.end)
        head.key("frameCount"); head.integer(Int64(frames))
        head.key("t"); head.raw("[")
        sections.append(.init(prefix: head.bytes, column: r.times, suffix: Array("],\"views\":{".utf8)))
        appendChannels(samples.values, to: &sections)
        if r.velocities {
            sections.append(.init(prefix: Array("},\"velocity\":{".utf8)))
            appendChannels(samples.velocities, to: &sections)
        }
        var middle = TextWriter()
        middle.raw("}")
        writeStackingAndEvents(to: &middle)
        middle.raw("],\"animators\":{")
        sections.append(.init(prefix: middle.bytes))
        for (i, animator) in r.scene.animators.enumerated() {
            let reports = samples.animators[i]
            var open = TextWriter()
            if i > 0 { open.byte(0x2C) }
            open.string(animator.id)
            if animator.isPhysics {
                // Physics animations have no time fraction (rule 18); moving is running. A scroll
                // deceleration adds its projected resting value (docs/springs.md "Scroll deceleration").
                open.raw(":{\"fraction\":null,")
                if let projection = animator.projection?.first {
                    open.raw("\"projection\":")
                    if projection.isFinite { open.number(projection) } else { open.raw("null") }
                    open.raw(",")
                }
                open.raw("\"state\":[")
                sections.append(.init(prefix: open.bytes))
            } else {
                open.raw(":{\"fraction\":[")
                sections.append(.init(prefix: open.bytes, column: reports.fractions, suffix: Array("],\"state\":[".utf8)))
            }
            sections.append(array(prefix: [], suffix: Array("],\"reversed\":[".utf8)) { w, k in
                w.string(reports.states[k].rawValue)
            })
            sections.append(array(prefix: [], suffix: Array("]}".utf8)) { w, k in
                w.raw(reports.reversed[k] ? "true" : "false")
            })
        }
        var tail = TextWriter()
        tail.raw("}")
        tail.key("warnings")
        tail.value(.array(r.warnings.map(\.json)))
        if includesExpanded {
            tail.key("expanded")
            tail.value(r.expanded)
        }
        tail.raw("}")
        sections.append(.init(prefix: tail.bytes))
        let width = r.scene.channels.reduce(0) { $0 + $1.kind.width } * (r.velocities ? 2 : 1)
        var body = SectionedBody(sections: sections,
                                 estimatedBytes: frames * ((1 + width) * Self.bytesPerNumber + r.scene.animators.count * 30),
                                 retainedBytes: samples.retainedBytes)
        body.cancellation = r.cancellation
        return body
    }

    /// `"stacking"` (rule 40) and the `"events"` array without its closing bracket: every state change
    /// at its exact time, with what the event carries.
    private func writeStackingAndEvents(to w: inout TextWriter) {
        w.key("stacking")
        w.value(.array(request.scene.stacking.map(JSONValue.string)))
        w.raw(",\"events\":[")
        for (i, event) in request.scene.events.enumerated() {
            if i > 0 { w.byte(0x2C) }
            w.raw("{")
            w.key("t", first: true); w.number(event.event.t)
            w.key("animation"); w.string(request.scene.animators[event.animation].id)
            w.key("type"); w.string(event.event.kind.rawValue)
            if let command = event.event.command {
                w.key("command"); w.integer(Int64(command))
            }
            if let position = event.event.position {
                w.key("position"); w.string(position.rawValue)
            }
            if let flag = event.event.withoutFinishing {
                w.key("withoutFinishing"); w.raw(flag ? "true" : "false")
            }
            if let flag = event.event.reversed {
                w.key("reversed"); w.raw(flag ? "true" : "false")
            }
            w.raw("}")
        }
    }

    /// `t` and one column per channel component (`card.frame.x`, `card.transform.tx`, …).
    public func csv() -> SectionedBody {
        let r = request
        var header = TextWriter()
        header.raw("t")
        for channel in r.scene.channels {
            for suffix in channel.kind.columns(for: channel.name) {
                header.byte(0x2C)
                header.write(Self.csvField(channel.view + "." + channel.name + suffix))
            }
        }
        header.byte(0x0A)
        let samples = samples
        let rows = SectionedBody.Section(prefix: header.bytes, count: r.times.count) { w, k in
            w.number(samples.times[k])
            for column in samples.values {
                for number in column.frame(k) {
                    w.byte(0x2C)
                    w.number(number)
                }
            }
            w.byte(0x0A)
        }
        let width = r.scene.channels.reduce(0) { $0 + $1.kind.width }
        var body = SectionedBody(sections: [rows], estimatedBytes: r.times.count * (1 + width) * Self.bytesPerNumber,
                                 retainedBytes: samples.retainedBytes)
        body.cancellation = r.cancellation
        return body
    }

    /// A comma-separated array section over the frames.
    private func array(prefix: [UInt8], suffix: [UInt8],
                       _ element: @escaping @Sendable (inout TextWriter, Int) -> Void) -> SectionedBody.Section {
        SectionedBody.Section(prefix: prefix, count: request.times.count, suffix: suffix) { w, k in
            if k > 0 { w.byte(0x2C) }
            element(&w, k)
        }
    }

    /// `"view":{"channel":[…],…},…` for every channel, numbers from `columns` (one per channel):
    /// a number per frame for a scalar channel, an array per frame for the others.
    private func appendChannels(_ columns: [SceneSamples.Column], to sections: inout [SectionedBody.Section]) {
        var previousView: String?
        for (output, column) in zip(request.scene.channels, columns) {
            var open = TextWriter()
            if let previousView {
                if previousView != output.view { open.raw("},") } else { open.byte(0x2C) }
            }
            if previousView != output.view {
                open.string(output.view)
                open.raw(":{")
            }
            previousView = output.view
            open.string(output.name)
            open.raw(":[")
            sections.append(output.kind == .scalar
                ? .init(prefix: open.bytes, column: column.numbers, suffix: [0x5D])
                : .init(prefix: open.bytes, arrays: column.numbers, width: column.width, suffix: [0x5D]))
        }
        if previousView != nil { sections.append(.init(prefix: [0x7D])) }
        // An empty `views` still closes: the caller's next prefix starts with "}".
        if previousView == nil { sections.append(.init(prefix: [])) }
    }

    /// Runs a sampling step, a non-finite value becoming its 422.
    static func problem<T>(_ r: RenderRequest, _ step: () throws(SceneError) -> T) throws(Problem) -> T {
        do throws(SceneError) {
            return try step()
        } catch {
            throw Problem(error, ids: r.scene.animators.map(\.id))
        }
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
