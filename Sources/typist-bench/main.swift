// The plain-Swift side of Scripts/bench: the same TypedAPI client the shell uses, in a loop.
// Usage: typist-bench loop BASE_URL COUNT ahc|urlsession|curl|curl-executor|memory
// (curl-executor runs the loop on the libcurl thread; memory answers in-process, measuring the client alone)
//        typist-bench stream BASE_URL COUNT curl|ahc
// (COUNT build events of the demo's event stream, each decoded into BuildEvent)
import DemoService
import Foundation
import HTTPTypes
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl

let arguments = CommandLine.arguments
guard arguments.count == 5, arguments[1] == "loop" || arguments[1] == "stream", let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: typist-bench loop|stream BASE_URL COUNT ahc|urlsession|curl|curl-executor|memory\n".utf8))
    exit(64)
}
if arguments[1] == "stream" {
    let transport: any HTTPTransport = arguments[4] == "ahc" ? AsyncHTTPClientTransport() : CurlTransport()
    let client = APIClient(environment: try ServerEnvironment(url: arguments[2]), transport: transport)
    let events = Endpoint<Public, BuildEvent>(.get(query: [URLQueryItem(name: "count", value: String(count))]), path: "/events")
    // Off the main actor, as the call loop below: iterating on it would hop threads for every item.
    @Sendable func read() async throws -> (Int, Int, Duration) {
        let start = ContinuousClock.now
        var items = 0
        var checksum = 0
        for try await event in client.stream(events) {
            items += 1
            checksum &+= event.n
        }
        return (items, checksum, ContinuousClock.now - start)
    }
    let (items, checksum, elapsed) = try await read()
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(#"{"items": \#(items), "seconds": \#(seconds), "checksum": \#(checksum)}"#)
    exit(0)
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
