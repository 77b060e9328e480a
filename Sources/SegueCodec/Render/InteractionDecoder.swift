import SegueEngine
import SegueJSON

/// `interaction` (docs/rules.md "Interaction", rule 19): the driven animations, the completion's
/// speed and curve, and the percent either from `updates` + `end` or from a `gesture` log that
/// the engine replays (`Interaction.init(animations:gesture:…)`).
enum InteractionDecoder {
    static func decode(_ json: JSONValue, animations specs: [SceneSpec.Animation], byID: [String: Int],
                       limits: Limits) throws(Problem) -> Interaction {
        let p = JSONPointer.root / "interaction"
        var object = try ObjectReader(json, at: p)
        let driven = try drivenAnimations(&object, specs: specs, byID: byID)
        let speed = try object.number("completionSpeed") ?? Interaction.completionSpeed
        try Check.positive(speed, p / "completionSpeed")
        let longest = driven.compactMap { specs[$0].timing?.activeDuration }.max() ?? 0
        guard longest / speed <= limits.maxDuration else {
            throw Problem.invalid("`completionSpeed` \(speed) stretches the completion beyond the limit of \(limits.maxDuration) s",
                                  at: p / "completionSpeed")
        }
        var curve = Interaction.completionCurve
        if let value = object.value("completionCurve") {
            let spec = try TimingDecoder.decode(value, at: p / "completionCurve")
            guard let fractionCurve = spec.fractionCurve else {
                throw Problem.invalid("`completionCurve` is a time-fraction curve, not a spring", at: p / "completionCurve")
            }
            curve = fractionCurve
        }

        let interaction: Interaction
        let hasUpdates = object.has("updates") || object.has("end")
        if let gesture = object.value("gesture") {
            guard !hasUpdates else {
                throw Problem.invalid("give `gesture` or `updates` and `end`, not both", at: p / "gesture")
            }
            interaction = Interaction(animations: driven, gesture: try self.gesture(gesture, at: p / "gesture", limits: limits),
                                      completionSpeed: speed, completionCurve: curve)
        } else {
            let (updates, release) = try self.updates(&object, limits: limits)
            interaction = Interaction(animations: driven, updates: updates, release: release, completionSpeed: speed,
                                      completionCurve: curve)
        }
        try object.rejectUnknown()
        // Each step is replayed by every driven animator: bound the product.
        guard Double(interaction.updates.count) * Double(driven.count) <= Double(limits.maxSamples) * 10 else {
            throw Problem.tooLarge("\(interaction.updates.count) interaction steps × \(driven.count) animations are over the "
                                   + "limit of \(limits.maxSamples * 10) animator steps", at: p)
        }
        return interaction
    }

    /// `animations`: ids of block animations with a bounded run, each listed once.
    private static func drivenAnimations(_ object: inout ObjectReader, specs: [SceneSpec.Animation],
                                         byID: [String: Int]) throws(Problem) -> [Int] {
        let p = object.pointer
        guard let ids = try object.array("animations"), !ids.isEmpty else {
            throw Problem.invalid("`animations` lists the ids the interaction drives", at: p / "animations")
        }
        var driven: [Int] = []
        for (i, value) in ids.enumerated() {
            guard case .string(let id) = value else { throw Problem.wrongType(at: p / "animations" / i, expected: "a string", found: value) }
            guard let index = byID[id] else {
                throw Problem.invalid(Vocabulary.unknown("animation", id, known: specs.map(\.id), listing: "the animations are",
                                                       listedAtMost: Vocabulary.requestNamesListed),
                                      at: p / "animations" / i)
            }
            guard let timing = specs[index].timing else {
                throw Problem.invalid("a physics animation follows its forces, not a percent: use `drag`", at: p / "animations" / i)
            }
            guard timing.activeDuration.isFinite else {
                throw Problem.invalid("an animation that repeats forever has no fraction complete to drive",
                                      at: p / "animations" / i)
            }
            guard !driven.contains(index) else {
                throw Problem.invalid("animation `\(id.prefix(100))` is listed twice", at: p / "animations" / i)
            }
            driven.append(index)
        }
        return driven
    }

    /// `updates: [{"at", "percent"}]` (times non-decreasing) and `end: {"at", "action"}`.
    private static func updates(_ object: inout ObjectReader,
                                limits: Limits) throws(Problem) -> ([Interaction.Update], Interaction.Release?) {
        let p = object.pointer
        let entries = try object.array("updates") ?? []
        guard entries.count <= limits.maxSamples else {
            throw Problem.invalid("\(entries.count) updates are over the limit of \(limits.maxSamples)", at: p / "updates")
        }
        var updates: [Interaction.Update] = []
        for (i, entry) in entries.enumerated() {
            var update = try ObjectReader(entry, at: p / "updates" / i)
            let at = try update.requiredNumber("at", "in every update")
            let percent = try update.requiredNumber("percent", "in every update")
            try update.rejectUnknown()
            try checkTime(at, after: updates.last?.at, limits: limits, p / "updates" / i / "at")
            try Check.within(percent, 0...1, p / "updates" / i / "percent")
            updates.append(Interaction.Update(at: at, percent: percent))
        }
        guard let value = object.value("end") else { return (updates, nil) }
        var end = try ObjectReader(value, at: p / "end")
        let at = try end.requiredNumber("at", "in `end`")
        let action = try end.string("action") ?? "finish"
        try end.rejectUnknown()
        try checkTime(at, after: updates.last?.at, limits: limits, p / "end" / "at")
        guard action == "finish" || action == "cancel" else {
            throw Problem.invalid("`action` is finish or cancel, not `\(action.prefix(50))`", at: p / "end" / "action")
        }
        return (updates, Interaction.Release(at: at, finishes: action == "finish"))
    }

    /// A `gesture` log: `{"kind": "pan", "distance", "threshold"?, "samples": [[t, translation]]}`
    /// or `{"kind": "pinch", "samples": [[t, scale, velocity]]}`, times non-decreasing.
    private static func gesture(_ json: JSONValue, at p: JSONPointer, limits: Limits) throws(Problem) -> Interaction.Gesture {
        var gesture = try ObjectReader(json, at: p)
        guard let kind = try gesture.string("kind") else { throw Problem.invalid("`kind` is pan or pinch", at: p / "kind") }
        guard kind == "pan" || kind == "pinch" else {
            throw Problem.invalid("unknown gesture `\(kind.prefix(50))`; expected pan or pinch", at: p / "kind")
        }
        var distance = 0.0, threshold = Interaction.panThreshold
        if kind == "pan" {
            distance = try gesture.requiredNumber("distance", "for a pan (points to a complete transition)")
            try Check.positive(distance, p / "distance")
            threshold = try gesture.number("threshold") ?? Interaction.panThreshold
            try Check.within(threshold, 0...1, p / "threshold")
        }
        guard let samples = try gesture.array("samples"), !samples.isEmpty else {
            throw Problem.invalid("`samples` is required and not empty", at: p / "samples")
        }
        guard samples.count <= limits.maxSamples else {
            throw Problem.invalid("\(samples.count) samples are over the limit of \(limits.maxSamples)", at: p / "samples")
        }
        try gesture.rejectUnknown()
        let rows = try gestureSamples(samples, width: kind == "pan" ? 2 : 3, at: p / "samples", limits: limits)
        if kind == "pan" {
            return .pan(distance: distance, threshold: threshold, samples: rows.map { ($0[0], $0[1]) })
        }
        return .pinch(samples: rows.map { ($0[0], $0[1], $0[2]) })
    }

    /// The gesture's sample rows, each `width` numbers: a time in order, then values within
    /// ±`ChannelDecoder.maxMagnitude` (a pinch's scale ≥ 0, its first scale > 0). The caller has
    /// checked their count. The `swipeUpDismiss` preset reads its pan log with it too.
    static func gestureSamples(_ samples: [JSONValue], width: Int, at p: JSONPointer,
                               limits: Limits) throws(Problem) -> [[Double]] {
        let bound = ChannelDecoder.maxMagnitude
        var rows: [[Double]] = []
        for (i, sample) in samples.enumerated() {
            let numbers = try ChannelDecoder.numberArray(sample, at: p / i)
            guard numbers.count == width else {
                throw Problem.invalid(width == 2 ? "a pan sample is [t, translation]" : "a pinch sample is [t, scale, velocity]",
                                      at: p / i)
            }
            try checkTime(numbers[0], after: rows.last?[0], limits: limits, p / i / 0)
            if width == 2 {
                try Check.within(numbers[1], -bound...bound, p / i / 1)
            } else {
                try Check.within(numbers[1], 0...bound, p / i / 1)
                try Check.within(numbers[2], -bound...bound, p / i / 2)
                if i == 0 { try Check.positive(numbers[1], p / 0 / 1) }
            }
            rows.append(numbers)
        }
        return rows
    }

    private static func checkTime(_ t: Double, after previous: Double?, limits: Limits, _ pointer: JSONPointer) throws(Problem) {
        guard t >= 0, t <= limits.maxDuration else {
            throw Problem.invalid("times must be in [0, \(limits.maxDuration)] s, not \(t)", at: pointer)
        }
        if let previous, t < previous {
            throw Problem.invalid("times must not decrease: \(t) follows \(previous)", at: pointer)
        }
    }
}
