import SegueEngine

/// Block animations timed by a cubic Bézier, as exact pieces of a Lottie fit (docs/rules.md rule 26:
/// where the consumer has an exact form it is used). Between its start and its completion such an
/// animation moves each channel it targets as from + (to − from) · B(u); Lottie's keyframe easing
/// is the same cubic Bézier (lottie-spec "Keyframe Easing": `o` and `i` the first and second
/// control points), so the whole run is two keyframes.
///
/// The candidates are the engine's (`Scene.Channel.exactPieceCandidates`) that Lottie can write:
/// Béziers only (no `steps()` or `linear()` easing in Lottie). The fit keeps only those the values
/// confirm (`KeyframeFit`, step 2): a run that was paused, reversed, scrubbed or blended with
/// another animation is fitted like any other motion.
enum LottieExactPieces {
    /// The candidates of the channels a Lottie target reads.
    static func pieces(_ channels: [Scene.Channel]) -> [ExactPiece] {
        channels.flatMap(\.exactPieceCandidates).filter { piece in
            if case .curve(.cubicBezier) = piece.easing { return true }
            return false
        }
    }
}
