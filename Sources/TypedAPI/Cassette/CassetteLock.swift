import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this process may record into a cassette: an exclusive `flock(2)` on a hidden file
/// beside it (`.NAME.lock`, mode 0600), held while a recording ``CassetteTransport`` lives.
///
/// Two programs recording into one file would each write their own exchanges over the other's
/// (the file is replaced whole, through a rename); the second is refused instead, naming the
/// file. Within one process the lock is shared (a prompt's `:record` onto the file it records).
/// The lock ends with the process, however it ends; a lock file left behind by a killed one is
/// taken over, and removed when released.
final class CassetteLock: Sendable {
    private let lockPath: String

    private struct Held {
        var descriptor: Int32
        var users: Int
    }

    /// The locks this process holds, by lock file.
    private static let held = Mutex<[String: Held]>([:])

    /// Takes the lock for the cassette at `path`, or throws when another process holds it.
    init(forCassetteAt path: String) throws(CassetteError) {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        lockPath = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".lock").path
        let lockPath = lockPath
        let result: Result<Void, CassetteError> = Self.held.withLock { held in
            if var lock = held[lockPath] {
                lock.users += 1
                held[lockPath] = lock
                return .success(())
            }
            do throws(CassetteError) {
                held[lockPath] = Held(descriptor: try Self.take(lockPath, cassette: path), users: 1)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    deinit {
        let lockPath = lockPath
        Self.held.withLock { held in
            guard var lock = held[lockPath] else { return }
            lock.users -= 1
            if lock.users > 0 {
                held[lockPath] = lock
                return
            }
            held[lockPath] = nil
            // Removed while still held: a program that opened it meanwhile finds it replaced (below).
            unlink(lockPath)
            close(lock.descriptor)
        }
    }

    /// Opens and locks the lock file; retries when it was replaced between the two (its holder
    /// removed it), so that two programs never hold locks on different files of one name.
    private static func take(_ lockPath: String, cassette: String) throws(CassetteError) -> Int32 {
        for _ in 0..<16 {
            let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else {
                throw CassetteError(path: cassette, reason: "cannot make its lock file \(lockPath): \(String(cString: strerror(errno)))")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let busy = errno == EWOULDBLOCK
                close(descriptor)
                throw CassetteError(path: cassette, reason: busy
                    ? "another program is recording into it; wait for it to end, or record into another file"
                    : "cannot lock it for recording: \(String(cString: strerror(errno)))")
            }
            var opened = stat()
            var named = stat()
            if fstat(descriptor, &opened) == 0, stat(lockPath, &named) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev {
                return descriptor
            }
            close(descriptor)
        }
        throw CassetteError(path: cassette, reason: "cannot lock it for recording: its lock file keeps changing")
    }
}
