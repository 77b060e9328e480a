/// The order in which state changes took effect (docs/rules.md rules 1 and 18): by time; at one
/// instant the initial states (an autostart, an interaction's first pause), then changes caused
/// by commands in command order, then completions, then releases (of an interaction or a drag);
/// ties by animation index. What one animator did at one instant keeps its own order (a release
/// that completes at once; a command's start, then its retarget).
enum EventOrder {
    /// The rank of an event within its instant.
    enum Rank: Comparable {
        case initial
        case command(Int)
        case completion
        case release
    }

    static func events(of animators: [Scene.Animator]) -> [Scene.Event] {
        var all: [(event: Scene.Event, rank: Rank)] = []
        for (index, animator) in animators.enumerated() {
            var previous: (t: Double, rank: Rank)?
            for (k, event) in animator.events.enumerated() {
                var rank = rank(of: event, first: k == 0)
                if let previous, previous.t == event.t { rank = max(rank, previous.rank) }
                previous = (event.t, rank)
                all.append((Scene.Event(animation: index, event: event), rank))
            }
        }
        // A stable sort keeps each animator's own order and the animation index for ties.
        let ordered = all.enumerated().sorted { a, b in
            (a.element.event.event.t, a.element.rank, a.offset) < (b.element.event.event.t, b.element.rank, b.offset)
        }
        return ordered.map(\.element.event)
    }

    static func rank(of event: AnimatorEvent, first: Bool) -> Rank {
        switch event.kind {
        case .interactionFinish, .interactionCancel, .release: return .release
        default: break
        }
        if let command = event.command { return .command(command) }
        if first && (event.kind == .start || event.kind == .pause) { return .initial }
        return .completion
    }
}
