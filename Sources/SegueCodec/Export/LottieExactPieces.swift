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
struct LottieExactPieces: Sendable {
    let scene: Scene

    init(_ request: RenderRequest) {
        scene = request.scene
    }

    /// The candidates for a target of `view` that reads `channels` (names).
    func pieces(view: String, channels: [String]) -> [ExactPiece] {
        scene.channels.filter { $0.view == view && channels.contains($0.name) }.flatMap(\.exactPieceCandidates).filter { piece in
            if case .curve(.cubicBezier) = piece.easing { return true }
            return false
        }
    }
}
