import Foundation
import SegueCodec
import Synchronization
import XCTest
@testable import SegueHTTP

extension SegueService {
    /// As the transport answers on an I/O thread: the path matched once, and the request answered
    /// by that match within `budget`.
    func respond(to request: HTTPRequest, withinWork budget: Double) -> HTTPResponse? {
        respond(to: request, route: route(of: request.path), withinWork: budget)
    }
}

/// Where a computing request runs (docs/http.md "Thread model"): the router's admission of an
/// estimated job without a socket, the service's inline answer against its worker answer, and the
/// live server's count of each.
final class WorkPlacementTests: XCTestCase {
    /// `/estimate` reads the body's length as its work and counts the jobs it runs; `/compute`
    /// estimates nothing.
    final class Routes: Sendable {
        let jobsRun = Atomic<Int>(0)

        var router: Router {
            Router(routes: [
                Router.Route("/estimate", methods: ["POST"], .estimate { [self] _, request throws(Problem) in
                    guard request.body.first != 0 else { throw Problem(.invalidRequest, detail: "a zero byte") }
                    return Router.Job(work: Double(request.body.count)) { () throws(Problem) in
                        self.jobsRun.add(1, ordering: .relaxed)
                        return Content(mediaType: "text/plain", body: request.body)
                    }
                }),
                Router.Route("/compute", methods: ["POST"], .compute { _, request throws(Problem) in
                    Content(mediaType: "text/plain", body: request.body)
                }),
            ], middleware: MiddlewareChain([]))
        }
    }

    func post(_ path: String, _ body: [UInt8]) -> HTTPRequest { HTTPRequest(method: "POST", path: path, body: body) }

    func testAnEstimatedJobRunsWithinTheBudgetAndIsRefusedBeforeRunningOverIt() throws {
        let routes = Routes()
        let router = routes.router
        let within = try router.respond(to: post("/estimate", [1, 2, 3]), OnIOThread(budget: 3))
        XCTAssertEqual(within.status, 200)
        XCTAssertEqual(within.body, [1, 2, 3])
        XCTAssertEqual(routes.jobsRun.load(ordering: .relaxed), 1)
        XCTAssertThrowsError(try router.respond(to: post("/estimate", [1, 2, 3, 4]), OnIOThread(budget: 3))) {
            XCTAssertTrue($0 is OnIOThread.OverBudget, "\($0)")
        }
        XCTAssertEqual(routes.jobsRun.load(ordering: .relaxed), 1, "a job over the budget must not run")
        // A worker admits it.
        XCTAssertEqual(router.respond(to: post("/estimate", [1, 2, 3, 4]), OnWorker()).body, [1, 2, 3, 4])
        XCTAssertEqual(routes.jobsRun.load(ordering: .relaxed), 2)
    }

    /// The service places each request by its route's kind, read from the request's match
    /// (`RouteMatch.kind`: a plain value, so deciding costs no retain of a route, and no second
    /// lookup of the path): a curve is estimated, a render
    /// goes to a worker, everything else (other methods, unknown paths) stays on the I/O thread.
    func testTheServicePlacesEachRequestByItsRoutesKind() {
        let service = SegueService()
        let expected: [(String, String, SegueService.Placement)] = [
            ("POST", "/v1/curve", .estimated), ("POST", "/v1/render", .worker), ("GET", "/healthz", .ioThread),
            ("GET", "/v1/curve", .ioThread), ("POST", "/v1/nowhere", .ioThread), ("POST", "/metrics", .ioThread),
        ]
        for (method, path, placement) in expected {
            XCTAssertEqual(service.placement(of: HTTPRequest(method: method, path: path, body: []), route: service.route(of: path)),
                           placement, "\(method) \(path)")
        }
        // Every route of the router is placed by its own kind, POST or not.
        for route in service.router.table.routes {
            let path = route.path
            let expected: SegueService.Placement = switch route.action.kind {
            case .answer: .ioThread
            case .estimate: .estimated
            case .compute: .worker
            }
            XCTAssertEqual(service.placement(of: HTTPRequest(method: "POST", path: path, body: []), route: service.route(of: path)),
                           expected, path)
            XCTAssertEqual(service.placement(of: HTTPRequest(method: "GET", path: path, body: []), route: service.route(of: path)),
                           .ioThread, path)
        }
    }

    func testAProblemFoundWhileReadingIsAnsweredOnTheIOThread() throws {
        let response = try Routes().router.respond(to: post("/estimate", [0]), OnIOThread(budget: 0.5))
        XCTAssertEqual(response.status, 422)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
    }

    func testARouteThatDoesNotEstimateIsNeverAnsweredOnTheIOThread() throws {
        let router = Routes().router
        XCTAssertThrowsError(try router.respond(to: post("/compute", [1]), OnIOThread(budget: .greatestFiniteMagnitude)))
        XCTAssertEqual(router.respond(to: post("/compute", [1]), OnWorker()).body, [1])
        // What is not the route's work is still answered there: a preflight, a 405.
        XCTAssertEqual(try router.respond(to: HTTPRequest(method: "OPTIONS", path: "/compute"), OnIOThread(budget: 1)).status, 204)
        XCTAssertEqual(try router.respond(to: HTTPRequest(method: "GET", path: "/compute"), OnIOThread(budget: 1)).status, 405)
    }

    // MARK: The service's routes

    static let cheapCurve = #"{"timing":{"type":"cubicBezier","p1":[0.25,0.1],"p2":[0.25,1]},"samples":61}"#
    static let render = #"{"views": {"card": {"frame": [0, 0, 10, 10], "alpha": 1}}, "animations": [{"view": "card", "duration": 0.1, "to": {"alpha": 0}}]}"#
    static let dearCurve = #"{"timing":{"type":"spring","damping":10},"duration":2,"samples":100000}"#

    func curve(_ json: String, format: String? = nil) -> HTTPRequest {
        HTTPRequest(method: "POST", path: "/v1/curve", query: format.map { ["format": $0] } ?? [:],
                    headers: ["content-type": "application/json", "accept-encoding": "gzip"], body: Array(json.utf8))
    }

    func testACheapCurveIsAnsweredInlineWithTheWorkersBytes() throws {
        var configuration = ServiceConfiguration()
        configuration.cacheEntries = 0
        let service = SegueService(configuration: configuration)
        let budget = ListenConfiguration().inlineWork
        // A curve CSS writes exactly costs only its text: its export is cheap too.
        for format in [nil, "csv", "css", "waapi"] {
            let request = curve(Self.cheapCurve, format: format)
            let inline = try XCTUnwrap(service.respond(to: request, withinWork: budget), format ?? "json")
            let worker = service.respond(to: request)
            XCTAssertEqual(inline.status, 200)
            XCTAssertEqual(inline.headers.map { "\($0.name): \($0.value)" }, worker.headers.map { "\($0.name): \($0.value)" })
            XCTAssertEqual(inline.body, worker.body)
        }
        // The estimate is what decides: the same curve with a budget below its work goes to a worker.
        let work = try CurveRequest.decode(RequestDocument.parse(Array(Self.cheapCurve.utf8), limits: Limits()), limits: Limits()).work
        XCTAssertNil(service.respond(to: curve(Self.cheapCurve), withinWork: work.nextDown))
        XCTAssertNotNil(service.respond(to: curve(Self.cheapCurve), withinWork: work))
    }

    func testDearOrUnestimatedWorkGoesToAWorker() throws {
        let service = SegueService()
        let budget = ListenConfiguration().inlineWork
        XCTAssertNil(service.respond(to: curve(Self.dearCurve), withinWork: budget), "100,000 samples")
        // An export is estimated before any fitting (docs/cost.md "Exports"): a spring's fit is dear;
        // the SVG plot is not estimated.
        let spring = #"{"timing":{"type":"spring","dampingRatio":0.5},"duration":0.8}"#
        for format in ["css", "waapi"] {
            XCTAssertNil(service.respond(to: curve(spring, format: format), withinWork: budget), format)
        }
        XCTAssertNil(service.respond(to: curve(Self.cheapCurve, format: "svg"), withinWork: budget), "svg")
        let render = HTTPRequest(method: "POST", path: "/v1/render", headers: ["content-type": "application/json"],
                                 body: Array(Self.render.utf8))
        XCTAssertNil(service.respond(to: render, withinWork: budget))
        // A bad request costs nothing to answer: its problem comes from the I/O thread.
        let bad = try XCTUnwrap(service.respond(to: curve(#"{"timing":{"type":"cubicBezier","p1":[0.25,0.1],"p2":[2,1]}}"#),
                                                withinWork: budget))
        XCTAssertEqual(bad.status, 422)
        XCTAssertEqual(bad.body, service.respond(to: curve(#"{"timing":{"type":"cubicBezier","p1":[0.25,0.1],"p2":[2,1]}}"#)).body)
    }

    func testARequestPassedToAWorkerIsCountedOnceAsACacheMiss() throws {
        let service = SegueService()
        XCTAssertNil(service.respond(to: curve(Self.dearCurve), withinWork: 1000))
        XCTAssertEqual(service.respond(to: curve(Self.dearCurve)).status, 200)
        let text = String(decoding: service.metrics.render(), as: UTF8.self)
        XCTAssertTrue(text.contains("\nsegue_cache_misses_total 1\n"), text)
        XCTAssertTrue(text.contains("\nsegue_cache_hits_total 0\n"), text)
    }

    // MARK: Live

    func computed(_ server: LiveServer) throws -> [String: Int] {
        let text = String(decoding: try server.request("GET", "/metrics").body, as: UTF8.self)
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("segue_computed_requests_total{") {
            let parts = line.split(separator: " ")
            counts[String(parts[0])] = Int(parts[1])
        }
        return counts
    }

    func testTheLiveServerAnswersCheapCurvesOnItsIOThreadsAndTheRestOnWorkers() throws {
        let server = try LiveServer()
        let io = #"segue_computed_requests_total{thread="io"}"#, worker = #"segue_computed_requests_total{thread="worker"}"#
        XCTAssertEqual(try computed(server), [io: 0, worker: 0])
        for _ in 0..<3 { XCTAssertEqual(try server.post("/v1/curve", json: Self.cheapCurve).status, 200) }
        XCTAssertEqual(try server.post("/v1/curve", json: Self.dearCurve).status, 200)
        XCTAssertEqual(try server.post("/v1/render", json: Self.render).status, 200)
        // The cache answers the repeats, on the I/O thread too.
        XCTAssertEqual(try computed(server), [io: 3, worker: 2])

        let off = try LiveServer(inlineWork: 0)
        XCTAssertEqual(try off.post("/v1/curve", json: Self.cheapCurve).status, 200)
        XCTAssertEqual(try computed(off), [io: 0, worker: 1])
    }
}
