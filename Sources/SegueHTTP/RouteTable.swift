#if canImport(Glibc)
import Glibc
#endif
import SegueJSON

/// The routes, held once (docs/http.md "One route table, matched once"): each route's path, its
/// methods, its handler and whether it is a probe, in the order of their paths. A request's path is
/// matched here once — by the transport from the target's bytes, or from `HTTPRequest.path` for a
/// request that came without one — and the `RouteMatch` goes with the request, so that its metric
/// series, its log line, where it runs, its body limit and the router's dispatch all read the same
/// match and none looks at the path again.
///
/// The service's own table is `RouteTable.service`, one for the process: its handlers are given the
/// router that dispatched them, so the table holds no service's state, and the metrics' series are
/// made from it before any service exists.
struct RouteTable: Sendable {
    /// Sorted by path: a route's position is its match's `index`, and the order of its metric series.
    let routes: [Router.Route]
    /// Each route's match, by position, then the unmatched one (last): made once, so a match found
    /// is a copy of plain values, with no retain of a route's methods or its handler.
    let matches: [RouteMatch]
    /// The routes' paths, one after another, and where each starts: a lookup compares lengths and
    /// bytes, with no `String` and no hashing (docs/http.md "The route found from the target's bytes").
    private let pathText: [UInt8]
    private let pathStarts: [Int]

    init(_ routes: [Router.Route]) {
        let sorted = routes.sorted { $0.path < $1.path }
        precondition(zip(sorted, sorted.dropFirst()).allSatisfy { $0.path != $1.path }, "two routes with one path")
        self.routes = sorted
        matches = sorted.indices.map { RouteMatch(index: $0, route: sorted[$0]) } + [RouteMatch(unmatchedAt: sorted.count)]
        pathText = sorted.flatMap(\.path.utf8)
        pathStarts = sorted.reduce(into: [0]) { $0.append($0.last! + $1.path.utf8.count) }
    }

    /// The match of a path no route has.
    var unmatched: RouteMatch { matches[routes.count] }

    /// The match of a path given as a string: a request made without the transport (a test, the
    /// command line, a batch's line).
    func match(_ path: String) -> RouteMatch {
        path.withUTF8InPlace { match(UnsafeRawBufferPointer($0)) }
    }

    /// The match of a path given as its bytes: the transport's decoded target.
    func match(_ path: UnsafeRawBufferPointer) -> RouteMatch {
        let index = pathText.withUnsafeBytes { text in
            pathStarts.withUnsafeBufferPointer { starts in
                for i in 0..<starts.count - 1 where starts[i + 1] - starts[i] == path.count
                    && (path.count == 0 || memcmp(text.baseAddress! + starts[i], path.baseAddress!, path.count) == 0) {
                    return i
                }
                return starts.count - 1
            }
        }
        return matches[index]
    }
}

/// The route a request's path matched (`RouteTable.match`), found once and carried with the
/// request — in the transport's `Exchange`, and beside the request into the router — as
/// Hummingbird's request context carries the matched endpoint. Plain values copied from the table:
/// reading one retains nothing that every I/O thread shares.
struct RouteMatch: Sendable {
    /// The route's position in `RouteTable.routes`, or their count when none matched: the position
    /// of its metric series too.
    let index: Int
    /// The route's path, or `unmatched` (`MetricLabels`): the `route` of its metrics and its log
    /// line, never the raw path.
    let label: String
    /// How the route answers, which decides where the request runs (`SegueService.placement`); nil
    /// when none matched.
    let kind: Router.Route.Action.Kind?
    /// A probe or scrape route: its answers are logged at `debug` (`Router.Route.isProbe`).
    let isProbe: Bool

    init(index: Int, route: Router.Route) {
        self.index = index
        label = route.path
        kind = route.action.kind
        isProbe = route.isProbe
    }

    init(unmatchedAt index: Int) {
        self.index = index
        label = MetricLabels.unmatched
        kind = nil
        isProbe = false
    }

    /// Whether a route matched: the label is then the path itself.
    var isKnown: Bool { kind != nil }
}
