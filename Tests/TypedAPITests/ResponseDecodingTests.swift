import Foundation
import HTTPTypes
import Synchronization
import TestSupport
import Testing
import TypistTesting
import TypedAPI

private struct Repo: Decodable, Equatable {
    var fullName: String
    var stargazersCount: Int
}

private struct Problem: Decodable, Error, Sendable {
    var title: String
}

private func client(_ transport: InMemoryTransport, delegate: (any APIClientDelegate)? = nil) throws -> APIClient {
    APIClient(environment: try ServerEnvironment(url: "https://api.example.test"), transport: transport,
              delegate: delegate)
}

@Suite("Response decoding and validation")
struct ResponseDecodingTests {
    @Test("JSON, envelopes, snake_case, text, raw bytes and no content")
    func kindsOfResponse() async throws {
        let repo = #"{"full_name":"a/b","stargazers_count":3}"#
        let api = try client(InMemoryTransport(json: repo))
        #expect(try await api.send(Endpoint<Public, Repo>(path: "/r").decoder(.snakeCaseForTests))
                == Repo(fullName: "a/b", stargazersCount: 3))
        let wrapped = try client(InMemoryTransport(json: #"{"result":{"fullName":"c/d","stargazersCount":1}}"#))
        #expect(try await wrapped.send(Endpoint<Public, Repo>(path: "/r", envelope: "result")).fullName == "c/d")
        let missing = await expectAPIError { try await wrapped.send(Endpoint<Public, Repo>(path: "/r", envelope: "data")) }
        #expect(missing.map(String.init(describing:))?.contains("expected a value for the key 'data'") == true)

        let text = try client(InMemoryTransport(json: "héllo", contentType: "text/plain; charset=utf-8"))
        #expect(try await text.send(Endpoint<Public, String>(path: "/t")) == "héllo")
        let raw = try client(InMemoryTransport { _ in (200, [.contentType: "image/png"], Data([1, 2, 3])) })
        #expect(try await raw.send(Endpoint<Public, Data>(path: "/png")) == Data([1, 2, 3]))
        let empty = try client(InMemoryTransport { _ in (204, [:], Data()) })
        try await empty.send(Endpoint<Public, Void>(.delete, path: "/x"))
    }

    @Test("Acceptable status codes are 2xx unless the endpoint says otherwise")
    func statusCodes() async throws {
        let api = try client(InMemoryTransport(json: #"{"title":"gone"}"#, status: 410))
        let error = await expectAPIError { try await api.send(Endpoint<Public, Data>(path: "/x")) }
        #expect(error?.status == 410)
        #expect(try await api.send(Endpoint<Public, Data>(path: "/x").accepting(statusCodes: 200..<500)).count > 0)
    }

    @Test("An error body decodes into the host's error model")
    func errorModel() async throws {
        let api = try client(InMemoryTransport(json: #"{"title":"out of stock"}"#, status: 409,
                                               contentType: "application/problem+json"))
        let error = await expectAPIError {
            try await api.send(Endpoint<Public, Repo>(path: "/buy").decodingErrors(as: Problem.self))
        }
        guard case .unacceptableStatus(let request, let response)? = error else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(request.description == "GET https://api.example.test/buy")
        #expect((response.serverError as? Problem)?.title == "out of stock")
        #expect(response.statusLine == "409 Conflict")
    }

    @Test("The body shown in an error is cut at 512 bytes")
    func longBodies() async throws {
        let long = String(repeating: "x", count: 2000)
        let api = try client(InMemoryTransport(json: long, status: 500, contentType: "text/plain"))
        let error = try #require(await expectAPIError { try await api.send(Endpoint<Public, Data>(path: "/x")) })
        let message = String(describing: error)
        #expect(message.contains(String(repeating: "x", count: 512) + "… (2000 bytes in all)"))
        #expect(!message.contains(String(repeating: "x", count: 513)))
    }

    @Test("Content types are checked against Accept",
          arguments: [("application/json", true), ("application/json; charset=utf-8", true),
                      ("application/problem+json", true), ("APPLICATION/JSON", true),
                      ("text/html", false), ("text/plain", false)])
    func contentTypes(type: String, accepted: Bool) async throws {
        let api = try client(InMemoryTransport(json: #"{"fullName":"a","stargazersCount":1}"#, contentType: type))
        do {
            _ = try await api.send(Endpoint<Public, Repo>(path: "/r"))
            #expect(accepted)
        } catch {
            guard case .unexpectedContentType(_, let expected, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(!accepted && expected == "application/json")
        }
    }

    @Test("Decoding failures name the coding path, the expected and found values, and the JSON around them",
          arguments: [
            (#"[{"fullName":"a","stargazersCount":1},{"fullName":"b","stargazersCount":"many"}]"#,
             "[1].stargazersCount", "Int", #"a string "many""#),
            (#"[{"fullName":"a","stargazersCount":1},{"fullName":null,"stargazersCount":2}]"#,
             "[1].fullName", "String", "null"),
            (#"[{"fullName":"a"}]"#, "[0]", "a value for the key 'stargazersCount'", "no such key"),
            (#"{"fullName":"a"}"#, "", "Array<Any>", "an object"),
          ])
    func decodingFailures(json: String, path: String, expected: String, found: String) async throws {
        let api = try client(InMemoryTransport(json: json))
        let error = await expectAPIError { try await api.send(Endpoint<Public, [Repo]>(path: "/r")) }
        guard case .decodingFailed(_, let failure)? = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(failure.codingPath == path)
        #expect(failure.expected == expected)
        #expect(failure.found == found)
        #expect(failure.snippet?.isEmpty == false)
    }

    @Test("Random and truncated bodies give decoding errors, never a crash", arguments: 0..<200)
    func garbage(seed: Int) async throws {
        var generator = SplitMix(seed: UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15)
        let valid = Array(#"[{"fullName":"a\"b","stargazersCount":1},{"fullName":"ü","stargazersCount":[2]}]"#.utf8)
        var body: [UInt8]
        switch seed % 3 {
        case 0: body = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        case 1: body = Array(valid.prefix(Int(generator.next() % UInt64(valid.count))))
        default:
            body = valid
            for _ in 0..<3 { body[Int(generator.next() % UInt64(body.count))] = UInt8(truncatingIfNeeded: generator.next()) }
        }
        let bytes = Data(body)
        let api = try client(InMemoryTransport { _ in (200, [.contentType: "application/json"], bytes) })
        do {
            _ = try await api.send(Endpoint<Public, [Repo]>(path: "/r"))
        } catch {
            guard case .decodingFailed = error else {
                Issue.record("expected decodingFailed, got \(error)")
                return
            }
            #expect(!String(describing: error).isEmpty)
        }
    }
}

@Suite("Delegate hooks")
struct DelegateTests {
    final class Recorder: APIClientDelegate {
        let exchanges = Mutex<[Exchange]>([])
        let failuresBeforeSuccess: Int
        let attempts = Mutex(0)

        init(failuresBeforeSuccess: Int = 0) { self.failuresBeforeSuccess = failuresBeforeSuccess }

        func client(_ client: APIClient, willSend request: inout PreparedRequest) async throws {
            let body = request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
            request.setHeader(.custom(name: "X-Signature", value: "sig-\(request.method)-\(request.path)-\(body.count)"),
                              sensitive: true)
        }

        func client(_ client: APIClient, shouldRetry request: PreparedRequest, after error: APIError,
                    attempt: Int) async -> Bool {
            attempts.withLock { $0 = attempt }
            return error.status == 503 && attempt < 3
        }

        func client(_ client: APIClient, didReceive exchange: Exchange) {
            exchanges.withLock { $0.append(exchange) }
        }
    }

    @Test("willSend signs the request; didReceive sees it redacted")
    func signing() async throws {
        let transport = InMemoryTransport()
        let recorder = Recorder()
        let api = try client(transport, delegate: recorder)
        _ = try await api.send(Endpoint<Bearer, Data>(.post(.text("abc")), path: "/sign"), with: "secret-token")
        #expect(transport.last?.header("X-Signature") == "sig-POST-/sign-3")
        let exchange = try #require(recorder.exchanges.withLock { $0.last })
        #expect(exchange.requestHeaders.contains { $0.name == "X-Signature" && $0.value == "••••" })
        #expect(exchange.requestHeaders.contains { $0.name == "Authorization" && $0.value == "••••" })
        #expect(exchange.status == 200 && exchange.method == "POST")
    }

    @Test("shouldRetry sends again until it answers false")
    func retry() async throws {
        let calls = Mutex(0)
        let transport = InMemoryTransport { _ in
            let count = calls.withLock { $0 += 1; return $0 }
            return count < 3 ? (503, [:], Data()) : (200, [.contentType: "text/plain"], Data("ok".utf8))
        }
        let recorder = Recorder()
        let api = try client(transport, delegate: recorder)
        #expect(try await api.send(Endpoint<Public, String>(path: "/flaky")) == "ok")
        #expect(transport.requests.count == 3)
        #expect(recorder.attempts.withLock { $0 } == 2)

        let always = try client(InMemoryTransport { _ in (503, [:], Data()) }, delegate: Recorder())
        let error = await expectAPIError { try await always.send(Endpoint<Public, String>(path: "/down")) }
        #expect(error?.status == 503)
    }
}

extension JSONDecoder {
    fileprivate static var snakeCaseForTests: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
