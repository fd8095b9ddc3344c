import CCurl
import Foundation
import HTTPTypes
import Synchronization
import TypedAPI

/// One libcurl multi handle and the thread that drives it.
///
/// The process has one shared engine; a session that runs on an engine's thread gets one of its
/// own (``CurlTransport/withOwnEngine(maximumResponseSize:isolation:_:)``), so that its computations hold up
/// its own exchanges and nobody else's. Callers hand transfers over through a lock and, when it waits, wake the thread with
/// `curl_multi_wakeup`; the thread adds them, runs libcurl until something happens, and resumes each
/// caller when its exchange ends. Easy handles are reset and reused; connections live in the multi handle's cache.
///
/// The engine is also a task executor: code that prefers it runs on the engine's thread between
/// libcurl's turns, so a call made from there, and the caller's resumption, never cross threads.
///
/// Invariant (why `@unchecked Sendable`): the multi handle, ``active`` and the idle handles are
/// touched only by the engine's thread, except `curl_multi_wakeup`, which libcurl lets any thread
/// call; everything other threads hand over goes through the `Mutex`ed inbox. Tested by
/// `CurlTransportTests` ("Many calls at once share the engine and each gets its own answer").
final class CurlEngine: TaskExecutor, @unchecked Sendable {
    /// The process-wide engine, or nil when libcurl cannot start.
    static let shared: CurlEngine? = CurlEngine()

    private struct Inbox {
        var submitted: [CurlTransfer] = []
        var jobs: [UnownedJob] = []
        var cancellationPending = false
        /// Streams whose readers have taken enough of what was buffered to go on.
        var resumed: [CurlTransfer] = []
        /// False only while the engine waits in `curl_multi_poll` (or is about to): the one time a
        /// newcomer must wake it. Awake, it looks at the inbox again before it waits.
        var awake = true
        /// Set by `shutDown()`: the thread drains the inbox and ends; later jobs go to the global
        /// executor and later transfers fail.
        var closed = false
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    // Only the engine's thread touches these.
    private var active: [UnsafeMutableRawPointer: CurlExchange] = [:]
    private var idleHandles: [UnsafeMutableRawPointer] = []

    init?() {
        guard curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK, let multi = curl_multi_init() else { return nil }
        self.multi = multi
        // Several calls at once to one host each get a connection, kept for the next call.
        _ = typist_curl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, 16)
        let thread = Thread { [self] in
            // Named by the kernel call itself: Foundation's `Thread.name` on Linux applies the name
            // only when the object is already `Thread.current`, which a just-started thread may not
            // be yet; the thread then kept the name of whichever thread created it.
            typist_name_current_thread("typist-curl")
            Thread.current.name = "typist-curl"
            run()
        }
        // Sessions run on this thread (it is their executor), and deep script recursion nests
        // native calls: a large stack, reserved, not committed, until used.
        thread.stackSize = 512 << 20
        thread.start()
    }

    deinit {
        // The thread, which holds the engine while it runs, has ended: nothing uses the handle.
        curl_multi_cleanup(multi)
    }

    /// Hands a transfer to the engine; for a response read whole, its caller must wait (``CurlTransfer/waits(_:)``).
    func submit(_ transfer: CurlTransfer) {
        let accepted = inbox.withLock { inbox -> Bool? in
            if inbox.closed { return nil }
            inbox.submitted.append(transfer)
            return !inbox.awake
        }
        guard let asleep = accepted else {
            transfer.finish(.failure(Self.closedFailure))
            return
        }
        wake(if: asleep)
    }

    /// Ends the engine: exchanges in flight or submitted later fail, jobs submitted later run on
    /// the global executor, and the thread ends once it has run the jobs already waiting.
    func shutDown() {
        wake(if: inbox.withLock { $0.closed = true; return !$0.awake })
    }

    private static let closedFailure = TransportFailure(.other, detail: "the session's libcurl engine has shut down")

    /// Asks the engine to abort a transfer, whether or not it has started.
    func cancel(_ transfer: CurlTransfer) {
        transfer.cancelled.store(true, ordering: .sequentiallyConsistent)
        wake(if: inbox.withLock { $0.cancellationPending = true; return !$0.awake })
    }

    /// Asks the engine to go on with a stream it paused because its reader was behind.
    func resume(_ transfer: CurlTransfer) {
        wake(if: inbox.withLock { $0.resumed.append(transfer); return !$0.awake })
    }

    /// Runs a job on the engine's thread; see `TaskExecutor`.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = inbox.withLock { inbox -> Bool? in
            if inbox.closed { return nil }
            inbox.jobs.append(job)
            return !inbox.awake
        }
        guard let asleep = accepted else {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
            return
        }
        wake(if: asleep)
    }

    /// Wakes the engine only when it waits: callers resumed by the engine itself, and calls made
    /// from its own thread, cost no system call.
    private func wake(if asleep: Bool) {
        if asleep { curl_multi_wakeup(multi) }
    }

    private func run() {
        var running: Int32 = 0
        var queued: Int32 = 0
        var jobs: [UnownedJob] = []
        var submitted: [CurlTransfer] = []
        var resumed: [CurlTransfer] = []
        while true {
            let (cancellationPending, closed) = inbox.withLock { inbox in
                swap(&jobs, &inbox.jobs)
                swap(&submitted, &inbox.submitted)
                swap(&resumed, &inbox.resumed)
                defer { inbox.cancellationPending = false }
                return (inbox.cancellationPending, inbox.closed)
            }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            if closed {
                // Nothing reaches the inbox once it is closed: what is in it was taken above.
                jobs.removeAll()
                for transfer in submitted { transfer.finish(.failure(Self.closedFailure)) }
                for handle in Array(active.keys) { end(handle, with: .failure(Self.closedFailure)) }
                for handle in idleHandles { curl_easy_cleanup(handle) }
                idleHandles.removeAll()
                return
            }
            jobs.removeAll(keepingCapacity: true)
            // Jobs just run may have submitted transfers: start them in this same turn.
            inbox.withLock { inbox in
                submitted.append(contentsOf: inbox.submitted)
                inbox.submitted.removeAll(keepingCapacity: true)
            }
            for transfer in submitted { start(transfer) }
            submitted.removeAll(keepingCapacity: true)
            for transfer in resumed {
                // Only a transfer still running: one that ended is not among the active.
                if let (handle, _) = active.first(where: { $0.value.transfer === transfer }) { curl_easy_pause(handle, CURLPAUSE_CONT) }
            }
            resumed.removeAll(keepingCapacity: true)
            if cancellationPending {
                for (handle, exchange) in active where exchange.transfer.cancelled.load(ordering: .sequentiallyConsistent) {
                    end(handle, with: .failure(TransportFailure(.cancelled, detail: "cancelled")))
                }
            }
            curl_multi_perform(multi, &running)
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                    let exchange = active[handle]
                else { continue }
                let code = message.pointee.data.result
                if code != CURLE_OK, exchange.mayRetry(after: code) {
                    curl_multi_remove_handle(multi, handle)
                    active.removeValue(forKey: handle)
                    exchange.handle = nil
                    recycle(handle)
                    exchange.prepareRetry()
                    start(exchange)
                    continue
                }
                end(handle, with: code == CURLE_OK
                    ? Result { try exchange.response() } : .failure(exchange.failure(code)))
            }
            // Waits for socket activity, a wake-up (submit, cancel, a job), or libcurl's own next
            // deadline (time limits), whichever comes first; not at all when jobs are waiting,
            // such as callers just resumed.
            let idle = inbox.withLock { inbox in
                inbox.awake = !(inbox.jobs.isEmpty && inbox.submitted.isEmpty && inbox.resumed.isEmpty && !inbox.cancellationPending)
                return !inbox.awake
            }
            curl_multi_poll(multi, nil, 0, idle ? 60_000 : 0, nil)
            inbox.withLock { $0.awake = true }
        }
    }

    private func start(_ transfer: CurlTransfer) {
        start(CurlExchange(transfer))
    }

    private func start(_ exchange: CurlExchange) {
        let transfer = exchange.transfer
        if transfer.cancelled.load(ordering: .sequentiallyConsistent) {
            transfer.finish(.failure(TransportFailure(.cancelled, detail: "cancelled")))
            return
        }
        guard let handle = idleHandles.popLast() ?? curl_easy_init() else {
            transfer.finish(.failure(TransportFailure(.other, detail: "libcurl could not make a handle")))
            return
        }
        do {
            try configure(handle, for: exchange)
        } catch {
            recycle(handle)
            transfer.finish(.failure(error))
            return
        }
        guard curl_multi_add_handle(multi, handle) == CURLM_OK else {
            recycle(handle)
            transfer.finish(.failure(TransportFailure(.other, detail: "libcurl could not start the exchange")))
            return
        }
        active[handle] = exchange
        exchange.handle = handle
    }

    private func end(_ handle: UnsafeMutableRawPointer, with result: Result<(HTTPResponse, Data), any Error>) {
        curl_multi_remove_handle(multi, handle)
        guard let exchange = active.removeValue(forKey: handle) else { return }
        exchange.handle = nil
        let transfer = exchange.transfer
        if transfer.stream != nil {
            // A stream's handle may end paused, with bytes libcurl holds for the reader that left;
            // rather than trust `curl_easy_reset` to clear both for the next exchange, such a
            // handle is not used again.
            curl_easy_cleanup(handle)
        } else {
            recycle(handle)
        }
        transfer.finish(result)
    }

    private func recycle(_ handle: UnsafeMutableRawPointer) {
        curl_easy_reset(handle)
        if idleHandles.count < 16 { idleHandles.append(handle) } else { curl_easy_cleanup(handle) }
    }

    private func configure(_ handle: UnsafeMutableRawPointer, for exchange: CurlExchange) throws {
        var problem: CURLcode = CURLE_OK
        func set(_ code: CURLcode) { if problem == CURLE_OK { problem = code } }
        let transfer = exchange.transfer
        if exchange.onFreshConnection { set(typist_curl_set_long(handle, CURLOPT_FRESH_CONNECT, 1)) }
        // The callbacks' context: the exchange, which the engine holds while libcurl runs it.
        let context = UnsafeMutableRawPointer(Unmanaged.passUnretained(exchange).toOpaque())
        set(transfer.url.withCString { typist_curl_set_pointer(handle, CURLOPT_URL, $0) })
        set(typist_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
        set(typist_curl_set_long(handle, CURLOPT_PATH_AS_IS, 1))
        set(typist_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        if transfer.stream == nil {
            set(typist_curl_set_long(handle, CURLOPT_TIMEOUT_MS, transfer.timeoutMilliseconds))
            // A Content-Length over the limit is refused at the head, before any of the body arrives.
            set(typist_curl_set_size(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(transfer.maximumResponseSize)))
        } else {
            // A stream has no end to wait for: its reader keeps the time limit, per gap. Only
            // connecting is limited here.
            set(typist_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, transfer.timeoutMilliseconds))
        }
        set(typist_curl_set_long(handle, CURLOPT_BUFFERSIZE, 256 << 10))
        set("*".withCString { typist_curl_set_pointer(handle, CURLOPT_NOPROXY, $0) })
        // Every coding this libcurl decodes (gzip, deflate; br and zstd where it was built with
        // them), announced in Accept-Encoding and decoded before the body reaches us: the size
        // limit counts decoded bytes.
        set("".withCString { typist_curl_set_pointer(handle, CURLOPT_ACCEPT_ENCODING, $0) })
        set(typist_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, exchange.errorBuffer))
        let tls = transfer.tls
        if !tls.isSystemDefault {
            // A CA bundle replaces the system's trust store, as curl's --cacert does.
            if let bundle = tls.certificateAuthorities {
                set(bundle.withCString { typist_curl_set_pointer(handle, CURLOPT_CAINFO, $0) })
                set(typist_curl_set_pointer(handle, CURLOPT_CAPATH, nil))
            }
            if let certificate = tls.clientCertificate {
                set(certificate.withCString { typist_curl_set_pointer(handle, CURLOPT_SSLCERT, $0) })
                set("PEM".withCString { typist_curl_set_pointer(handle, CURLOPT_SSLCERTTYPE, $0) })
                set((tls.clientKey ?? certificate).withCString { typist_curl_set_pointer(handle, CURLOPT_SSLKEY, $0) })
                // A passphrase, even an empty one: without it OpenSSL asks for one on /dev/tty, where
                // nothing answers and Ctrl-C does not reach (a protected key is refused earlier, by
                // `TLSOptions.validate()`; a host that skips it gets a TLS error, never a hang).
                set("".withCString { typist_curl_set_pointer(handle, CURLOPT_KEYPASSWD, $0) })
            }
            if !tls.verifiesServer {
                set(typist_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 0))
                set(typist_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 0))
            }
        }
        set(typist_curl_set_callback(handle, CURLOPT_WRITEFUNCTION, { data, size, count, context in
            guard let context else { return 0 }
            let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
            let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
            return exchange.receiveBody(bytes)
        }))
        set(typist_curl_set_pointer(handle, CURLOPT_WRITEDATA, context))
        set(typist_curl_set_callback(handle, CURLOPT_HEADERFUNCTION, { data, size, count, context in
            guard let context else { return 0 }
            let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
            exchange.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }))
        set(typist_curl_set_pointer(handle, CURLOPT_HEADERDATA, context))
        switch transfer.method {
        case "GET" where transfer.body == nil:
            set(typist_curl_set_long(handle, CURLOPT_HTTPGET, 1))
        case "HEAD" where transfer.body == nil:
            set(typist_curl_set_long(handle, CURLOPT_NOBODY, 1))
        default:
            set(transfer.method.withCString { typist_curl_set_pointer(handle, CURLOPT_CUSTOMREQUEST, $0) })
            if let body = transfer.body {
                set(typist_curl_set_size(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
                set(body.withUnsafeBytes { typist_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress ?? UnsafeRawPointer(context)) })
            } else if ["POST", "PUT", "PATCH"].contains(transfer.method) {
                // An empty body with "Content-Length: 0", as servers expect for these methods.
                set(typist_curl_set_size(handle, CURLOPT_POSTFIELDSIZE_LARGE, 0))
                set("".withCString { typist_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0) })
            }
        }
        if let old = exchange.headerList { curl_slist_free_all(old) }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in transfer.headerLines {
            guard let longer = curl_slist_append(list, line) else {
                if let list { curl_slist_free_all(list) }
                throw TransportFailure(.other, detail: "libcurl could not take the request's headers")
            }
            list = longer
        }
        exchange.headerList = list
        set(typist_curl_set_pointer(handle, CURLOPT_HTTPHEADER, list))
        guard problem == CURLE_OK else {
            throw TransportFailure(.other, detail: "libcurl refused an option: \(String(cString: curl_easy_strerror(problem)))")
        }
    }
}
