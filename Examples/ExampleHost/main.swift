// An example host: its own models and endpoints, embedded in a few lines.
// Run: swift run example-host            (starts the demo service as its backend)
//      swift run example-host run Examples/ExampleHost/reading-list.api
import DemoService
import Foundation
import TypedAPI
import Typist
import TypistCurl

/// This host's own view of the data: articles and writers, not posts and authors.
struct Article: Decodable, Sendable {
    let id: Int
    let title: String
    let userId: Int
}

struct Writer: Decodable, Sendable {
    struct Employer: Decodable, Sendable { let name: String }
    let id: Int
    let name: String
    let company: Employer
}

enum ReadingList {
    static var registry: EndpointRegistry {
        get throws {
            try EndpointRegistry {
                Group("Reading") {
                    Register("articles", summary: "Every article") { Endpoint<Public, [Article]>(path: "/posts") }
                    Register("article", summary: "One article", Parameter<Int>("number")) { number in
                        Endpoint<Public, Article>(path: "/posts/\(number)")
                    }
                    Register("writer", summary: "Who wrote it", Parameter<Int>("id")) { id in
                        Endpoint<Public, Writer>(path: "/users/\(id)")
                    }
                }
            }
        }
    }
}

let host = ShellHost(
    name: "example-host", registry: { try ReadingList.registry }, transports: [.curl, .urlSession],
    defaultService: {
        let server = try await DemoServer.start(logLevel: .critical)
        return (server.baseURL, { await server.stop() })
    })
ShellCommandLine.prepareProcess()
exit(await ShellCommandLine.main(host))
