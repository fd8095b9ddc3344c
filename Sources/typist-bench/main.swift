// The plain-Swift side of Scripts/bench: the same TypedAPI client the shell uses, in a loop.
// Usage: typist-bench loop BASE_URL COUNT ahc|urlsession|curl|curl-executor|memory
// (curl-executor runs the loop on the libcurl thread; memory answers in-process, measuring the client alone)
import DemoService
import Foundation
import HTTPTypes
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl

let arguments = CommandLine.arguments
guard arguments.count == 5, arguments[1] == "loop", let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: typist-bench loop BASE_URL COUNT ahc|urlsession|curl|curl-executor|memory\n".utf8))
    exit(64)
}
/// Answers every request at once with one post: the client's own cost per call, without a network.
struct MemoryTransport: HTTPTransport {
    let body = Data(#"{"userId":1,"id":1,"title":"sunt aut facere repellat provident occaecati excepturi optio reprehenderit","body":"quia et suscipit suscipit recusandae consequuntur expedita et cum reprehenderit molestiae ut ut quas totam nostrum rerum est autem sunt rem eveniet architecto"}"#.utf8)
    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), self.body)
    }
}
let transport: any HTTPTransport = switch arguments[4] {
case "urlsession": URLSessionTransport()
case "curl", "curl-executor": CurlTransport()
case "memory": MemoryTransport()
default: AsyncHTTPClientTransport()
}
let client = APIClient(environment: try ServerEnvironment(url: arguments[2]), transport: transport)
// Warm up the connection, as every client in the comparison does.
for id in 1...50 { _ = try await client.send(.post(id: id)) }
@Sendable func loop() async throws -> (Int, Duration) {
    let start = ContinuousClock.now
    var checksum = 0
    for index in 0..<count {
        let post = try await client.send(.post(id: index % 100 + 1))
        checksum &+= post.id
    }
    return (checksum, ContinuousClock.now - start)
}
let (checksum, elapsed) = arguments[4] == "curl-executor"
    ? try await Task(executorPreference: CurlTransport.executor) { try await loop() }.value
    : try await loop()
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print(#"{"calls": \#(count), "seconds": \#(seconds), "checksum": \#(checksum)}"#)
