/// The channels a view can have (docs/rules.md "Views and channels") and how their values read.
public enum ChannelKind: Sendable, Equatable {
    /// A single number (`alpha`, `cornerRadius`, scalar custom channels): printed as a number.
    case scalar
    /// A fixed-length array of numbers (`frame`, `center`, `bounds`, `backgroundColor`, array
    /// custom channels): printed as an array.
    case array(Int)
    case transform

    /// Built-in channels and their kinds; any other name is a custom channel.
    public static func builtIn(_ name: String) -> ChannelKind? {
        switch name {
        case "frame", "bounds", "backgroundColor": .array(4)
        case "center": .array(2)
        case "alpha", "cornerRadius": .scalar
        case "transform": .transform
        default: nil
        }
    }

    /// Defaults of channels an animation may target without the view giving them; geometry
    /// and custom channels have none (docs/rules.md rule 5).
    public static func defaultValue(_ name: String) -> ChannelValue? {
        switch name {
        case "alpha": .vector([1])
        case "cornerRadius": .vector([0])
        case "backgroundColor": .vector([0, 0, 0, 0])
        case "transform": .transform(.components(DecomposedTransform(translation: .init(x: 0, y: 0), rotation: 0,
                                                                     scale: .init(x: 1, y: 1))))
        default: nil
        }
    }

    /// Numbers per frame.
    public var width: Int {
        switch self {
        case .scalar: 1
        case .array(let n): n
        case .transform: 6
        }
    }
}
