/// The order views are drawn in (docs/rules.md rule 40), bottom to top.
///
/// UIKit draws subviews in the order `addSubview(_:)` added them, the first at the bottom, and
/// `insertSubview(_:belowSubview:)` puts one under another. A render's views are added in request
/// order; a view's `zIndex` (CALayer's `zPosition`, as a whole number) lifts it above every view
/// with a lower one. Ties keep request order, so the sort must be stable.
///
/// Edge cases, before the code:
/// - no views: an empty order;
/// - every `zIndex` 0 (the default): exactly request order;
/// - negative values draw below the default 0.
public enum Stacking {
    /// View names from the bottom of the stack to the top.
    public static func order(_ views: [SceneSpec.View]) -> [String] {
        // Sorting (zIndex, request index) pairs is a stable sort by zIndex.
        views.indices.sorted { (views[$0].zIndex, $0) < (views[$1].zIndex, $1) }.map { views[$0].name }
    }
}

extension Scene {
    /// Each view's place in `stacking`, 0 at the bottom.
    public var stackingPositions: [String: Int] {
        Dictionary(stacking.enumerated().map { ($1, $0) }) { first, _ in first }
    }
}
