import DequeModule
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The threads that compute answers (`/v1/curve`, `/v1/render`), apart from libmicrohttpd's I/O
/// threads, so that a costly request never stops a thread from answering `/healthz`, `/readyz` or
/// `/metrics` or from moving bytes (docs/http.md "Thread model").
///
/// Fair between clients: each client (its address) has its own first-in first-out queue, and the
/// threads take from the clients in turn, so a client that sends hundreds of requests delays
/// another client's request by about one job per busy client, not by its whole backlog. A client
/// may have its fair share of `capacity` waiting (`capacity` ÷ the clients waiting, itself counted),
/// and at most twice `capacity` jobs wait in all, so a crowd cannot fill the queue against a
/// newcomer; `submit` refuses a job past either bound (the transport answers 503 at once rather
/// than let the wait grow without bound).
///
/// - `threads`: 1…256, default the core count.
/// - `capacity`: jobs waiting for a thread, 1…1,000,000, default 64 per thread.
final class WorkerPool: Sendable {
    typealias Job = @Sendable () -> Void
    /// The workers' nice value (0 is the I/O threads'; 19 the lowest priority).
    static let niceness: Int32 = 10

    private struct Queue {
        /// Each waiting client's jobs, in arrival order.
        var jobs: [String: Deque<Job>] = [:]
        /// The clients with waiting jobs, in the order they are served.
        var turns = Deque<String>()
        var count = 0
        var stopping = false

        mutating func append(_ job: @escaping Job, client: String) {
            if jobs[client, default: []].isEmpty { turns.append(client) }
            jobs[client, default: []].append(job)
            count += 1
        }

        /// The first job of the client whose turn it is; that client goes to the back of the line.
        mutating func next() -> Job? {
            guard let client = turns.popFirst(), var waiting = jobs[client], let job = waiting.popFirst() else { return nil }
            if waiting.isEmpty {
                jobs[client] = nil
            } else {
                jobs[client] = waiting
                turns.append(client)
            }
            count -= 1
            return job
        }
    }

    private let queue = Mutex(Queue())
    private let capacity: Int
    /// Counts queued jobs (and, when stopping, one wake-up per thread).
    /// A POSIX semaphore: safe to use from any thread, which the type system cannot see.
    nonisolated(unsafe) private let available: UnsafeMutablePointer<sem_t>
    private let threads: Mutex<[pthread_t]> = Mutex([])

    init(threads count: Int, capacity: Int) {
        self.capacity = capacity
        available = .allocate(capacity: 1)
        sem_init(available, 0, 0)
        var started: [pthread_t] = []
        for _ in 0..<max(1, count) {
            let context = Unmanaged.passRetained(self).toOpaque()
            var thread = pthread_t()
            if pthread_create(&thread, nil, workerMain, context) == 0 {
                started.append(thread)
            } else {
                Unmanaged<WorkerPool>.fromOpaque(context).release()
            }
        }
        threads.withLock { $0 = started }
    }

    deinit {
        sem_destroy(available)
        available.deallocate()
    }

    /// Queues `job` in `client`'s line; false when the queue is full or the pool is stopping.
    func submit(client: String, _ job: @escaping Job) -> Bool {
        let queued = queue.withLock { queue -> Bool in
            let waiting = queue.jobs[client]?.count ?? 0
            let clients = queue.jobs.count + (waiting == 0 ? 1 : 0)
            guard !queue.stopping, queue.count < 2 * capacity, waiting < max(1, capacity / clients) else { return false }
            queue.append(job, client: client)
            return true
        }
        if queued { sem_post(available) }
        return queued
    }

    /// Queues the next part of work already admitted (a batch's producer, `BatchPipe`) at the back
    /// of `client`'s line, past the bounds `submit` applies: it was counted when it was admitted.
    /// False only when the pool is stopping.
    func submitContinuation(client: String, _ job: @escaping Job) -> Bool {
        let queued = queue.withLock { queue -> Bool in
            guard !queue.stopping else { return false }
            queue.append(job, client: client)
            return true
        }
        if queued { sem_post(available) }
        return queued
    }

    /// Jobs waiting for a thread.
    var waiting: Int { queue.withLock { $0.count } }

    /// Lets the queued jobs run, then ends the threads and waits for them.
    func stop() {
        let running = threads.withLock { current -> [pthread_t] in
            defer { current = [] }
            return current
        }
        queue.withLock { $0.stopping = true }
        for _ in running { sem_post(available) }
        for thread in running { pthread_join(thread, nil) }
    }

    /// One thread's loop: take a job, run it; end when stopping and nothing is queued.
    fileprivate func work() {
        while true {
            while sem_wait(available) != 0 {}  // EINTR
            let next = queue.withLock { queue -> Job? in
                queue.next()
            }
            guard let next else { return }  // a stop wake-up with nothing queued
            next()
        }
    }
}

private func workerMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let pool = Unmanaged<WorkerPool>.fromOpaque(context).takeRetainedValue()
    // Below the I/O threads: when every core computes, libmicrohttpd's threads still get the CPU
    // first, so `/healthz`, `/readyz` and `/metrics` answer and bytes keep moving (Linux applies
    // a thread's nice value to that thread alone; `who` 0 is the calling thread).
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, WorkerPool.niceness)
    pool.work()
    return nil
}
