/// The frame grid of a render and of `/v1/curve` with `fps` (docs/rules.md rule 3): frames at
/// t_i = i / fps for i = 0 … ceil(end · fps − slack). The slack keeps an end that is a whole
/// number of frames in decimal (0.8 s at 60 fps is 48.00000000000001 frames) from gaining a frame.
public enum FrameGrid {
    public static let slack = 1e-9

    /// How many frames the grid holds through `end`, as a double so that a huge count can be
    /// refused before anything is allocated.
    public static func count(rate: Double, through end: Double) -> Double {
        max(0, (end * rate - slack).rounded(.up)) + 1
    }

    /// The frame times; `count` comes from `count(rate:through:)` after the caller's limit check.
    public static func times(rate: Double, count: Int) -> [Double] {
        (0..<count).map { Double($0) / rate }
    }
}
