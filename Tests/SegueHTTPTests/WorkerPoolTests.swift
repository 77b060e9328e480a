import Foundation
import Synchronization
import XCTest
@testable import SegueHTTP

/// The worker pool: fair between clients, bounded, and every queued job runs before `stop` returns.
final class WorkerPoolTests: XCTestCase {
    func testClientsTakeTurnsSoABacklogDoesNotDelayAnotherClient() {
        let pool = WorkerPool(threads: 1, capacity: 100)
        let gate = DispatchSemaphore(value: 0)
        let order = Mutex<[String]>([])
        // Hold the only thread so that everything below queues.
        XCTAssertTrue(pool.submit(client: "hold") { gate.wait() })
        for i in 0..<10 {
            XCTAssertTrue(pool.submit(client: "10.0.0.1") { order.withLock { $0.append("a\(i)") } })
        }
        XCTAssertTrue(pool.submit(client: "10.0.0.2") { order.withLock { $0.append("b0") } })
        XCTAssertTrue(pool.submit(client: "10.0.0.1") { order.withLock { $0.append("a10") } })
        gate.signal()
        pool.stop()
        let ran = order.withLock { $0 }
        XCTAssertEqual(ran.count, 12, "stop lets every queued job run")
        XCTAssertEqual(Array(ran.prefix(3)), ["a0", "b0", "a1"], "the second client waits one job, not ten")
        XCTAssertEqual(ran.filter { $0.hasPrefix("a") }, (0...10).map { "a\($0)" }, "one client's jobs keep their order")
    }

    func testEachClientGetsItsShareOfTheQueueAndAStoppedPoolTakesNothing() {
        let pool = WorkerPool(threads: 1, capacity: 2)
        let gate = DispatchSemaphore(value: 0)
        let running = DispatchSemaphore(value: 0)
        XCTAssertTrue(pool.submit(client: "x") {
            running.signal()
            gate.wait()
        })
        running.wait()  // the only thread is busy: everything below waits
        var accepted = 0
        while pool.submit(client: "y", {}) { accepted += 1 }
        XCTAssertEqual(accepted, 2)
        XCTAssertEqual(pool.waiting, 2)
        XCTAssertTrue(pool.submit(client: "z", {}), "a newcomer gets its share of a queue one client filled")
        XCTAssertFalse(pool.submit(client: "z", {}), "its share of 2 with two clients waiting is 1")
        gate.signal()
        pool.stop()
        XCTAssertFalse(pool.submit(client: "y", {}))
    }
}
