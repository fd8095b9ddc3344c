import Dispatch
import Synchronization

/// Runs a connection's tasks — its route's answer, a stream's writing — on the connection's own
/// thread, between its reads and writes, so the demo server answers whatever the cooperative
/// pool is doing: a test process keeps that pool's few threads busy with its clients, and a
/// server that needed them too could not answer the calls that wait on it.
///
/// Jobs that arrive once the connection has ended (a task finishing its cancellation) run on the
/// global executor.
final class ConnectionExecutor: TaskExecutor {
    private struct Inbox {
        var jobs: [UnownedJob] = []
        var closed = false
    }

    private let inbox = Mutex(Inbox())
    /// Signalled for each job, and by whatever else the thread waits for (a stream's next chunk).
    let wake = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            inbox.jobs.append(job)
            return true
        }
        guard accepted else {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
            return
        }
        wake.signal()
    }

    /// Runs the jobs waiting now; false when there were none.
    @discardableResult
    func runPending() -> Bool {
        let jobs = inbox.withLock { inbox in
            defer { inbox.jobs = [] }
            return inbox.jobs
        }
        for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        return !jobs.isEmpty
    }

    /// Runs jobs until `done` holds, waiting between them.
    func run(until done: () -> Bool) {
        while !done() {
            if !runPending() { wake.wait() }
        }
    }

    /// The connection has ended: later jobs go to the global executor, and those waiting run there.
    func close() {
        let left = inbox.withLock { inbox in
            inbox.closed = true
            defer { inbox.jobs = [] }
            return inbox.jobs
        }
        for job in left { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}
