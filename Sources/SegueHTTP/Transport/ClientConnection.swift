import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection, from libmicrohttpd's "started" notification to its "closed" one: what the
/// supervisor needs to enforce the header deadline, notice a client that has gone, close idle
/// connections while draining, and linger after a refused body (docs/http.md "Connections").
///
/// The connection keeps its own duplicate of the socket. `shutdown(2)` acts on the socket, not on
/// a descriptor, so the supervisor can end a connection through the duplicate from its own thread
/// without racing libmicrohttpd's `close` (a closed descriptor number may be reused at once; the
/// duplicate keeps naming this socket). The duplicate also keeps the socket open after
/// libmicrohttpd closes it, which is what a lingering close needs.
final class ClientConnection: Sendable {
    enum Phase: Sendable {
        /// Waiting for a complete request header since this time (monotonic ns): just opened, or
        /// kept alive after a response.
        case awaitingRequest(since: UInt64)
        /// A request was read; its exchange runs until libmicrohttpd reports it completed.
        case inRequest(Exchange)
        /// Told to close (header deadline, draining); libmicrohttpd closes it at its next read.
        case closing
    }

    struct State: Sendable {
        var phase: Phase
        /// The request target had a NUL, a control byte or invalid UTF-8 (set while libmicrohttpd
        /// unescapes the target, read when the request reaches the access handler).
        var targetRejected = false
        /// A body was refused: after libmicrohttpd closes the connection, read and discard what
        /// the client still sends instead of resetting it.
        var lingers = false
        /// libmicrohttpd has closed the connection and the duplicate was closed or handed over to
        /// linger: its number may already name another socket, so nothing acts on it any more.
        var released = false
    }

    /// Our duplicate of libmicrohttpd's socket (-1 when `dup` failed: then nothing is enforced).
    let socket: Int32
    /// The client's address (without the port): whose turn it is on the workers.
    let client: String
    let state: Mutex<State>
    /// A request line has arrived and its request is not yet completed: the connection is not idle.
    /// An atomic flag beside the lock, not in it: set on every request by a plain store (relaxed
    /// ordering), where a hold of the lock costs two atomic read-modify-writes. `isIdle` reads it
    /// apart from the phase, as it did under the lock; either order of the two updates errs
    /// towards "not idle".
    let requestBegun = Atomic<Bool>(false)

    init(socket: Int32, client: String, now: UInt64) {
        self.socket = socket
        self.client = client
        state = Mutex(State(phase: .awaitingRequest(since: now)))
    }

    var phase: Phase { state.withLock { $0.phase } }

    /// Ends the connection from any thread: libmicrohttpd reads end-of-file and closes it. Under the
    /// lock, so that it never reaches a socket that took the duplicate's number after its close.
    func close() {
        state.withLock { state in
            state.phase = .closing
            if socket >= 0 && !state.released { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Writes `bytes` onto the connection from any thread, without waiting, and has it linger
    /// after libmicrohttpd closes it (an answer to a refused body).
    func writeAndLinger(_ bytes: [UInt8]) {
        state.withLock { state in
            state.lingers = true
            guard socket >= 0 && !state.released else { return }
            _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
    }

    /// Since when the connection has waited for the client: for a complete head since it opened or
    /// since its last answer, or for its body since its head. Nil while its request is computed or
    /// answered, or once it is closing.
    var waitingSince: UInt64? {
        switch phase {
        case .awaitingRequest(let since): since
        case .inRequest(let exchange): exchange.isReceivingBody ? exchange.started : nil
        case .closing: nil
        }
    }

    /// True when the client has closed its side: a read would return end-of-file. Data already
    /// sent (a pipelined request) is left in place.
    var peerHasClosed: Bool { peek() == .closed }

    /// True when the connection is between requests with nothing received: no request line seen
    /// and no byte waiting in the socket. Only such a connection is closed while draining, so a
    /// request already on its way is still answered.
    var isIdle: Bool {
        guard case .awaitingRequest = phase, !requestBegun.load(ordering: .relaxed) else { return false }
        return peek() == .nothing
    }

    private enum Peeked { case data, nothing, closed }

    /// What a read would find, without taking it.
    private func peek() -> Peeked {
        guard socket >= 0 else { return .nothing }
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count > 0 { return .data }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .nothing }
        return .closed
    }
}

/// The open connections, for the supervisor's rounds and the open-connections gauge, with how many
/// each client address holds, for the choice made at the connection limit (`makeRoom`).
final class ConnectionTable: Sendable {
    private struct Entries {
        var connections: [ObjectIdentifier: ClientConnection] = [:]
        var perClient: [String: Int] = [:]
    }

    private let entries = Mutex(Entries())

    func insert(_ connection: ClientConnection) {
        entries.withLock {
            $0.connections[ObjectIdentifier(connection)] = connection
            $0.perClient[connection.client, default: 0] += 1
        }
    }

    func remove(_ connection: ClientConnection) {
        entries.withLock {
            guard $0.connections.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
            let left = ($0.perClient[connection.client] ?? 1) - 1
            $0.perClient[connection.client] = left > 0 ? left : nil
        }
    }

    var count: Int { entries.withLock { $0.connections.count } }

    /// A snapshot, so that a round never holds the lock while it acts.
    var all: [ClientConnection] { entries.withLock { Array($0.connections.values) } }

    /// At the connection limit, the connection to close so that `newcomer` (already counted) is
    /// served (docs/http.md "Connections", at the limit): the one of the address holding the most
    /// connections that has waited longest for its head or its body — never one whose request is
    /// computed or answered. Only when that address holds at least two more connections than the
    /// newcomer's, so that a few addresses cannot keep the others out, and addresses of equal
    /// shares do not take connections from each other. Nil: close the newcomer instead.
    func makeRoom(for newcomer: ClientConnection) -> ClientConnection? {
        let candidates: [ClientConnection] = entries.withLock { entries in
            let mine = entries.perClient[newcomer.client] ?? 1
            guard let heaviest = entries.perClient.max(by: { $0.value < $1.value }), heaviest.value >= mine + 2 else { return [] }
            return entries.connections.values.filter { $0.client == heaviest.key }
        }
        var chosen: (connection: ClientConnection, since: UInt64)?
        for candidate in candidates {
            guard let since = candidate.waitingSince, since < chosen?.since ?? .max else { continue }
            chosen = (candidate, since)
        }
        return chosen?.connection
    }
}
