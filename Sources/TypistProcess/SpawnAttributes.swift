#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Spawn attributes the way a shell gives them: an empty signal mask and default signal
/// dispositions, whatever the starting thread has blocked or ignored (a child started with a
/// blocked mask passes it on, and everything under it then outlives `SIGTERM` and `SIGHUP`).
enum SpawnAttributes {
    /// Runs `body` with initialised attributes that reset the mask and the dispositions.
    static func withClean<T>(_ body: (inout SpawnStorage.Attributes) throws -> T) rethrows -> T {
        var attributes = SpawnStorage.attributes()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return try body(&attributes)
    }
}
