#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How close the running thread is to the end of its stack.
///
/// Script calls nest native calls, and a thread's stack is whatever its creator gave it: the
/// call-depth limit says how deep scripts may go, and this guard makes sure a thread with a small
/// stack ends a deep recursion with a diagnostic instead of a crash.
enum StackGuard {
    /// Room kept free below the deepest call: enough for the native frames between two checks
    /// and for reporting the error.
    static let reserve = 512 << 10

    /// Whether the stack has less than ``reserve`` left.
    @inline(__always)
    static func isNearEnd() -> Bool {
        let low = lowestUsableAddress()
        return low != 0 && currentAddress() < low
    }

    /// An address on the running thread's stack.
    ///
    /// Never inlined: inlined into an `async` function, the local would live in the task's
    /// frame, which Swift allocates on the heap — a release build then saw every thread as out of
    /// stack, handed every session to another thread, and could stop a recursion through an
    /// endpoint as too deep. A synchronous function's locals are on the thread's stack.
    @inline(never)
    static func currentAddress() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// Bytes of stack the running thread has left before the reserve; `Int.max` where unknown.
    static func available() -> Int {
        let low = lowestUsableAddress()
        guard low != 0 else { return .max }
        let here = currentAddress()
        return here > low ? Int(here - low) : 0
    }

    /// Stack a front-end pass (parse, check, compile, teardown) may need at the syntax nesting
    /// limit, with room to spare: under 4 MiB in a debug build, far less optimised. A default
    /// 8 MiB main thread has it, so only smaller threads hand their work over.
    static let frontEnd = 6 << 20

    /// Runs `body` here when the thread has `bytes` of stack left, or else on a new thread with a
    /// stack large enough, waiting for it.
    static func withRoom<T>(_ bytes: Int = frontEnd, _ body: () -> T) -> T {
        if available() >= bytes { return body() }
        var result: T?
        withoutActuallyEscaping(body) { body in
            let call = PendingCall { result = body() }
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            pthread_attr_setstacksize(&attributes, 2 * bytes)
            defer { pthread_attr_destroy(&attributes) }
            var thread = pthread_t()
            let context = Unmanaged.passRetained(call).toOpaque()
            let started = pthread_create(&thread, &attributes, { context in
                guard let context else { return nil }
                Unmanaged<PendingCall>.fromOpaque(context).takeRetainedValue().body()
                return nil
            }, context)
            if started == 0 {
                pthread_join(thread, nil)
            } else {
                Unmanaged<PendingCall>.fromOpaque(context).release()
                result = body()
            }
        }
        return result!
    }

    /// A call handed to another thread while its caller waits (so nothing runs concurrently).
    private final class PendingCall {
        let body: () -> Void

        init(_ body: @escaping () -> Void) {
            self.body = body
        }
    }

    /// The thread's stack bottom plus the reserve; 0 where it cannot be known. Cached per thread.
    private static func lowestUsableAddress() -> UInt {
        if let cached = pthread_getspecific(key) { return UInt(bitPattern: cached) }
        var low: UInt = 0
        #if os(Linux)
        var attributes = pthread_attr_t()
        if typist_pthread_getattr_np(pthread_self(), &attributes) == 0 {
            var address: UnsafeMutableRawPointer?
            var size = 0
            if pthread_attr_getstack(&attributes, &address, &size) == 0, let address {
                low = UInt(bitPattern: address) + UInt(reserve)
            }
            pthread_attr_destroy(&attributes)
        }
        #elseif canImport(Darwin)
        let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        low = top - UInt(pthread_get_stacksize_np(pthread_self())) + UInt(reserve)
        #endif
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: low))
        return low
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}

#if os(Linux)
/// glibc's `pthread_getattr_np` (a GNU extension Swift's Glibc module does not show): the running
/// thread's real stack bounds.
@_silgen_name("pthread_getattr_np")
private func typist_pthread_getattr_np(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32
#endif
