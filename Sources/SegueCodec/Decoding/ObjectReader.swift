import SegueJSON
/// Reads the members of one request object, keeping the pointer of each member for errors and
/// refusing members it was not asked for (docs/rules.md "Conventions": unknown members are a 422).
///
/// Wrong JSON types are 400 (`wrong-type`); values out of their stated range are 422.
public struct ObjectReader {
    public let pointer: JSONPointer
    private let members: [JSONValue.Member]
    /// Which members were asked for, by index: bit i for member i < 64, then `readBeyond`
    /// (allocated only for larger objects; a request object has a handful of members).
    private var readMask: UInt64 = 0
    private var readBeyond: Set<Int> = []
    /// Every member asked for, given or not, and those declared with `accepts(_:)`: the members
    /// that exist here, which a refusal of an unknown one lists (rule 46).
    private var known: [String] = []

    public init(_ value: JSONValue, at pointer: JSONPointer) throws(Problem) {
        guard case .object(let members) = value else {
            throw Problem.wrongType(at: pointer, expected: "an object", found: value)
        }
        self.pointer = pointer
        self.members = members
    }

    /// Whether the member is given (`null` counts as absent, as in `value(_:)`).
    public func has(_ key: String) -> Bool {
        members.contains { member in
            guard member.key == key else { return false }
            if case .null = member.value { return false }
            return true
        }
    }

    public var keys: [String] { members.map(\.key) }

    /// The raw member, marking it read; `null` counts as absent.
    public mutating func value(_ key: String) -> JSONValue? {
        known.append(key)
        guard let index = members.firstIndex(where: { $0.key == key }) else { return nil }
        markRead(index)
        if case .null = members[index].value { return nil }
        return members[index].value
    }

    private mutating func markRead(_ index: Int) {
        if index < 64 { readMask |= 1 << UInt64(index) } else { readBeyond.insert(index) }
    }

    private func wasRead(_ index: Int) -> Bool {
        index < 64 ? readMask & (1 << UInt64(index)) != 0 : readBeyond.contains(index)
    }

    public mutating func number(_ key: String) throws(Problem) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value else {
            throw Problem.wrongType(at: pointer / key, expected: "a number", found: value)
        }
        return number
    }

    public mutating func requiredNumber(_ key: String, _ why: String) throws(Problem) -> Double {
        guard let number = try number(key) else {
            throw Problem.invalid("`\(key)` is required \(why)", at: pointer / key)
        }
        return number
    }

    public mutating func bool(_ key: String) throws(Problem) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw Problem.wrongType(at: pointer / key, expected: "a boolean", found: value)
        }
        return flag
    }

    public mutating func string(_ key: String) throws(Problem) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else {
            throw Problem.wrongType(at: pointer / key, expected: "a string", found: value)
        }
        return text
    }

    public mutating func array(_ key: String) throws(Problem) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else {
            throw Problem.wrongType(at: pointer / key, expected: "an array", found: value)
        }
        return elements
    }

    /// Declares members that exist here although this reading did not ask for them (the members
    /// of a spring's other parameter sets), so that a refusal lists them too.
    public mutating func accepts(_ keys: [String]) {
        known.append(contentsOf: keys)
    }

    /// Throws a 422 naming the first given (non-null) member that was never read, with the members
    /// that exist here and, for another platform's name of one of them, the one to use (rule 46).
    public func rejectUnknown() throws(Problem) {
        for (index, member) in members.enumerated() where !wasRead(index) {
            if case .null = member.value { continue }
            throw Problem.invalid(Vocabulary.unknown("member", member.key, known: known, listing: "the members here are"),
                                  at: pointer / member.key)
        }
    }
}

/// Range checks shared by every decoder. Each throws a 422 naming the member. The pointer (and
/// `work`'s description) is built only when the check fails: a request that passes pays for none.
public enum Check {
    public static func positive(_ value: Double, _ pointer: @autoclosure () -> JSONPointer) throws(Problem) {
        guard value > 0 else {
            let pointer = pointer()
            throw Problem.invalid("\(pointer.display) must be > 0, not \(value)", at: pointer)
        }
    }

    public static func nonNegative(_ value: Double, _ pointer: @autoclosure () -> JSONPointer) throws(Problem) {
        guard value >= 0 else {
            let pointer = pointer()
            throw Problem.invalid("\(pointer.display) must be ≥ 0, not \(value)", at: pointer)
        }
    }

    public static func within(_ value: Double, _ range: ClosedRange<Double>,
                              _ pointer: @autoclosure () -> JSONPointer) throws(Problem) {
        guard range.contains(value) else {
            let pointer = pointer()
            throw Problem.invalid("\(pointer.display) must be in [\(range.lowerBound), \(range.upperBound)], not \(value)",
                                  at: pointer)
        }
    }

    /// A duration in seconds: > 0 and within the duration limit.
    public static func duration(_ value: Double, limits: Limits, _ pointer: @autoclosure () -> JSONPointer) throws(Problem) {
        try positive(value, pointer())
        guard value <= limits.maxDuration else {
            let pointer = pointer()
            throw Problem.invalid("\(pointer.display) must be ≤ the limit of \(limits.maxDuration) s, not \(value)", at: pointer)
        }
    }

    /// The work estimated so far within `maxWork` (413 naming the limit, docs/cost.md); `what`
    /// says what the estimate covers.
    public static func work(_ work: Double, limits: Limits, what: @autoclosure () -> String,
                            at pointer: @autoclosure () -> JSONPointer? = nil) throws(Problem) {
        guard work <= Double(limits.maxWork) else {
            let units = work < 1e18 ? String(Int(work.rounded(.up))) : "more than 10^18"
            throw Problem.tooLarge("\(what()): an estimated work of \(units) units is over the limit of \(limits.maxWork) work "
                                   + "units (--max-work)", at: pointer())
        }
    }

    /// An integral number in `range`, returned as `Int` without any trapping conversion.
    public static func integer(_ value: Double, _ range: ClosedRange<Int>,
                               _ pointer: @autoclosure () -> JSONPointer) throws(Problem) -> Int {
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            let pointer = pointer()
            throw Problem.invalid("\(pointer.display) must be an integer in [\(range.lowerBound), \(range.upperBound)], not \(value)",
                                  at: pointer)
        }
        return Int(value)
    }

    /// A pair `[a, b]` of numbers.
    public static func pair(_ value: JSONValue, _ pointer: @autoclosure () -> JSONPointer) throws(Problem) -> (Double, Double) {
        guard case .array(let elements) = value else {
            throw Problem.wrongType(at: pointer(), expected: "an array of two numbers", found: value)
        }
        guard elements.count == 2 else {
            let pointer = pointer()
            throw Problem.invalid("\(pointer.display) must hold exactly two numbers, not \(elements.count)", at: pointer)
        }
        guard case .number(let a) = elements[0] else {
            throw Problem.wrongType(at: pointer() / 0, expected: "a number", found: elements[0])
        }
        guard case .number(let b) = elements[1] else {
            throw Problem.wrongType(at: pointer() / 1, expected: "a number", found: elements[1])
        }
        return (a, b)
    }
}
