import SegueJSON

/// `container` [x, y, w, h] (docs/rules.md "Views and channels"): the box a render's views are
/// laid out in, given at the top of a render or in a preset's `transition`. Width and height are
/// > 0; every number is within `bound`.
public struct Container: Sendable, Equatable {
    public var x, y, w, h: Double

    /// Largest magnitude of a container number: a quarter of the channel bound, so that every
    /// position a preset computes from it (at most y + 1.4·h) stays within that bound.
    static let bound = ChannelDecoder.maxMagnitude / 4

    init(_ value: JSONValue, at pointer: JSONPointer) throws(Problem) {
        guard case .array(let elements) = value else {
            throw Problem.wrongType(at: pointer, expected: "an array [x, y, w, h]", found: value)
        }
        guard elements.count == 4 else {
            throw Problem.invalid("`container` is [x, y, w, h]: four numbers, not \(elements.count)", at: pointer)
        }
        var numbers: [Double] = []
        for (i, element) in elements.enumerated() {
            guard case .number(let number) = element else {
                throw Problem.wrongType(at: pointer / i, expected: "a number", found: element)
            }
            numbers.append(number)
        }
        for (i, number) in numbers.enumerated() { try Check.within(number, -Container.bound...Container.bound, pointer / i) }
        try Check.positive(numbers[2], pointer / 2)
        try Check.positive(numbers[3], pointer / 3)
        (x, y, w, h) = (numbers[0], numbers[1], numbers[2], numbers[3])
    }

    var json: JSONValue { .array([x, y, w, h].map(JSONValue.number)) }
}
