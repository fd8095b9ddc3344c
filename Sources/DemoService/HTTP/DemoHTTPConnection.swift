import Foundation
import HTTPTypes
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One client's connection, served on a thread of its own: requests in turn (kept alive between
/// them), each answered by the router in a task that runs on this same thread (its
/// ``ConnectionExecutor``), a streamed body sent as the route writes it.
final class DemoHTTPConnection: Sendable {
    let descriptor: Int32
    private let router: DemoRouter
    private let isStopping: @Sendable () -> Bool
    private let onRequest: @Sendable (DemoRequest, HTTPResponse.Status) -> Void

    private struct State {
        var busy = false
        var ended = false
        /// Its descriptor is closed (and may be another connection's now): nothing shuts it down.
        var closed = false
        var task: Task<Void, Never>?
        var pipe: BodyPipe?
    }

    private let state = Mutex(State())
    private let executor = ConnectionExecutor()

    init(descriptor: Int32, router: DemoRouter, isStopping: @escaping @Sendable () -> Bool,
         onRequest: @escaping @Sendable (DemoRequest, HTTPResponse.Status) -> Void) {
        self.descriptor = descriptor
        self.router = router
        self.isStopping = isStopping
        self.onRequest = onRequest
    }

    /// Serves requests until the client or the server ends the connection, then closes it.
    func run() {
        var reader = RequestReader(descriptor: descriptor)
        serving: while !isStopping() {
            switch reader.next(continueRequested: { Socket.write(descriptor, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }) {
            case .closed:
                break serving
            case .refused(let response):
                _ = send(response, keepAlive: false, isHead: false)
                break serving
            case .request(let request, let keepAlive):
                state.withLock { $0.busy = true }
                let response = answer(request)
                onRequest(request, response.status)
                let kept = send(response, keepAlive: keepAlive && !isStopping(), isHead: request.method == .head)
                let ended = state.withLock { state in
                    state.busy = false
                    state.task = nil
                    state.pipe = nil
                    return state.ended
                }
                if !kept || ended { break serving }
            }
        }
        state.withLock { state in
            state.ended = true
            state.closed = true
            Socket.close(descriptor)
        }
        executor.close()
    }

    /// Ends the connection now if no request is under way; true when it did.
    func endIfIdle() -> Bool {
        state.withLock { state in
            guard !state.busy else { return false }
            state.ended = true
            if !state.closed { Socket.shutDown(descriptor) }
            return true
        }
    }

    /// Ends the connection, cancelling the request under way.
    func end() {
        let (task, pipe) = state.withLock { state in
            state.ended = true
            if !state.closed { Socket.shutDown(descriptor) }
            return (state.task, state.pipe)
        }
        task?.cancel()
        pipe?.cancel()
        executor.wake.signal()
    }

    /// The router's answer, its task run on this thread.
    private func answer(_ request: DemoRequest) -> DemoResponse {
        let result = Mutex<DemoResponse?>(nil)
        let router = router
        let task = Task(executorPreference: executor) {
            let response = await router.respond(to: request)
            result.withLock { $0 = response }
        }
        let cancelled = state.withLock { state in
            state.task = task
            return state.ended
        }
        if cancelled { task.cancel() }
        executor.run { result.withLock { $0 != nil } }
        return result.withLock { $0 } ?? DemoResponse(status: .internalServerError)
    }

    /// Writes the response; false when the connection cannot be kept (the client went, a streamed
    /// body ended early on purpose, or it is not to be kept alive).
    private func send(_ response: DemoResponse, keepAlive: Bool, isHead: Bool) -> Bool {
        let code = response.status.code
        let bodiless = (100..<200).contains(code) || code == 204 || code == 304
        var head = "HTTP/1.1 \(code) \(response.status.reasonPhrase)\r\n"
        for field in response.headers { head += "\(field.name.rawName): \(field.value)\r\n" }
        var chunked = false
        if !bodiless, response.headers[.contentLength] == nil {
            switch response.body {
            case .bytes(let bytes): head += "Content-Length: \(bytes.count)\r\n"
            case .stream(let length?, _): head += "Content-Length: \(length)\r\n"
            case .stream(nil, _):
                head += "Transfer-Encoding: chunked\r\n"
                chunked = true
            }
        }
        head += "Date: \(Self.date())\r\nServer: DemoService\r\n"
        if !keepAlive { head += "Connection: close\r\n" }
        head += "\r\n"
        switch response.body {
        case .bytes(let bytes):
            let body = bodiless || isHead ? [] : bytes
            // A small answer in one write; a large one (`/big`) after its head, not copied behind it.
            let written = body.count <= 64 << 10 ? Socket.write(descriptor, Array(head.utf8) + body)
                : Socket.write(descriptor, Array(head.utf8)) && Socket.write(descriptor, body)
            return written && keepAlive
        case .stream(_, let write):
            guard Socket.write(descriptor, Array(head.utf8)) else { return false }
            if bodiless || isHead { return keepAlive }
            return stream(write, chunked: chunked) && keepAlive
        }
    }

    /// Sends what the route writes as it writes it; false when it ended early.
    private func stream(_ write: @escaping @Sendable (inout BodyWriter) async throws -> Void, chunked: Bool) -> Bool {
        let pipe = BodyPipe(arrived: executor.wake)
        let task = Task(executorPreference: executor) {
            var writer = BodyWriter(pipe: pipe)
            do {
                try await write(&writer)
                pipe.finish(failed: false)
            } catch {
                pipe.finish(failed: true)
            }
        }
        let cancelled = state.withLock { state in
            state.task = task
            state.pipe = pipe
            return state.ended
        }
        if cancelled {
            task.cancel()
            pipe.cancel()
        }
        while true {
            executor.runPending()
            switch pipe.poll() {
            case nil:
                executor.wake.wait()
            case .chunk(let bytes):
                let framed = chunked ? Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10] : bytes
                guard Socket.write(descriptor, framed) else {
                    pipe.cancel()
                    task.cancel()
                    return false
                }
            case .end(let failed):
                if failed { return false }
                return chunked ? Socket.write(descriptor, Array("0\r\n\r\n".utf8)) : true
            }
        }
    }

    /// Now as an HTTP date (RFC 9110): `Mon, 30 Nov 2026 05:31:00 GMT`.
    static func date(_ seconds: time_t = time(nil)) -> String {
        var moment = seconds
        var parts = tm()
        _ = gmtime_r(&moment, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let day = days[Int(parts.tm_wday) % 7]
        let month = months[Int(parts.tm_mon) % 12]
        return "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
