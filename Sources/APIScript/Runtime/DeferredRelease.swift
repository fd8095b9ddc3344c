#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Frees chains of closures one link at a time.
///
/// A closure holds the boxes it captured; a box may hold another closure, which holds its boxes,
/// and so on: a loop like `for _ in 0..<2_000_000 { let g = f; f = { g() + 1 } }` builds a chain
/// two million links long. Freed the ordinary way, each link's release runs inside the one before
/// it and the thread's stack ends long before the chain does. Instead a closure's captures are
/// handed here when it is freed, and the first release on a thread drains them in a loop.
enum DeferredRelease {
    private final class Queue {
        var pending: [[Box]] = []
        var draining = false
    }

    /// Takes over `captures` (the caller's last reference) and releases them from a loop, never
    /// from inside another release.
    static func release(_ captures: consuming [Box]) {
        guard !captures.isEmpty else { return }
        let queue = current
        queue.pending.append(captures)
        guard !queue.draining else { return }
        queue.draining = true
        while let next = queue.pending.popLast() {
            // Dropping `next` may free closures that hand their captures back here.
            _ = next
        }
        queue.draining = false
    }

    private static var current: Queue {
        if let stored = pthread_getspecific(key) { return Unmanaged<Queue>.fromOpaque(stored).takeUnretainedValue() }
        let queue = Queue()
        pthread_setspecific(key, Unmanaged.passRetained(queue).toOpaque())
        return queue
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            #endif
        }
        return key
    }()
}
