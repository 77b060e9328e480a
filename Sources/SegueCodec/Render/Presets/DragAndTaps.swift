import SegueEngine
import SegueJSON

/// The commands of a physics animation moved between two positions the way the draggable pane
/// is: a `drag` along a finger log, a `retarget` at its release toward the position the finger
/// was flicking to, and a `retarget` at each tap toward the other position (docs/rules.md
/// "Commands", rule 22). Every name is one of the preset's animations, channels or parameters.
///
/// The release's choice is made here, from the log, because a request has no `retarget` whose
/// target waits for the release velocity (the contract's `retarget` takes a fixed `to`), and the
/// expansion is a plain request that renders as it reads (rule 25). The velocity is the one the
/// engine releases the drag with (`DragRelease`), so the choice and the motion agree.
struct DragAndTaps: Sendable {
    /// The physics animation the commands drive, and its channel.
    let animation: String
    let channel: String
    /// The drag log parameter, [[t, x, y], …] once read ([] or absent: no drag).
    let samples: String
    /// The tap times parameter.
    let taps: String
    /// The position parameters: where the animation rests at first (what a first tap toggles
    /// from), and the other one.
    let resting: String
    let raised: String
    /// Which component of the release velocity decides: below 0 (toward smaller values, up the
    /// screen for y) the release aims at `raised`, otherwise at `resting`.
    let deciding: Int

    /// A drag and its release retarget, whatever the taps.
    let fixedCount = 2

    func commands(_ environment: PresetEnvironment) -> [JSONValue] {
        let raisedAt = environment.value(raised), restingAt = environment.value(resting)
        func retarget(_ at: Double, raised: Bool) -> JSONValue {
            .object([.init("at", .number(at)), .init("animation", .string(animation)), .init("op", .string("retarget")),
                     .init("to", .object([.init(channel, raised ? raisedAt : restingAt)]))])
        }
        var commands: [JSONValue] = []
        var isRaised = false
        var pending = Self.numbers(environment.value(taps))[...]
        // Taps strictly before `time` toggle the target; one at a drag's time comes after its command.
        func tapsBefore(_ time: Double) {
            while let tap = pending.first, tap < time {
                pending.removeFirst()
                isRaised.toggle()
                commands.append(retarget(tap, raised: isRaised))
            }
        }
        guard case .array(let rows) = environment.value(samples) else { preconditionFailure("`\(samples)` is a drag log") }
        let log = rows.map(Self.numbers)
        if let first = log.first, let last = log.last {
            tapsBefore(first[0])
            commands.append(.object([.init("at", .number(first[0])), .init("animation", .string(animation)),
                                     .init("op", .string("drag")), .init("samples", .array(rows))]))
            tapsBefore(last[0])
            let velocity = DragRelease.velocity(of: log.map { DragSample(t: $0[0], value: Array($0.dropFirst())) })
            isRaised = velocity.indices.contains(deciding) && velocity[deciding] < 0
            commands.append(retarget(last[0], raised: isRaised))
        }
        tapsBefore(.infinity)
        return commands
    }

    /// The commands as the catalogue states them.
    var description: String {
        let to = { (position: String) in Template.notation([(channel, .parameter(position))]) }
        let component = deciding == 0 ? "x" : "y"
        return "Commands, in time order (a tap at the release's time after the release): a `drag` at the first sample's t with "
            + "`\(samples)` as [t, x, y]; at the last sample's t a `retarget` to \(to(raised)) when the release velocity's "
            + "\(component) (the least-squares slope of the last 100 ms of the drag) is < 0, else to \(to(resting)); and at each "
            + "time in `\(taps)` a `retarget` to the other of \(resting) and \(raised) than the last one aimed at (\(resting) "
            + "at first). With no samples there is no drag and no release `retarget`."
    }

    static func numbers(_ value: JSONValue) -> [Double] {
        guard case .array(let elements) = value else { preconditionFailure("an array of numbers") }
        return elements.map { element in
            guard case .number(let number) = element else { preconditionFailure("an array of numbers") }
            return number
        }
    }
}
