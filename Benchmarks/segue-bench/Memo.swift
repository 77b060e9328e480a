// `segue-bench memo`: what the sample-time memo (`ColumnTextMemo`, docs/http.md "The sample-time
// memo") saves on a curve's JSON body. For each request the response is built and written with the
// memo (warm: the `t` column is the last one written, as while a control point is dragged) and
// without it, taking turns for 7 rounds of 20,000 bodies; a line reports the median round of each
// in ns per body and what the memo saves, as a share of the body and of the whole request through
// the service (its plain case, cache off).
import SegueCodec
import SegueHTTP
import SegueJSON

enum MemoBench {
    static let cases = [
        ("ease-61", #"{"timing": {"type": "cubicBezier", "p1": [0.25, 0.1], "p2": [0.25, 1]}, "samples": 61}"#),
        ("spring-101", "{\(CurveExtrasBench.spring), \"samples\": 101}"),
    ]

    static func run() {
        let service = CurveExtrasBench.service
        for (name, body) in cases {
            guard let json = try? JSONReader.parse(Array(body.utf8), maxDepth: 64),
                  let request = try? CurveRequest.decode(json, limits: Limits()) else { fatalError("\(name) does not decode") }
            let memo = ColumnTextMemo()
            let http = CurveExtrasBench.request(body)
            func written(_ memo: ColumnTextMemo?) -> Int { (try? CurveResponse(request).jsonBytes(timesFrom: memo).count) ?? 0 }
            precondition(written(memo) == written(nil))
            let works: [() -> Int] = [{ written(memo) }, { written(nil) }, { service.respond(to: http).body.count }]
            var rounds: [[Double]] = [[], [], []]
            for _ in 0..<7 {
                for (index, work) in works.enumerated() {
                    let start = CostCalibration.cpuNanoseconds()
                    var bytes = 0
                    for _ in 0..<20_000 { bytes &+= work() }
                    rounds[index].append((CostCalibration.cpuNanoseconds() - start) / 20_000)
                    if bytes == 0 { print("(no bytes)") }
                }
            }
            let (with, without, whole) = (median(rounds[0]), median(rounds[1]), median(rounds[2]))
            print("\(name) body_ns_with_memo=\(Int(with)) body_ns_without=\(Int(without)) saved_of_body=\(share(without - with, without))"
                  + " request_ns=\(Int(whole)) saved_of_request=\(share(without - with, whole))")
        }
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func share(_ part: Double, _ whole: Double) -> String {
        "\((part / whole * 1000).rounded() / 10)%"
    }
}
