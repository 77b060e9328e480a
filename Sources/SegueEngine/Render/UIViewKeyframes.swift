/// One `addKeyframeWithRelativeStartTime:relativeDuration:animations:` on one channel: start and
/// duration as fractions of the whole block, and the value the keyframe animates to.
public struct RelativeKeyframe<Value> {
    public var start: Double
    public var duration: Double
    public var value: Value

    public init(start: Double, duration: Double, value: Value) {
        self.start = start
        self.duration = duration
        self.value = value
    }
}

extension RelativeKeyframe: Sendable where Value: Sendable {}
extension RelativeKeyframe: Equatable where Value: Equatable {}

/// `UIView.animateKeyframes(withDuration:…)`: the keyframes naming one channel become one
/// `CAKeyframeAnimation` (docs/keyframes.md "UIView keyframe blocks", docs/rules.md rule 11).
public enum UIViewKeyframes {
    /// The key times and values of one channel's animation, of equal length:
    /// - the first point is (0, `from`), the channel's value before the block;
    /// - a keyframe starting after the last key time first holds: (start, previous value);
    /// - a keyframe then adds (start + duration, value); duration 0 makes two points at one key
    ///   time, a jump;
    /// - a keyframe starting before the previous one ends is delayed to that end and keeps its
    ///   duration; key times are clipped to [0, 1] (negative durations count as 0), so they never
    ///   decrease;
    /// - the last value holds to key time 1.
    ///
    /// Example (docs/keyframes.md "UIView keyframe blocks", the observed dump): from 1, one keyframe (0, 0.1) to 0 gives key
    /// times (0, 0.1, 1) and values (1, 0, 0).
    public static func track<Value>(from: Value, keyframes: [RelativeKeyframe<Value>]) -> (
        keyTimes: [Double], values: [Value]
    ) {
        var keyTimes = [0.0]
        var values = [from]
        var end = 0.0
        var previous = from
        for keyframe in keyframes {
            let start = min(max(keyframe.start, end), 1)
            if start > end {
                keyTimes.append(start)
                values.append(previous)
            }
            end = min(start + max(keyframe.duration, 0), 1)
            keyTimes.append(end)
            values.append(keyframe.value)
            previous = keyframe.value
        }
        if end < 1 {
            keyTimes.append(1)
            values.append(previous)
        }
        return (keyTimes, values)
    }
}
