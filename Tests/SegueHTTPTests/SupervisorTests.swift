import XCTest
@testable import SegueHTTP

/// The supervisor's rounds without sockets (a connection with no descriptor is only marked).
final class SupervisorTests: XCTestCase {
    func supervisor(drainingSince: UInt64? = nil) -> (Supervisor, ConnectionTable) {
        let table = ConnectionTable()
        return (Supervisor(settings: Supervisor.Settings(headerTimeout: 2), table: table, drainingSince: { drainingSince }), table)
    }

    func isClosing(_ connection: ClientConnection) -> Bool {
        if case .closing = connection.phase { return true }
        return false
    }

    func testHeaderDeadline() {
        let (supervisor, table) = supervisor()
        let second: UInt64 = 1_000_000_000
        let early = ClientConnection(socket: -1, client: "a", now: 10 * second)
        // Set while a round runs: later than the round's clock, which must not read as overdue.
        let late = ClientConnection(socket: -1, client: "b", now: 13 * second)
        table.insert(early)
        table.insert(late)
        supervisor.round(now: 11 * second)
        XCTAssertFalse(isClosing(early))
        XCTAssertFalse(isClosing(late))
        supervisor.round(now: 12 * second)
        XCTAssertTrue(isClosing(early), "2 s without a complete request head")
        XCTAssertFalse(isClosing(late), "a deadline in the future")
    }

    func testDrainingClosesOnlyIdleConnectionsAfterTheGrace() {
        let second: UInt64 = 1_000_000_000
        let (supervisor, table) = supervisor(drainingSince: 10 * second)
        let idle = ClientConnection(socket: -1, client: "a", now: 10 * second)
        let begun = ClientConnection(socket: -1, client: "a", now: 10 * second)
        begun.requestBegun.store(true, ordering: .relaxed)
        table.insert(idle)
        table.insert(begun)
        supervisor.round(now: 10 * second + second / 2)
        XCTAssertFalse(isClosing(idle), "within the grace a poller can still read /readyz's 503")
        supervisor.round(now: 11 * second)
        XCTAssertTrue(isClosing(idle))
        XCTAssertFalse(isClosing(begun), "a request line has arrived: it is answered, not cut")
    }
}
