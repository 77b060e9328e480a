import SegueJSON

/// One parameter of a preset: how it is read and checked, its default, and what it means. The
/// catalogue entry `{"default", "description"}` is written from it: the description is the
/// summary, the kind's rule (with its range) and, for a computed default, the formula.
struct PresetParameter: Sendable {
    enum Default: Sendable {
        /// Used when the parameter is absent or `null`; read and checked like a given value.
        case value(JSONValue)
        /// Computed from the container and the parameters read before this one; the catalogue
        /// lists `null` and gives the formula, and `why` says what it amounts to.
        case computed(Template, why: String?)
    }

    let name: String
    let kind: ParameterKind
    let byDefault: Default
    /// What the parameter means.
    let summary: String

    init(_ name: String, _ kind: ParameterKind, default byDefault: Default, _ summary: String = "") {
        self.name = name
        self.kind = kind
        self.byDefault = byDefault
        self.summary = summary
    }

    init(_ name: String, _ kind: ParameterKind, default value: JSONValue, _ summary: String = "") {
        self.init(name, kind, default: .value(value), summary)
    }

    /// The catalogue's `default`: `null` when computed.
    var catalogueDefault: JSONValue {
        switch byDefault {
        case .value(let value): value
        case .computed: .null
        }
    }

    /// The catalogue's `description`.
    var description: String {
        var parts = [summary, kind.rule].filter { !$0.isEmpty }
        if case .computed(let template, let why) = byDefault {
            parts.append("null: " + template.notation + (why.map { ", " + $0 } ?? ""))
        }
        return parts.joined(separator: "; ")
    }
}

/// How a parameter is read: its JSON shape, the rules its numbers follow, and the form it takes
/// in the expansion. `PresetReading` checks a value by its kind; `rule` states the same checks,
/// with the same `NumberRange` values, for the catalogue.
enum ParameterKind: Sendable {
    /// Where a timing may be a spring.
    enum SpringUse: Sendable {
        /// Only the UIKit spring (`dampingRatio`), the one set that runs for a given duration.
        case dampingRatioOnly
        /// None: keyframe timings and completion curves take no spring (rules 11, 19).
        case none
    }

    /// A number within the range.
    case number(NumberRange)
    /// A timing (docs/rules.md "Timing curves"), passed through as given.
    case timing(springs: SpringUse)
    /// A colour [r, g, b, a].
    case color
    /// A point [x, y], or a number y with x the container's mid x.
    case position
    /// A pan gesture's log [[t, translation], …], read by the pan gesture's own rules.
    case panLog
    /// A drag's finger log [[t, y], …] or [[t, x, y], …]; the two-number form takes x from the
    /// point parameter `x`. In the expansion, always [[t, x, y], …].
    case dragLog(x: String)
    /// Times on the timeline, one command each.
    case times

    /// What the catalogue states about a value of this kind: its shape and ranges.
    var rule: String {
        let time = NumberRange.time.text ?? "", channel = NumberRange.channel.text ?? ""
        let samples = "at most the sample limit (\(Limits().maxSamples) by default)"
        switch self {
        case .number(let range):
            return range.text ?? ""
        case .timing(springs: .dampingRatioOnly):
            return "a timing name, CSS text or timing object; a spring only with `dampingRatio` (the UIKit spring, which takes a "
                + "duration)"
        case .timing(springs: .none):
            return "a timing name, CSS text or timing object, not a spring"
        case .color:
            return "[r, g, b, a], each component \(NumberRange.unit.text ?? "")"
        case .position:
            return "a point [x, y] or a number y (x then the container's mid x), each number \(channel)"
        case .panLog:
            return "[[t, translation], …], as the pan gesture takes it: at least one sample, \(samples), times \(time) and never "
                + "decreasing, translations \(channel)"
        case .dragLog(let x):
            return "[[t, y], …] (x then \(x)'s x) or [[t, x, y], …]: none ([]) or at least two samples, \(samples), times \(time) "
                + "and strictly increasing, values \(channel)"
        case .times:
            return "times \(time), never decreasing"
        }
    }
}

/// Reads a preset's parameters in catalogue order into the environment its templates are
/// evaluated in: each given value checked (a 422 or 400 at `/transition/<name>` or inside it),
/// each absent one at its default.
struct PresetReading {
    var object: ObjectReader
    let limits: Limits
    /// How many animations and commands the preset produces besides one command per time of a
    /// `times` parameter: what is left of the limit bounds the number of times.
    let fixedItems: Int
    var environment: PresetEnvironment

    var pointer: JSONPointer { object.pointer }

    mutating func read(_ parameter: PresetParameter) throws(Problem) {
        let value: JSONValue
        switch (object.value(parameter.name), parameter.byDefault) {
        case (let given?, _), (nil, .value(let given)):
            value = try read(given, as: parameter.kind, at: pointer / parameter.name)
        case (nil, .computed(let template, _)):
            value = template.value(environment)
        }
        environment.parameters[parameter.name] = value
    }

    /// The value as the expansion holds it.
    func read(_ value: JSONValue, as kind: ParameterKind, at p: JSONPointer) throws(Problem) -> JSONValue {
        switch kind {
        case .number(let range):
            guard case .number(let number) = value else { throw Problem.wrongType(at: p, expected: "a number", found: value) }
            try range.check(number, limits: limits, container: environment.container, p)
            return value
        case .timing(let springs):
            return try timing(value, springs: springs, at: p)
        case .color:
            return try color(value, at: p)
        case .position:
            return try position(value, at: p)
        case .panLog:
            return try panLog(value, at: p)
        case .dragLog(let x):
            return try dragLog(value, x: environment.number(x, component: 0), at: p)
        case .times:
            return try times(value, at: p)
        }
    }

    /// A timing as given (checked by the timing decoder, docs/rules.md "Timing curves"). Springs
    /// other than the UIKit `dampingRatio` set run for their settling duration and cannot take the
    /// preset's duration (rule 7).
    func timing(_ value: JSONValue, springs: ParameterKind.SpringUse, at p: JSONPointer) throws(Problem) -> JSONValue {
        if case .spring(let spring) = try TimingDecoder.decode(value, at: p) {
            guard springs == .dampingRatioOnly else { throw Problem.invalid("\(p.display) cannot be a spring here", at: p) }
            guard spring.takesDuration else {
                throw Problem.invalid("\(p.display) runs for the preset's duration: only the UIKit spring (dampingRatio) takes one",
                                      at: p)
            }
        }
        return value
    }

    func color(_ value: JSONValue, at p: JSONPointer) throws(Problem) -> JSONValue {
        let elements = try array(value, at: p)
        guard elements.count == 4 else { throw Problem.invalid("a colour is [r, g, b, a], not \(elements.count) numbers", at: p) }
        for (i, element) in elements.enumerated() {
            guard case .number(let component) = element else { throw Problem.wrongType(at: p / i, expected: "a number", found: element) }
            try NumberRange.unit.check(component, limits: limits, p / i)
        }
        return value
    }

    func position(_ value: JSONValue, at p: JSONPointer) throws(Problem) -> JSONValue {
        switch value {
        case .number(let y):
            try NumberRange.channel.check(y, limits: limits, p)
            return .array([.number(Quantity.midX.value(environment)), .number(y)])
        case .array:
            let (x, y) = try Check.pair(value, p)
            try NumberRange.channel.check(x, limits: limits, p / 0)
            try NumberRange.channel.check(y, limits: limits, p / 1)
            return .array([.number(x), .number(y)])
        default:
            throw Problem.wrongType(at: p, expected: "a point [x, y] or a number y", found: value)
        }
    }

    /// A pan log, taken exactly as the pan gesture takes it (docs/rules.md "Interaction").
    func panLog(_ value: JSONValue, at p: JSONPointer) throws(Problem) -> JSONValue {
        let elements = try array(value, at: p)
        guard !elements.isEmpty else { throw Problem.invalid("\(p.display) needs at least one [t, translation]", at: p) }
        guard elements.count <= limits.maxSamples else {
            throw Problem.invalid("\(elements.count) samples are over the limit of \(limits.maxSamples)", at: p)
        }
        _ = try InteractionDecoder.gestureSamples(elements, width: 2, at: p, limits: limits)
        return value
    }

    func dragLog(_ value: JSONValue, x: Double, at p: JSONPointer) throws(Problem) -> JSONValue {
        let rows = try DragLog.read(try array(value, at: p), at: p, limits: limits)
        guard rows.isEmpty || rows.count >= 2 else {
            throw Problem.invalid("a drag needs at least two samples (or [] for none)", at: p)
        }
        return .array(rows.map { row in .array((row.count == 2 ? [row[0], x, row[1]] : row).map(JSONValue.number)) })
    }

    func times(_ value: JSONValue, at p: JSONPointer) throws(Problem) -> JSONValue {
        let elements = try array(value, at: p)
        var previous = 0.0
        for (i, element) in elements.enumerated() {
            guard case .number(let t) = element else { throw Problem.wrongType(at: p / i, expected: "a number", found: element) }
            try NumberRange.time.check(t, limits: limits, p / i)
            guard t >= previous else { throw Problem.invalid("\(p.display) must not decrease", at: p / i) }
            previous = t
        }
        guard elements.count + fixedItems <= limits.maxAnimations else {
            throw Problem.invalid("\(elements.count) commands of \(p.display) and the preset's \(fixedItems) animations and commands "
                                  + "are over the limit of \(limits.maxAnimations)", at: p)
        }
        return value
    }

    func array(_ value: JSONValue, at p: JSONPointer) throws(Problem) -> [JSONValue] {
        guard case .array(let elements) = value else { throw Problem.wrongType(at: p, expected: "an array", found: value) }
        return elements
    }
}

/// A drag's finger log `[[t, v…], …]` (docs/rules.md rule 22): rows of one width, two or three
/// numbers; times strictly increasing on the timeline; values within the channel bound; at most
/// the sample limit.
enum DragLog {
    static func read(_ elements: [JSONValue], at pointer: JSONPointer, limits: Limits) throws(Problem) -> [[Double]] {
        guard elements.count <= limits.maxSamples else {
            throw Problem.invalid("\(elements.count) samples are over the limit of \(limits.maxSamples)", at: pointer)
        }
        var rows: [[Double]] = []
        for (i, element) in elements.enumerated() {
            let at = pointer / i
            guard case .array(let entries) = element else {
                throw Problem.wrongType(at: at, expected: "an array [t, y] or [t, x, y]", found: element)
            }
            guard entries.count == 2 || entries.count == 3, rows.first.map({ $0.count == entries.count }) ?? true else {
                throw Problem.invalid("each sample is [t, y] or [t, x, y], all of one length; this one has \(entries.count) numbers",
                                      at: at)
            }
            var row: [Double] = []
            for (j, entry) in entries.enumerated() {
                guard case .number(let number) = entry else { throw Problem.wrongType(at: at / j, expected: "a number", found: entry) }
                if j > 0 { try NumberRange.channel.check(number, limits: limits, at / j) }
                row.append(number)
            }
            try NumberRange.time.check(row[0], limits: limits, at / 0)
            if let previous = rows.last, row[0] <= previous[0] {
                throw Problem.invalid("sample times must increase strictly", at: at / 0)
            }
            rows.append(row)
        }
        return rows
    }
}
