import SegueCodec
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The transport's own thread, for what libmicrohttpd has no option for (docs/http.md "Connections"):
///
/// - **Header deadline**: a connection that has not sent a complete request header within
///   `headerTimeout` of opening, or of its previous response, is closed. libmicrohttpd's own
///   timeout counts inactivity, so a client trickling a byte at a time would keep it alive.
/// - **Body deadline** (`BodyPace`): a request whose body falls behind its pace is answered 408
///   and its connection closed, for the same reason.
/// - **Cancellation**: a request waiting for or running on a worker is cancelled when its deadline
///   passes or its client has closed the connection, so that nobody's abandoned work keeps a core;
///   a batch being sent, when its client has closed the connection (a batch has no deadline of
///   its own: each line is held to the work limit).
/// - **Draining**: idle keep-alive connections are closed once `drainGrace` has passed, so that a
///   client polling `/readyz` on a kept-alive connection sees the 503 before its connection ends.
/// - **Lingering close** (as nginx's `lingering_close`): after a refused body, what the client still
///   sends is read and dropped for at most `lingerTime` and `lingerBytes`, then the socket is
///   closed; closing at once with unread data would reset the connection and the client might
///   never read the 413.
///
/// A round runs every `period` (100 ms), which is the precision of these deadlines; each round
/// also writes the log lines gathered since the last (`LogBuffer`).
final class Supervisor: Sendable {
    struct Settings: Sendable {
        /// Seconds to a complete request header; 0.1…3600, default 10.
        var headerTimeout = 10.0
        /// Seconds a refused body is read and dropped at most; default 5 (nginx's `lingering_time` is 30).
        var lingerTime = 5.0
        /// Bytes a refused body is read and dropped at most; default 16 MiB.
        var lingerBytes = 16 << 20
        /// The body deadline (`--body-timeout`, `--body-min-rate`).
        var bodyPace = BodyPace()
        /// Seconds idle connections stay open after draining begins; default 1.
        var drainGrace = 1.0
    }

    private struct Lingering {
        let socket: Int32
        let until: UInt64
        var bytesLeft: Int
    }

    static let periodMilliseconds: Int32 = 100

    let settings: Settings
    let table: ConnectionTable
    /// When draining began (monotonic ns), or nil.
    let drainingSince: @Sendable () -> UInt64?
    /// Called after every round.
    let eachRound: @Sendable () -> Void
    /// Called after a round that found no request under way, at most once a second.
    let whenQuiet: @Sendable () -> Void
    /// Answers a request refused while its body arrives (the transport's direct write).
    let refuseBody: @Sendable (Problem, Exchange, ClientConnection) -> Void
    private let lastQuiet = Atomic<UInt64>(0)
    private let lingering = Mutex<[Lingering]>([])
    private let running = Atomic<Bool>(true)
    private let thread = Mutex<pthread_t?>(nil)

    init(settings: Settings, table: ConnectionTable, drainingSince: @escaping @Sendable () -> UInt64?,
         eachRound: @escaping @Sendable () -> Void = {}, whenQuiet: @escaping @Sendable () -> Void = {},
         refuseBody: @escaping @Sendable (Problem, Exchange, ClientConnection) -> Void = { _, _, _ in }) {
        self.settings = settings
        self.table = table
        self.drainingSince = drainingSince
        self.eachRound = eachRound
        self.whenQuiet = whenQuiet
        self.refuseBody = refuseBody
    }

    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var started = pthread_t()
        if pthread_create(&started, nil, supervisorMain, context) == 0 {
            thread.withLock { $0 = started }
        } else {
            Unmanaged<Supervisor>.fromOpaque(context).release()
        }
    }

    /// Ends the thread and closes what still lingers.
    func stop() {
        running.store(false, ordering: .relaxed)
        if let started = thread.withLock({ current -> pthread_t? in
            defer { current = nil }
            return current
        }) {
            pthread_join(started, nil)
        }
        for entry in lingering.withLock({ $0 }) { close(entry.socket) }
        lingering.withLock { $0 = [] }
    }

    /// Takes over `socket` (a connection libmicrohttpd has closed after a refused body): the
    /// client gets end-of-file after the answer, and what it still sends is dropped.
    func linger(_ socket: Int32) {
        shutdown(socket, Int32(SHUT_WR))
        let until = MonotonicClock.now() &+ MonotonicClock.nanoseconds(settings.lingerTime)
        lingering.withLock { $0.append(Lingering(socket: socket, until: until, bytesLeft: settings.lingerBytes)) }
    }

    fileprivate func run() {
        while running.load(ordering: .relaxed) {
            drainLingering(waitMilliseconds: Self.periodMilliseconds)
            round(now: MonotonicClock.now())
            eachRound()
        }
    }

    /// One pass over the open connections.
    func round(now: UInt64) {
        let headerTimeout = MonotonicClock.nanoseconds(settings.headerTimeout)
        let closesIdle = drainingSince().map { $0 &+ MonotonicClock.nanoseconds(settings.drainGrace) <= now } ?? false
        var quiet = true
        for connection in table.all {
            switch connection.phase {
            case .awaitingRequest(let since):
                // `since` may be later than `now` (set while this round runs): compare, never subtract.
                if since &+ headerTimeout <= now || (closesIdle && connection.isIdle) { connection.close() }
            case .inRequest(let exchange):
                quiet = false
                if exchange.isComputing && (now >= exchange.deadline.load(ordering: .relaxed) || connection.peerHasClosed) {
                    exchange.cancellation.cancel()
                } else if exchange.isProducing && connection.peerHasClosed {
                    exchange.cancellation.cancel()
                } else if exchange.refuseBody(when: { settings.bodyPace.isOverdue(since: exchange.started, received: $0, now: now) }) {
                    refuseBody(settings.bodyPace.problem, exchange, connection)
                    connection.close()
                }
            case .closing:
                break
            }
        }
        if quiet && lastQuiet.load(ordering: .relaxed) &+ 1_000_000_000 <= now {
            lastQuiet.store(now, ordering: .relaxed)
            whenQuiet()
        }
    }

    /// Waits up to `waitMilliseconds` for lingering sockets to be readable, drops what they
    /// received, and closes those at end-of-file or past their bounds.
    private func drainLingering(waitMilliseconds: Int32) {
        let entries = lingering.withLock { $0 }
        guard !entries.isEmpty else {
            usleep(UInt32(waitMilliseconds) * 1000)
            return
        }
        var polls = entries.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
        _ = poll(&polls, nfds_t(polls.count), waitMilliseconds)
        let now = MonotonicClock.now()
        var finished = Set<Int32>()
        var remaining: [Int32: Int] = [:]
        for (entry, polled) in zip(entries, polls) {
            var left = entry.bytesLeft
            let open = polled.revents == 0 || Self.discard(entry.socket, budget: &left)
            if !open || left <= 0 || now >= entry.until {
                finished.insert(entry.socket)
            } else {
                remaining[entry.socket] = left
            }
        }
        lingering.withLock { list in
            list.removeAll { finished.contains($0.socket) }
            for index in list.indices { list[index].bytesLeft = remaining[list[index].socket] ?? list[index].bytesLeft }
        }
        for socket in finished { close(socket) }
    }

    /// Reads and drops what `socket` holds; false at end-of-file or on an error.
    private static func discard(_ socket: Int32, budget: inout Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while budget > 0 {
            let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 {
                budget -= count
                continue
            }
            return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        }
        return true
    }
}

private func supervisorMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<Supervisor>.fromOpaque(context).takeRetainedValue().run()
    return nil
}

/// The body deadline (docs/http.md "Connections"), as Apache's `mod_reqtimeout` paces a body: it
/// must be complete within `grace` seconds of its head, plus one second for each `minRate` bytes
/// received. A client that keeps up the rate on average keeps its connection, however long the
/// body; one that trickles a byte every few seconds, which resets libmicrohttpd's inactivity
/// timeout each time, loses it after about `grace`. `minRate` 0 holds the whole body to `grace`.
struct BodyPace: Sendable, Equatable {
    /// Seconds (`--body-timeout`).
    var grace = 10.0
    /// Bytes a second (`--body-min-rate`).
    var minRate = 500

    /// Whether a body whose head was complete at `since` (monotonic ns), with `received` bytes so
    /// far, is past its deadline at `now`. `since` may be later than `now` (a head read while a
    /// round runs): not overdue.
    func isOverdue(since: UInt64, received: Int, now: UInt64) -> Bool {
        guard now > since else { return false }
        let allowed = grace + (minRate > 0 ? Double(received) / Double(minRate) : 0)
        return Double(now - since) >= allowed * 1e9
    }

    /// The 408 a request past its body deadline gets.
    var problem: Problem {
        let pace = minRate > 0 ? "\(grace) s, and a second more for every \(minRate) bytes received" : "\(grace) s"
        return Problem(.requestTimeout, detail: "the request body did not arrive within its deadline of \(pace)")
    }
}
