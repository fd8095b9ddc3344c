import DemoService
import FaultServer
import Foundation
import Synchronization
import HTTPTypes
import Testing
import TypedAPI
import TypedAPICurl

/// What only the libcurl transport needs checking: the shared engine thread, its executor, and
/// curl's own defaults kept off the wire. (Everything else runs through every transport elsewhere.)
@Suite("libcurl transport")
struct CurlTransportTests {
    @Test("A GET whose new connection closes before any answer is sent once more, on another; a POST is not")
    func retryWhenNothingCame() async throws {
        // The first connection reads the request and closes without a word (a server shedding
        // load); the ones after it answer.
        let (server, resetCount) = try connectionDroppingServer { $0 == 1 }
        defer { server.stop() }
        func request(_ method: HTTPRequest.Method) -> HTTPRequest {
            HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/n")
        }
        try await CurlTransport.withOwnEngine { curl, _ in
            let (response, body) = try await curl.send(request(.get), body: nil, timeout: .seconds(30))
            #expect(response.status == .ok)
            #expect(String(decoding: body, as: UTF8.self) == #"{"n":2}"#)
            #expect(server.requestHeads.count == 2)
        }
        resetCount()
        await CurlTransport.withOwnEngine { curl, _ in
            // A POST may have been acted on: it is not sent twice, and the failure is the caller's.
            await #expect(throws: TransportFailure.self) {
                try await curl.send(request(.post), body: Data("x".utf8), timeout: .seconds(30))
            }
            #expect(server.requestHeads.count == 3)
        }
    }

    @Test("The wire carries the request's headers and none of curl's defaults")
    func headers() async throws {
        try await withDemoServer(.curl) { _, server in
            var fields = HTTPFields()
            fields[try #require(HTTPField.Name("X-Workshop"))] = "swift"
            fields[try #require(HTTPField.Name("X-Empty"))] = ""
            let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)",
                                   path: "/debug/headers", headerFields: fields)
            let (response, body) = try await CurlTransport().send(head, body: nil, timeout: .seconds(30))
            #expect(response.status == .ok)
            let echo = try JSONDecoder().decode(HeaderEcho.self, from: body).headers
            #expect(echo["x-workshop"] == "swift")
            #expect(echo["x-empty"] == "")
            #expect(echo["accept"] == nil, "curl's default Accept: */* must not be sent")
            #expect(echo["expect"] == nil)
            #expect(echo["user-agent"] == nil)
        }
    }

    @Test("Many calls at once share the engine and each gets its own answer")
    func concurrentCalls() async throws {
        try await withDemoServer(.curl) { client, _ in
            let ids = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for id in 1...40 { group.addTask { (id, try await client.send(.post(id: id)).id) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(ids.count == 40)
            #expect(ids.allSatisfy { $0.0 == $0.1 })
        }
    }

    @Test("Code that prefers the curl executor runs on the engine's thread and makes its calls there")
    func executor() async throws {
        try await withDemoServer(.curl) { client, _ in
            let executor = try #require(CurlTransport.executor)
            let (threads, sum) = try await withTaskExecutorPreference(executor) { () async throws -> (Set<String>, Int) in
                var threads: Set<String> = [currentThreadName()]
                var sum = 0
                for id in 1...20 {
                    sum += try await client.send(.post(id: id)).id
                    threads.insert(currentThreadName())
                }
                return (threads, sum)
            }
            #expect(threads == ["typist-curl"])
            #expect(sum == 210)
        }
    }

    @Test("A time-out and a cancellation work from the engine's own thread too")
    func executorFaults() async throws {
        try await withDemoServer(.curl) { client, _ in
            let executor = try #require(CurlTransport.executor)
            let timedOut = await withTaskExecutorPreference(executor) {
                await expectAPIError { try await client.send(.slow(ms: 30_000).timeout(.milliseconds(200))) }
            }
            guard case .timedOut? = timedOut else {
                Issue.record("expected a time-out, got \(String(describing: timedOut))")
                return
            }
            let task = Task(executorPreference: executor) { try await client.send(.slow(ms: 30_000)) }
            try await Task.sleep(for: .milliseconds(100))
            task.cancel()
            let result = await task.result
            guard case .failure(let error as APIError) = result, case .cancelled = error else {
                Issue.record("expected a cancellation, got \(result)")
                return
            }
        }
    }

    @Test("A body over the limit is refused as too large")
    func tooLarge() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/posts")
        await #expect {
            try await CurlTransport(maximumResponseSize: 1000).send(head, body: nil, timeout: .seconds(30))
        } throws: { error in
            (error as? TransportFailure)?.kind == .responseTooLarge
        }
        let (response, body) = try await CurlTransport().send(head, body: nil, timeout: .seconds(30))
        #expect(response.status == .ok && body.count > 1000)
    }
}

/// The name of the thread this runs on.
private func currentThreadName() -> String {
    #if os(Linux)
    // Glibc's pthread_getname_np is not visible to Swift; the kernel has the same name.
    let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
    return name.trimmingCharacters(in: .whitespacesAndNewlines)
    #else
    var buffer = [CChar](repeating: 0, count: 64)
    pthread_getname_np(pthread_self(), &buffer, buffer.count)
    return String(cString: buffer)
    #endif
}
