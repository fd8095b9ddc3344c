import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A task executor whose one thread has a large stack, for evaluations that recurse deeply.
///
/// Script calls nest native calls: a script may recurse ``Interpreter/maximumCallDepth`` calls
/// deep only on a thread whose stack holds them (tens of megabytes in a debug build). Elsewhere a
/// stack guard ends the recursion earlier, with a diagnostic. Run evaluations here when the
/// host's own threads have small stacks:
///
/// ```swift
/// let result = await withTaskExecutorPreference(LargeStackExecutor.shared) {
///     await interpreter.evaluate(source)
/// }
/// ```
public final class LargeStackExecutor: TaskExecutor {
    /// One executor for the process, with a 512 MiB stack (reserved, committed only as used).
    public static let shared = LargeStackExecutor(stackSize: 512 << 20)

    private let jobs = Mutex<[UnownedJob]>([])
    /// Signalled once per job; the thread takes every queued job per wake-up.
    private let signal = DispatchSemaphore(value: 0)

    /// Starts the executor's thread.
    ///
    /// - Parameter stackSize: The thread's stack, in bytes.
    public init(stackSize: Int) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, stackSize)
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<LargeStackExecutor>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        pthread_attr_destroy(&attributes)
        if started != 0 { Unmanaged<LargeStackExecutor>.fromOpaque(context).release() }
    }

    /// Runs a job on the executor's thread; see `TaskExecutor`.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        signal.signal()
    }

    private func run() {
        while true {
            signal.wait()
            let batch = jobs.withLock { jobs -> [UnownedJob] in
                defer { jobs.removeAll(keepingCapacity: true) }
                return jobs
            }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
