import SegueCodec
import SegueJSON
import Synchronization
import XCTest
@testable import SegueHTTP

/// The router and each middleware stage alone, no socket: a stage gets a request and a stand-in
/// for the rest of the pipeline, and does its one job.
extension Router {
    /// A router over `routes` alone, with the handlers' state of a default configuration.
    init(routes: [Route], middleware: MiddlewareChain) {
        self.init(table: RouteTable(routes), handlers: Handlers(limits: Limits(), readiness: Readiness(), metrics: ServiceMetrics()),
                  middleware: middleware)
    }

    /// As the transport answers: the path matched once, and the request dispatched by that match.
    func respond<Admission: WorkAdmission>(to request: HTTPRequest, _ admission: Admission)
        throws(Admission.Refusal) -> HTTPResponse {
        try respond(to: request, route: table.match(request.path), admission)
    }

    /// As a worker answers: any work admitted.
    func respond(to request: HTTPRequest) -> HTTPResponse { respond(to: request, OnWorker()) }
}

final class MiddlewareTests: XCTestCase {
    static let json = Array(String(repeating: #"{"a":[1,2,3]}"#, count: 200).utf8)

    /// A deterministic 200 as a handler's framing gives it.
    func deterministic(_ body: [UInt8] = json, mediaType: String = "application/json") -> HTTPResponse {
        let response = try! Content(mediaType: mediaType, body: body).response()
        XCTAssertTrue(response.isDeterministic)
        return response
    }

    func names(_ response: HTTPResponse) -> [String] { response.headers.map(\.name) }

    // MARK: Router

    func router() -> Router {
        let routes = [
            Router.Route("/get", methods: ["GET"], .answer { _, _ in Content(mediaType: "text/plain", body: Array("g".utf8)) }),
            Router.Route("/post", methods: ["POST"], .answer { _, request throws(Problem) in
                guard !request.body.isEmpty else { throw Problem(.invalidRequest, detail: "empty") }
                return Content(mediaType: "text/plain", body: request.body)
            }),
        ]
        return Router(routes: routes, middleware: MiddlewareChain([]))
    }

    func testRouterMatchesPathAndMethod() {
        let router = router()
        let notFound = router.respond(to: HTTPRequest(method: "GET", path: "/nope"))
        XCTAssertEqual(notFound.status, 404)
        XCTAssertEqual(notFound.header("Content-Type"), "application/problem+json")
        let wrong = router.respond(to: HTTPRequest(method: "DELETE", path: "/post"))
        XCTAssertEqual(wrong.status, 405)
        XCTAssertEqual(wrong.header("Allow"), "POST, OPTIONS")
        XCTAssertEqual(router.respond(to: HTTPRequest(method: "POST", path: "/get")).header("Allow"), "GET, HEAD, OPTIONS")
        XCTAssertEqual(router.respond(to: HTTPRequest(method: "HEAD", path: "/get")).body, Array("g".utf8))
        XCTAssertEqual(router.respond(to: HTTPRequest(method: "POST", path: "/post", body: [1])).body, [1])
        let preflight = router.respond(to: HTTPRequest(method: "OPTIONS", path: "/get"))
        XCTAssertEqual(preflight.status, 204)
        XCTAssertEqual(names(preflight), ["Allow", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers",
                                          "Access-Control-Max-Age"])
        XCTAssertEqual(preflight.header("Access-Control-Allow-Methods"), "GET, HEAD, OPTIONS")
    }

    /// The router dispatches by the match it is given and never matches the path again: over a
    /// table of each kind of route, each answering its own path, every route's match runs that
    /// route's handler whatever path the request carries, and the unmatched one is a 404.
    func testTheRouterDispatchesByTheMatchItIsGiven() throws {
        @Sendable func own(_ path: String) -> Content { Content(mediaType: "text/plain", body: Array(path.utf8)) }
        let table = RouteTable([
            Router.Route("/answer", methods: ["GET"], .answer { _, _ in own("/answer") }),
            Router.Route("/estimate", methods: ["POST"], .estimate { _, _ in Router.Job(work: 1) { own("/estimate") } }),
            Router.Route("/compute", methods: ["POST"], .compute { _, _ in own("/compute") }),
        ])
        let router = Router(table: table, handlers: router().handlers, middleware: MiddlewareChain([]))
        for match in table.matches {
            for path in table.routes.map(\.path) + ["/other", ""] {
                let method = match.isKnown ? table.routes[match.index].methods[0] : "GET"
                let response = router.respond(to: HTTPRequest(method: method, path: path, body: []), route: match, OnWorker())
                if match.isKnown {
                    XCTAssertEqual(String(decoding: response.body, as: UTF8.self), match.label, "\(match.label) for \(path)")
                } else {
                    XCTAssertEqual(response.status, 404, path)
                }
            }
        }
    }

    func testHeaderNamesMatchWithoutRegardToCase() {
        let response = HTTPResponse(status: 200, headers: [HeaderField("Content-Type", "a"), HeaderField("ETag", "b"), HeaderField("X-[x]", "c")])
        XCTAssertEqual(response.header("content-type"), "a")
        XCTAssertEqual(response.header("CONTENT-TYPE"), "a")
        XCTAssertEqual(response.header("etag"), "b")
        XCTAssertNil(response.header("Content\rType"), "only letters fold")
        XCTAssertNil(response.header("X-{x}"), "only letters fold")
        XCTAssertNil(response.header("Content-Typ"))
    }

    func testRouterAnswersAThrownProblemAsProblemJSON() throws {
        let response = router().respond(to: HTTPRequest(method: "POST", path: "/post"))
        XCTAssertEqual(response.status, 422)
        XCTAssertEqual(names(response), ["Content-Type"])
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
        XCTAssertEqual(response.body, Problem(.invalidRequest, detail: "empty").json.bytes)
        XCTAssertFalse(response.isDeterministic)
    }

    func testChainRunsStagesInOrderFirstOutermost() {
        struct Mark: Middleware {
            let name: String
            func respond<Failure: Error>(to request: HTTPRequest, next: (HTTPRequest) throws(Failure) -> HTTPResponse)
                throws(Failure) -> HTTPResponse {
                var request = request
                request.path += ">" + name
                var response = try next(request)
                response.headers.append(HeaderField(name, ""))
                return response
            }
        }
        let chain = MiddlewareChain([Mark(name: "a"), Mark(name: "b"), Mark(name: "c")])
        let response = chain.respond(to: HTTPRequest(method: "GET", path: "")) { request in
            HTTPResponse(status: 200, headers: [HeaderField("path", request.path)])
        }
        XCTAssertEqual(response.headers.map { $0.name + $0.value }, ["path>a>b>c", "c", "b", "a"])
    }

    // MARK: Stages

    func testCORSGoesFirstOnEveryResponse() {
        let cors = CORSMiddleware(setting: "*")
        let response = cors.respond(to: HTTPRequest(method: "GET", path: "/")) { _ in
            HTTPResponse(problem: Problem(.notFound, detail: "x"))
        }
        XCTAssertEqual(response.headers.map { $0.name + ": " + $0.value },
                       ["Access-Control-Allow-Origin: *", "Access-Control-Expose-Headers: ETag",
                        "Content-Type: application/problem+json"])
    }

    /// A list of origins: a listed `Origin` is echoed, any other gets no allow-origin, and every
    /// answer varies by `Origin`.
    func testCORSListEchoesOnlyAListedOrigin() {
        let cors = CORSMiddleware(setting: "https://a.example, https://b.example:8443")
        XCTAssertEqual(cors.allowed, .listed(["https://a.example", "https://b.example:8443"]))
        func headers(origin: String?) -> [String] {
            let request = HTTPRequest(method: "GET", path: "/", headers: origin.map { ["origin": $0] } ?? [:])
            return cors.respond(to: request) { _ in HTTPResponse(problem: Problem(.notFound, detail: "x")) }
                .headers.map { $0.name + ": " + $0.value }
        }
        XCTAssertEqual(headers(origin: "https://b.example:8443"),
                       ["Access-Control-Allow-Origin: https://b.example:8443", "Access-Control-Expose-Headers: ETag",
                        "Content-Type: application/problem+json", "Vary: Origin"])
        for other in ["https://c.example", "https://a.example:443", "https://A.example", nil] {
            XCTAssertEqual(headers(origin: other), ["Content-Type: application/problem+json", "Vary: Origin"], "\(other ?? "none")")
        }
        XCTAssertEqual(CORSMiddleware(setting: "https://a.example, *").allowed, .any)
        XCTAssertEqual(CORSMiddleware(setting: " ").allowed, .any)
    }

    func testCompressionCodesDeterministicBodiesAboveTheThresholdOnly() throws {
        let stage = CompressionMiddleware()
        let gzip = HTTPRequest(method: "POST", path: "/", headers: ["accept-encoding": "gzip"])
        let coded = stage.respond(to: gzip) { _ in deterministic() }
        XCTAssertEqual(coded.header("Content-Encoding"), "gzip")
        XCTAssertEqual(coded.uncodedBody, Self.json)
        XCTAssertEqual(Array(coded.body.prefix(2)), [0x1F, 0x8B])
        XCTAssertEqual(names(coded), ["Content-Type", "Vary", "Content-Encoding"])
        // Not asked, too small, not deterministic, or not a 200: untouched.
        XCTAssertNil(stage.respond(to: HTTPRequest(method: "POST", path: "/")) { _ in deterministic() }.header("Content-Encoding"))
        XCTAssertNil(stage.respond(to: gzip) { _ in deterministic(Array(Self.json.prefix(1024))) }.header("Content-Encoding"))
        var healthz = deterministic()
        healthz.isDeterministic = false
        XCTAssertNil(stage.respond(to: gzip) { _ in healthz }.header("Content-Encoding"))
        // A streamed body is marked, and coded while it is sent.
        var streamed = deterministic([])
        streamed.stream = SectionedBody(sections: [], estimatedBytes: 1 << 30)
        let codedStream = stage.respond(to: gzip) { _ in streamed }
        XCTAssertEqual(codedStream.header("Content-Encoding"), "gzip")
        XCTAssertTrue(codedStream.gzipsStream)
        XCTAssertFalse(stage.respond(to: HTTPRequest(method: "POST", path: "/")) { _ in streamed }.gzipsStream)
        let problem = HTTPResponse(problem: Problem(.invalidRequest, detail: String(repeating: "x", count: 2000)))
        XCTAssertNil(stage.respond(to: gzip) { _ in problem }.header("Content-Encoding"))
    }

    func testEntityTagNamesIdentityBytesAndCoding() throws {
        let stage = EntityTagMiddleware()
        let request = HTTPRequest(method: "POST", path: "/", headers: ["accept-encoding": "gzip"])
        let plain = stage.respond(to: request) { _ in deterministic() }
        XCTAssertEqual(plain.header("ETag"), EntityTag.make(body: Self.json, contentType: "application/json", contentCoding: nil))
        XCTAssertEqual(names(plain).last, "ETag")
        let coded = stage.respond(to: request) { r in CompressionMiddleware().respond(to: r) { _ in deterministic() } }
        XCTAssertEqual(coded.header("ETag"), EntityTag.make(body: Self.json, contentType: "application/json", contentCoding: "gzip"))
        XCTAssertNil(coded.uncodedBody, "dropped once tagged")
        XCTAssertEqual(names(coded), ["Content-Type", "Vary", "Content-Encoding", "ETag"])
        var healthz = deterministic()
        healthz.isDeterministic = false
        XCTAssertNil(stage.respond(to: request) { _ in healthz }.header("ETag"))
    }

    /// A streamed body is tagged from its request and the output revision without being written:
    /// not one element runs. Each input of the tag changes it; the request's headers do not.
    /// The tag of a body read in four lanes (64 bytes and more) still changes with every byte —
    /// in each lane, across the lanes' blocks, in the words after them and in the last bytes —
    /// and with the length around the lane threshold.
    func testEntityTagChangesWithEveryByteAndLength() {
        func tag(_ body: [UInt8]) -> String { EntityTag.make(body: body, contentType: "application/json", contentCoding: nil) }
        let body = (0..<203).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let base = tag(body)
        var tags: Set<String> = [base]
        for i in body.indices {
            var changed = body
            changed[i] ^= 0x01
            tags.insert(tag(changed))
        }
        XCTAssertEqual(tags.count, body.count + 1, "a one-bit change anywhere changes the tag")
        let lengths = [0, 1, 8, 31, 32, 63, 64, 65, 95, 96, 97, 128, 203]
        XCTAssertEqual(Set(lengths.map { tag(Array(body.prefix($0))) }).count, lengths.count, "each length its own tag")
        var swapped = body
        swapped.swapAt(0, 8)  // the same words in other lanes
        XCTAssertNotEqual(tag(swapped), base)
    }

    func testStreamIsTaggedFromItsRequestWithoutBeingWritten() {
        let written = Atomic<Int>(0)
        var streamed = deterministic([])
        streamed.stream = SectionedBody(sections: [SectionedBody.Section(prefix: [], count: 10_000) { w, _ in
            written.add(1, ordering: .relaxed)
            w.byte(0x30)
        }], estimatedBytes: 1 << 20)
        func tag(_ request: HTTPRequest, coding: String? = nil) -> String? {
            var response = streamed
            if let coding { response.headers.append(HeaderField("Content-Encoding", coding)) }
            return EntityTagMiddleware().respond(to: request) { _ in response }.header("ETag")
        }
        let body = Array(#"{"fps":60}"#.utf8)
        let request = HTTPRequest(method: "POST", path: "/v1/render", body: body)
        let base = tag(request)
        XCTAssertEqual(written.load(ordering: .relaxed), 0)
        XCTAssertEqual(base, EntityTag.make(source: RepresentationSource(request), contentType: "application/json", contentCoding: nil))
        XCTAssertEqual(base?.count, 18)
        XCTAssertEqual(tag(HTTPRequest(method: "POST", path: "/v1/render", headers: ["accept": "*/*"], body: body)), base)
        let others = [
            tag(request, coding: "gzip"),
            tag(HTTPRequest(method: "POST", path: "/v1/curve", body: body)),
            tag(HTTPRequest(method: "POST", path: "/v1/render", body: Array(#"{"fps":61}"#.utf8))),
            tag(HTTPRequest(method: "POST", path: "/v1/render", query: ["format": "csv"], body: body)),
            tag(HTTPRequest(method: "POST", path: "/v1/render", query: ["expand": "true"], body: body)),
            tag(HTTPRequest(method: "POST", path: "/v1/render", query: ["tolerance": "0.01"], body: body)),
            tag(HTTPRequest(method: "POST", path: "/v1/render", query: ["tolerance": ""], body: body)),
            // Length prefixes keep fields apart: "0.0" + "1" is not "0.01".
            tag(HTTPRequest(method: "POST", path: "/v1/render", query: ["expand": "0.0", "tolerance": "1"], body: body)),
        ]
        XCTAssertEqual(Set(others + [base]).count, others.count + 1, "every input changes the tag")
        XCTAssertEqual(written.load(ordering: .relaxed), 0)
    }

    func testConditionalRequestAnswers304OnAMatchingTag() {
        let stage = ConditionalRequestMiddleware()
        var tagged = deterministic()
        tagged.headers += [HeaderField("Content-Encoding", "gzip"), HeaderField("ETag", #""abc""#)]
        for condition in [#""abc""#, "*", #""x", "abc""#, #"W/"abc""#] {
            let response = stage.respond(to: HTTPRequest(method: "POST", path: "/", headers: ["if-none-match": condition])) { _ in tagged }
            XCTAssertEqual(response.status, 304, condition)
            XCTAssertEqual(names(response), ["Vary", "ETag"], condition)
            XCTAssertTrue(response.body.isEmpty)
        }
        XCTAssertEqual(stage.respond(to: HTTPRequest(method: "POST", path: "/", headers: ["if-none-match": #""x""#])) { _ in tagged }.status, 200)
        XCTAssertEqual(stage.respond(to: HTTPRequest(method: "POST", path: "/")) { _ in tagged }.status, 200)
        let problem = HTTPResponse(problem: Problem(.invalidRequest, detail: "x"))
        XCTAssertEqual(stage.respond(to: HTTPRequest(method: "POST", path: "/", headers: ["if-none-match": "*"])) { _ in problem }.status, 422)
    }

    func testResponseCacheAnswersIdenticalPostsAndKeepsOnlyDeterministic200s() {
        let cache = ResponseCache(capacity: 8, byteLimit: 1 << 20)
        let metrics = ServiceMetrics()
        let stage = ResponseCacheMiddleware(cache: cache, metrics: metrics)
        var calls = 0
        func compute(_ request: HTTPRequest) -> HTTPResponse {
            calls += 1
            return request.body == [0] ? HTTPResponse(problem: Problem(.invalidRequest, detail: "x")) : deterministic()
        }
        let post = HTTPRequest(method: "POST", path: "/v1/curve", body: [1])
        XCTAssertEqual(stage.respond(to: post, next: compute).body, Self.json)
        XCTAssertEqual(stage.respond(to: post, next: compute).body, Self.json)
        XCTAssertEqual(calls, 1, "the second answer is the cached one")
        let exposition = String(decoding: metrics.render(), as: UTF8.self)
        XCTAssertTrue(exposition.contains("segue_cache_hits_total 1\n"), exposition)
        XCTAssertTrue(exposition.contains("segue_cache_misses_total 1\n"), exposition)
        _ = stage.respond(to: HTTPRequest(method: "POST", path: "/v1/curve", body: [0]), next: compute)
        _ = stage.respond(to: HTTPRequest(method: "POST", path: "/v1/curve", body: [0]), next: compute)
        XCTAssertEqual(calls, 3, "problems are not kept")
        _ = stage.respond(to: HTTPRequest(method: "GET", path: "/v1/presets"), next: compute)
        _ = stage.respond(to: HTTPRequest(method: "GET", path: "/v1/presets"), next: compute)
        XCTAssertEqual(calls, 5, "only POSTs are cached")
    }

    /// The service's order: a cached gzip answer revalidates to a 304 carrying the CORS headers,
    /// and the tag it revalidates is the one computed before the cache kept it.
    func testServiceOrder() throws {
        let service = SegueService()
        let body = Array(#"{"timing": "ease", "samples": 200}"#.utf8)
        let first = service.respond(to: HTTPRequest(method: "POST", path: "/v1/curve", headers: ["accept-encoding": "gzip"], body: body))
        XCTAssertEqual(names(first), ["Access-Control-Allow-Origin", "Access-Control-Expose-Headers", "Content-Type", "Vary",
                                      "Content-Encoding", "ETag"])
        let tag = try XCTUnwrap(first.header("ETag"))
        let again = service.respond(to: HTTPRequest(method: "POST", path: "/v1/curve",
                                                    headers: ["accept-encoding": "gzip", "if-none-match": tag], body: body))
        XCTAssertEqual(again.status, 304)
        XCTAssertEqual(names(again), ["Access-Control-Allow-Origin", "Access-Control-Expose-Headers", "Vary", "ETag"])
        XCTAssertEqual(again.header("ETag"), tag)
        let health = service.respond(to: HTTPRequest(method: "GET", path: "/healthz", headers: ["if-none-match": "*"]))
        XCTAssertEqual(names(health), ["Access-Control-Allow-Origin", "Access-Control-Expose-Headers", "Content-Type", "Cache-Control"])
        XCTAssertEqual(health.status, 200)
    }
}
