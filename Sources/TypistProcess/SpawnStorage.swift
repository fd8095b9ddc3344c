#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The storage `posix_spawn`'s file actions and attributes live in, which differs by C library —
/// the one place it does. glibc declares them as structs, set up in place by their `_init`
/// functions; Darwin declares them as opaque pointers (`void *`), imported as optionals that
/// `posix_spawn_file_actions_init(3)` and `posix_spawnattr_init(3)` allocate.
enum SpawnStorage {
    #if canImport(Darwin)
    typealias FileActions = posix_spawn_file_actions_t?
    typealias Attributes = posix_spawnattr_t?

    static func fileActions() -> FileActions { nil }
    static func attributes() -> Attributes { nil }
    #else
    typealias FileActions = posix_spawn_file_actions_t
    typealias Attributes = posix_spawnattr_t

    static func fileActions() -> FileActions { posix_spawn_file_actions_t() }
    static func attributes() -> Attributes { posix_spawnattr_t() }
    #endif
}
