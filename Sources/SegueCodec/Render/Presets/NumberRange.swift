import SegueJSON

/// The numbers a preset parameter (or each number inside it) may take. The same value checks a
/// request and writes the range into the catalogue (`GET /v1/presets`), so what the catalogue
/// states is what is enforced.
struct NumberRange: Sendable {
    /// One end of a range: a number, or one of the service's limits, read when a request is
    /// checked (the catalogue states its default).
    enum End: Sendable {
        case value(Double)
        /// `Limits.maxDuration`, seconds.
        case durationLimit
        /// The container's height h, read from the request's `container`.
        case containerHeight
    }

    struct Bound: Sendable {
        var end: End
        var inclusive: Bool
    }

    var lower: Bound?
    var upper: Bound?

    /// Any finite number.
    static let any = NumberRange()
    static let positive = NumberRange(lower: Bound(end: .value(0), inclusive: false))
    static let nonNegative = NumberRange(lower: Bound(end: .value(0), inclusive: true))
    /// 0…1: a fraction or a colour component.
    static let unit = NumberRange(lower: Bound(end: .value(0), inclusive: true), upper: Bound(end: .value(1), inclusive: true))
    /// A duration in seconds: > 0 and within the duration limit (docs/rules.md "Limits").
    static let duration = NumberRange(lower: Bound(end: .value(0), inclusive: false), upper: Bound(end: .durationLimit, inclusive: true))
    /// A time on the render's timeline, seconds.
    static let time = NumberRange(lower: Bound(end: .value(0), inclusive: true), upper: Bound(end: .durationLimit, inclusive: true))
    /// A channel value: within the channel bound (docs/rules.md rule 12).
    static let channel = NumberRange(lower: Bound(end: .value(-ChannelDecoder.maxMagnitude), inclusive: true),
                                     upper: Bound(end: .value(ChannelDecoder.maxMagnitude), inclusive: true))
    /// A length in points: > 0 and within the channel bound.
    static let length = NumberRange(lower: Bound(end: .value(0), inclusive: false),
                                    upper: Bound(end: .value(ChannelDecoder.maxMagnitude), inclusive: true))
    /// A length in points that may be 0: ≥ 0 and within the channel bound (a corner radius).
    static let nonNegativeLength = NumberRange(lower: Bound(end: .value(0), inclusive: true),
                                               upper: Bound(end: .value(ChannelDecoder.maxMagnitude), inclusive: true))
    /// A distance down from the container's top that stays inside it: ≥ 0 and < h.
    static let insideHeight = NumberRange(lower: Bound(end: .value(0), inclusive: true),
                                          upper: Bound(end: .containerHeight, inclusive: false))
    /// A factor that shrinks or keeps a size: > 0 and ≤ 1.
    static let shrink = NumberRange(lower: Bound(end: .value(0), inclusive: false), upper: Bound(end: .value(1), inclusive: true))

    /// A 422 at `pointer` when `value` is outside the range; `container` is the preset's, for a
    /// range that ends at the container's height.
    func check(_ value: Double, limits: Limits, container: Container? = nil,
               _ pointer: @autoclosure () -> JSONPointer) throws(Problem) {
        if let lower, !lower.admits(value, from: .below, limits: limits, container: container) {
            let pointer = pointer()
            throw Problem.invalid("\(pointer.display) must be \(lower.text(.below, limits: limits, container: container)), not \(value)",
                                  at: pointer)
        }
        if let upper, !upper.admits(value, from: .above, limits: limits, container: container) {
            let pointer = pointer()
            throw Problem.invalid("\(pointer.display) must be \(upper.text(.above, limits: limits, container: container)), not \(value)",
                                  at: pointer)
        }
    }

    /// The range as the catalogue states it ("> 0", "in 0…1", "within ±1e15", "> 0 and ≤ the
    /// duration limit (3600 s by default)"); nil for any number.
    var text: String? {
        switch (lower, upper) {
        case (nil, nil):
            return nil
        case (let bound?, nil):
            return bound.text(.below, limits: nil)
        case (nil, let bound?):
            return bound.text(.above, limits: nil)
        case (let low?, let high?):
            if low.inclusive, high.inclusive, case .value(let a) = low.end {
                guard case .value(let b) = high.end else { return "from \(Self.text(a)) to " + high.endText(limits: nil) }
                return a == -b ? "within ±\(Self.text(b))" : "in \(Self.text(a))…\(Self.text(b))"
            }
            return low.text(.below, limits: nil) + " and " + high.text(.above, limits: nil)
        }
    }

    /// A number as the catalogue writes it: JSON's shortest form, with a round number of a
    /// million or more as mantissa and exponent (1e15).
    static func text(_ number: Double) -> String {
        var mantissa = number, exponent = 0
        while abs(mantissa) >= 10, mantissa.truncatingRemainder(dividingBy: 10) == 0 {
            mantissa /= 10
            exponent += 1
        }
        let digits = String(decoding: JSONValue.number(exponent >= 6 ? mantissa : number).bytes, as: UTF8.self)
        return exponent >= 6 ? "\(digits)e\(exponent)" : digits
    }
}

extension NumberRange.Bound {
    enum Side { case below, above }

    func value(limits: Limits, container: Container? = nil) -> Double {
        switch end {
        case .value(let value):
            return value
        case .durationLimit:
            return limits.maxDuration
        case .containerHeight:
            guard let container else { preconditionFailure("a range that ends at the container's height needs the container") }
            return container.h
        }
    }

    func admits(_ value: Double, from side: Side, limits: Limits, container: Container? = nil) -> Bool {
        let end = self.value(limits: limits, container: container)
        switch side {
        case .below: return inclusive ? value >= end : value > end
        case .above: return inclusive ? value <= end : value < end
        }
    }

    /// "> 0", "≤ the duration limit, 3600 s".
    func text(_ side: Side, limits: Limits?, container: Container? = nil) -> String {
        let relation = switch side {
        case .below: inclusive ? "≥" : ">"
        case .above: inclusive ? "≤" : "<"
        }
        return "\(relation) " + endText(limits: limits, container: container)
    }

    /// "0", "the duration limit, 3600 s" (with the limits in force) or "the duration limit (3600 s
    /// by default)" (without); "h, the container's height, 568" (for a request) or "h, the
    /// container's height" (in the catalogue).
    func endText(limits: Limits?, container: Container? = nil) -> String {
        switch end {
        case .containerHeight:
            return "h, the container's height" + (container.map { ", " + NumberRange.text($0.h) } ?? "")
        case .value(let value):
            return NumberRange.text(value)
        case .durationLimit:
            guard let limits else { return "the duration limit (\(NumberRange.text(Limits().maxDuration)) s by default)" }
            return "the duration limit, \(NumberRange.text(limits.maxDuration)) s"
        }
    }
}
