// The plain-Swift side of Scripts/bench: the same TypedAPI client the shell uses, in a loop.
// Usage: typist-bench loop BASE_URL COUNT ahc|urlsession
import DemoService
import Foundation
import TypedAPI
import TypedAPIAsyncHTTPClient

let arguments = CommandLine.arguments
guard arguments.count == 5, arguments[1] == "loop", let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: typist-bench loop BASE_URL COUNT ahc|urlsession\n".utf8))
    exit(64)
}
let transport: any HTTPTransport = arguments[4] == "urlsession" ? URLSessionTransport() : AsyncHTTPClientTransport()
let client = APIClient(environment: try ServerEnvironment(url: arguments[2]), transport: transport)
// Warm up the connection, as every client in the comparison does.
for id in 1...50 { _ = try await client.send(.post(id: id)) }
let start = ContinuousClock.now
var checksum = 0
for index in 0..<count {
    let post = try await client.send(.post(id: index % 100 + 1))
    checksum &+= post.id
}
let elapsed = ContinuousClock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print(#"{"calls": \#(count), "seconds": \#(seconds), "checksum": \#(checksum)}"#)
