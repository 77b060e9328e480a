import SegueEngine
import SegueJSON

/// The sample times both routes read (docs/rules.md rule 3): an explicit `at` list, or the `fps`
/// grid, each counted against the limit before anything is allocated. `unit` names what the
/// route answers ("samples" or "frames") in the 413's detail.
struct SamplingGridReader {
    var limits: Limits
    var unit: String

    /// The numbers of `at`, at most `maxSamples` of them.
    func explicitTimes(_ elements: [JSONValue], at pointer: JSONPointer) throws(Problem) -> [Double] {
        guard !elements.isEmpty else { throw Problem.invalid("`at` must not be empty", at: pointer) }
        guard elements.count <= limits.maxSamples else {
            throw Problem.tooLarge("`at` holds \(elements.count) times, over the limit of \(limits.maxSamples) \(unit) per response",
                                   at: pointer)
        }
        return try ChannelDecoder.numberArray(.array(elements), at: pointer)
    }

    /// The `fps` grid through `end`; `window` describes the end in the 413's detail.
    func grid(rate: Double, through end: Double, window: String, blame pointer: JSONPointer?) throws(Problem) -> [Double] {
        let count = FrameGrid.count(rate: rate, through: end)
        guard count <= Double(limits.maxSamples) else {
            throw Problem.tooLarge("\(Int(count)) frames (\(window) at \(rate) fps) are over the limit of "
                                   + "\(limits.maxSamples) \(unit) per response", at: pointer)
        }
        return FrameGrid.times(rate: rate, count: Int(count))
    }
}
