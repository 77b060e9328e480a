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

/// The choice at the connection limit (`ConnectionTable.makeRoom`).
final class ConnectionLimitTests: XCTestCase {
    func testANewcomerTakesTheLongestWaitingConnectionOfTheHeaviestAddress() {
        let table = ConnectionTable()
        var heavy: [ClientConnection] = []
        for index in 0..<6 {
            let connection = ClientConnection(socket: -1, client: "heavy", now: UInt64(100 + index))
            heavy.append(connection)
            table.insert(connection)
        }
        for index in 0..<3 { table.insert(ClientConnection(socket: -1, client: "middle", now: UInt64(index))) }
        let newcomer = ClientConnection(socket: -1, client: "new", now: 200)
        table.insert(newcomer)
        XCTAssertTrue(table.makeRoom(for: newcomer) === heavy[0], "the oldest head of the address with the most")
        // A connection closing already is not chosen again.
        heavy[0].close()
        XCTAssertTrue(table.makeRoom(for: newcomer) === heavy[1])
    }

    func testEqualSharesDoNotTakeFromEachOther() {
        let table = ConnectionTable()
        for client in ["a", "b"] {
            for index in 0..<5 { table.insert(ClientConnection(socket: -1, client: client, now: UInt64(index))) }
        }
        let sixth = ClientConnection(socket: -1, client: "a", now: 10)
        table.insert(sixth)
        XCTAssertNil(table.makeRoom(for: sixth), "a holds 6, b 5: no room is made for a's sixth")
        table.remove(sixth)
        let newcomer = ClientConnection(socket: -1, client: "c", now: 10)
        table.insert(newcomer)
        XCTAssertNotNil(table.makeRoom(for: newcomer))
        XCTAssertEqual(table.count, 11)
    }
}
