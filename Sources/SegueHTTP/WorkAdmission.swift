/// Where a computing request runs decides how much work it may do there (docs/http.md "Thread
/// model"). A route that estimates its work (`Router.Route.Action.estimate`) asks its admission
/// before the expensive part; one that does not (`compute`) asks for unbounded work.
protocol WorkAdmission: Sendable {
    associatedtype Refusal: Error
    /// Admits `work` (work units, about a nanosecond of one core each; docs/cost.md) or refuses it.
    func admit(_ work: Double) throws(Refusal)
}

/// On a worker: any work. The request limits (`--max-work` and the rest) were checked while the
/// request was read; this admission refuses nothing.
struct OnWorker: WorkAdmission {
    func admit(_ work: Double) {}
}

/// On a libmicrohttpd I/O thread: work up to `budget` units. A dearer request is refused here and
/// runs again, from the start, on a worker.
struct OnIOThread: WorkAdmission {
    struct OverBudget: Error {}

    /// Work units, > 0.
    let budget: Double

    func admit(_ work: Double) throws(OverBudget) {
        guard work <= budget else { throw OverBudget() }
    }
}
