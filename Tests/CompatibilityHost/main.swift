// A host written against Typist 0.1.0's public API, as a third party wrote it for httpbin: its
// endpoint names are the service's paths, and some are names the shell also uses (`cookies`,
// `headers`, `token`) or a built-in's (`print`). It must keep compiling and starting with every
// later Typist; breaking it is a decision recorded in CHANGELOG.md with the version bumped.
// `CompatibilityHostTests` runs it. Keep this file as it is.
import Foundation
import TypedAPI
import Typist
import TypistCurl

struct CookieJarEcho: Decodable, Sendable { let cookies: [String: String] }
struct HeaderEcho: Decodable, Sendable { let headers: [String: String] }
struct IssuedToken: Decodable, Sendable { let token: String }
struct Person: Decodable, Sendable {
    let id: Int
    let name: String
}
struct RequestEcho: Decodable, Sendable {
    let url: String
    let args: [String: String]
}
struct Printed: Decodable, Sendable { let printed: Bool }

let host = ShellHost(
    name: "compat-host",
    registry: {
        try EndpointRegistry {
            Group("httpbin") {
                Register("cookies", summary: "The cookies the server saw") { Endpoint<Public, CookieJarEcho>(path: "/cookies") }
                Register("headers", summary: "The headers the server saw") { Endpoint<Public, HeaderEcho>(path: "/headers") }
                Register("token", summary: "A token from the service") { Endpoint<Public, IssuedToken>(path: "/token") }
                Register("user", summary: "One user", Parameter<Int>("id")) { id in Endpoint<Public, Person>(path: "/user/\(id)") }
                Register("get", summary: "Echoes a GET", Parameter<String>("q")) { q in
                    Endpoint<Public, RequestEcho>(.get(query: [URLQueryItem(name: "q", value: q)]), path: "/get")
                }
                Register("print", summary: "Asks the service to print") { Endpoint<Public, Printed>(path: "/print") }
            }
        }
    },
    transports: [.curl, .urlSession])
ShellCommandLine.prepareProcess()
exit(await ShellCommandLine.main(host))
