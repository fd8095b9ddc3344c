#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to a child that no longer reads raises `SIGPIPE`, which ends a process that has
/// not ignored it — a host embedding Typist, for one. Rather than change the whole process's
/// disposition, a writer holds the signal back on its own thread.
enum BrokenPipe {
    /// Runs `body` with `SIGPIPE` blocked on this thread, then takes off a `SIGPIPE` it raised
    /// (a write's is sent to the writing thread) before the mask is as it was.
    static func withSignalHeld<T>(_ body: () throws -> T) rethrows -> T {
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
        defer {
            if sigismember(&previous, SIGPIPE) == 0 {
                var pending = sigset_t()
                sigpending(&pending)
                if sigismember(&pending, SIGPIPE) == 1 {
                    #if canImport(Glibc)
                    var now = timespec(tv_sec: 0, tv_nsec: 0)
                    while sigtimedwait(&pipeOnly, nil, &now) < 0, errno == EINTR {}
                    #else
                    var taken: Int32 = 0
                    sigwait(&pipeOnly, &taken)
                    #endif
                }
                pthread_sigmask(SIG_SETMASK, &previous, nil)
            }
        }
        return try body()
    }
}
