import CTestSpawn
import Foundation

/// Spawn attributes the way a shell gives them: an empty signal mask and default signal
/// dispositions, whatever the spawning test thread has blocked or ignored (a child started with a
/// blocked mask passes it on, and everything under it then outlives SIGTERM and SIGHUP).
public enum CleanSpawn {
    /// Runs `body` with initialised attributes that reset the mask and the dispositions.
    public static func withAttributes<T>(_ body: (inout posix_spawnattr_t) throws -> T) rethrows -> T {
        var attributes = posix_spawnattr_t()
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

    /// File actions that close every descriptor above standard error in the child, after the
    /// actions `configure` adds (which set up 0, 1 and 2). Other threads spawn processes with
    /// pipes of their own (tmux, openssl, a server): a long-lived child that inherited a write
    /// end would keep that reader from ever seeing the end of its output — a deadlock between
    /// tests once the reader's test holds the child's.
    public static func withFileActions<T>(_ configure: (inout posix_spawn_file_actions_t) -> Void,
                                          _ body: (inout posix_spawn_file_actions_t) throws -> T) rethrows -> T {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        configure(&actions)
        _ = typist_spawn_close_from(&actions, 3)
        return try body(&actions)
    }
}
