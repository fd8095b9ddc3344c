import APIScript
import FaultServer
import Foundation
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl
@testable import Typist
@testable import TypistCore

/// httpbin bound by a small host of the tests' own, as a third party would bind it, and used
/// from scripts through every transport: models whose fields decode themselves (an any-JSON
/// type, a string-backed type) are dynamic values that are what the server sent.
@Suite("httpbin through a host of its own, at the script level", .disabled(if: HttpbinServer.unavailable != nil,
                                                                          "\(HttpbinServer.unavailable ?? "")"))
struct HttpbinShellTests {
    /// Any JSON, the way hosts write it: an enum with associated values that decodes itself.
    enum JSONValue: Codable, Sendable {
        case null, bool(Bool), int(Int), double(Double), string(String), array([JSONValue]), object([String: JSONValue])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
            else if let number = try? container.decode(Int.self) { self = .int(number) }
            else if let number = try? container.decode(Double.self) { self = .double(number) }
            else if let text = try? container.decode(String.self) { self = .string(text) }
            else if let items = try? container.decode([JSONValue].self) { self = .array(items) }
            else { self = .object(try container.decode([String: JSONValue].self)) }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let flag): try container.encode(flag)
            case .int(let number): try container.encode(number)
            case .double(let number): try container.encode(number)
            case .string(let text): try container.encode(text)
            case .array(let items): try container.encode(items)
            case .object(let fields): try container.encode(fields)
            }
        }
    }

    /// A type decoded from one string: its Swift properties are not what the server sent.
    struct Verb: Codable, Sendable {
        var word: String
        var isSafe: Bool
        init(from decoder: any Decoder) throws {
            word = try decoder.singleValueContainer().decode(String.self)
            isSafe = word == "GET" || word == "HEAD"
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(word)
        }
    }

    /// Read in one pass (every field transparent or self-decoding).
    struct Anything: Decodable, Sendable {
        var json: JSONValue?
        var method: Verb
        var args: [String: String]
    }

    /// Read the typed way (a `URL` field has no one-pass plan): the dynamic fields come from the model.
    struct AnythingTyped: Decodable, Sendable {
        var json: JSONValue?
        var method: Verb
        var url: URL
    }

    struct Draft: Encodable, Sendable {
        var title: String
        var tags: [String]
        var score: Double
        var nested: [String: [Int]]
    }

    static func registry() throws -> EndpointRegistry {
        try EndpointRegistry {
            Group("httpbin") {
                Register("anything", summary: "Echoes a JSON draft", Parameter<String>("title")) { title in
                    Endpoint<Public, Anything>(.post(.json(Draft(title: title, tags: ["a", "b"], score: 2.5,
                                                                 nested: ["k": [1, 2, 3]]))), path: "/anything")
                }
                Register("anythingTyped", summary: "Echoes a JSON draft (decoded the typed way)", Parameter<String>("title")) { title in
                    Endpoint<Public, AnythingTyped>(.post(.json(Draft(title: title, tags: ["a", "b"], score: 2.5,
                                                                      nested: ["k": [1, 2, 3]]))), path: "/anything")
                }
                Register("getAnything", summary: "Echoes a GET") {
                    Endpoint<Public, Anything>(path: "/anything")
                }
                Register("randomBytes", summary: "n random bytes, the same for the same seed",
                         Parameter<Int>("count"), Parameter<Int>("seed")) { count, seed in
                    Endpoint<Public, Data>(.get(query: [URLQueryItem(name: "seed", value: String(seed))]), path: "/bytes/\(count)")
                }
                Register("decoded", summary: "The bytes a Base64 text stands for", Parameter<String>("base64")) { text in
                    Endpoint<Public, Data>(path: "/base64/\(Endpoint<Public, Data>.escape(text))")
                }
            }
        }
    }

    typealias Transport = ShellTransport

    private func withHttpbinShell(_ transport: Transport, _ body: (Shell, CapturedOutput) async throws -> Void) async throws {
        let server = try await HttpbinServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try Shell(registry: try Self.registry(), environment: try ServerEnvironment(url: server.baseURL),
                              transport: transport.make(), output: output.shellOutput)
        try await body(shell, output)
    }

    @Test("Self-decoding fields are dynamic before any call: their type is Any, not a guess")
    func shapes() async throws {
        let registry = try Self.registry()
        let anything = try #require(registry.endpoints.first { $0.name == "anything" })
        guard case .record(let record) = anything.responseType else {
            Issue.record("expected a record, got \(anything.responseType)")
            return
        }
        #expect(record.fields.map(\.name) == ["json", "method", "args"])
        #expect(record.fields.map(\.type) == [.any, .any, .dictionary(.string)])
        // One response model is read in one pass, the other the typed way: both paths are tested below.
        let bridge = ValueBridge()
        #expect(bridge.readingPlan(for: Anything.self) != nil)
        #expect(bridge.readingPlan(for: AnythingTyped.self) == nil)
    }

    @Test("An any-JSON field is navigable by key, index and member, in one pass and the typed way",
          arguments: Transport.allCases)
    func anyJSON(transport: Transport) async throws {
        try await withHttpbinShell(transport) { shell, output in
            for call in ["anything", "anythingTyped"] {
                func value(_ path: String) async throws -> Value { try await shell.evaluate("\(call)(title: \"t & ü\")\(path)") }
                let values = [try await value(".json.title"), try await value(".json[\"tags\"][1]"),
                              try await value(".json.score"), try await value(".json.nested.k[2]"),
                              // The string-backed type is the string the server sent, not its Swift properties.
                              try await value(".method")]
                #expect(values == [.string("t & ü"), .string("b"), .double(2.5), .int(3), .string("POST")], "\(call)")
                output.clear()
                await shell.handle("\(call)(title: \"x\").json")
                #expect(output.standard.contains("\"title\": \"x\""), "\(output.standard)")
                #expect(!output.all.contains("JSONValue") && !output.all.contains("object(["), "\(output.all)")
            }
            // A body without JSON leaves the optional any-JSON field null.
            let absent = try await shell.evaluate("getAnything().json")
            #expect(absent == .null)
            // Checked when it runs: a missing key is an error with its place, not a crash.
            #expect(await shell.handle("anything(title: \"x\").json.nope.deeper") == false)
            #expect(!output.error.isEmpty)
        }
    }

    @Test("The untyped calls: query, headers and JSON bodies as sent, any status an answer, credentials and cookies of the session",
          arguments: Transport.allCases)
    func untyped(transport: Transport) async throws {
        try await withHttpbinShell(transport) { shell, output in
            func value(_ text: String) async throws -> Value { try await shell.evaluate(text) }
            let echoed = [
                try await value(#"httpGet("/anything", query: ["q": "a b&c=d+é"], headers: ["X-Trace": "t1"]).json.args.q"#),
                try await value(#"httpGet("/anything", headers: ["X-Trace": "t1"]).json.headers["X-Trace"]"#),
                try await value(#"httpPost("/anything", json: ["name": "Ada", "n": [1, 2]]).json.data"#),
                try await value(#"httpPut("/anything", json: ["x": nil]).json.method"#),
                try await value(#"httpDelete("/anything").json.method"#),
                try await value(#"httpGet("/status/418").status"#),
                try await value(#"httpGet("/html").json"#),
            ]
            #expect(echoed == [.string("a b&c=d+é"), .string("t1"), .string(#"{"n":[1,2],"name":"Ada"}"#), .string("PUT"),
                               .string("DELETE"), .int(418), .null])
            let text = try await value(#"httpGet("/robots.txt").text"#)
            #expect("\(text)".contains("Disallow"), "\(text)")
            // A stream nobody declared: httpbin's `/stream/n` is JSON Lines sent as application/json
            // (as Kubernetes' watches are), read line by line as it comes.
            #expect(try await value(#"httpStream("/stream/3").reduce("") { $0 + "\($1.id)" }"#) == .string("012"))
            // The session's credentials: Basic from username and password, then the token first.
            _ = try await value(#"username = "ada""#)
            _ = try await value(#"password = "lovelace""#)
            #expect(try await value(#"httpGet("/basic-auth/ada/lovelace").json.authenticated"#) == .bool(true))
            _ = try await value(#"token = "t0k3n""#)
            #expect(try await value(#"httpGet("/bearer").json.authenticated"#) == .bool(true))
            // Cookies set on a redirect come back.
            _ = try await value(#"httpGet("/cookies/set", query: ["flavour": "oat"])"#)
            #expect(try await value(#"httpGet("/cookies").json.cookies.flavour"#) == .string("oat"))
            // :curl shows the untyped call as it would go, the token as a variable.
            output.clear()
            await shell.handle(#":curl httpPost("/anything", json: ["b": 2, "a": 1])"#)
            #expect(output.standard.contains("-X POST"), "\(output.standard)")
            #expect(output.standard.contains(#"{"a":1,"b":2}"#), "\(output.standard)")
            #expect(output.standard.contains("$TYPIST_TOKEN") || output.standard.contains("${TYPIST_TOKEN}"), "\(output.standard)")
            #expect(!output.all.contains("t0k3n") && !output.all.contains("lovelace"))
            // Another origin is refused (nothing is sent) with what to do.
            output.clear()
            #expect(await shell.handle(#"httpGet("https://example.com/x")"#) == false)
            #expect(output.error.contains("is on another origin than baseURL"), "\(output.error)")
            #expect(output.error.contains("crossOrigin: true"), "\(output.error)")
        }
    }

    @Test("A Data response is Bytes: counted, indexed, sliced and encoded, never a lossy string",
          arguments: Transport.allCases)
    func bytes(transport: Transport) async throws {
        try await withHttpbinShell(transport) { shell, output in
            func value(_ text: String) async throws -> Value { try await shell.evaluate(text) }
            // The same bytes as the untyped call's `bytes`, and as Foundation reads them.
            let typed = try await value("randomBytes(count: 64, seed: 7)")
            let untyped = try await value(#"httpGet("/bytes/64", query: ["seed": "7"]).bytes"#)
            guard case .bytes(let raw) = typed else {
                Issue.record("expected Bytes, got \(typed)")
                return
            }
            #expect(raw.count == 64)
            #expect(untyped == typed)
            #expect(try await value("randomBytes(count: 64, seed: 7).count") == .int(64))
            #expect(try await value("randomBytes(count: 64, seed: 7)[63]") == .int(Int(raw[63])))
            #expect(try await value("randomBytes(count: 64, seed: 7).prefix(3).hex")
                == .string(raw.prefix(3).map { String(format: "%02x", $0) }.joined()))
            #expect(try await value("randomBytes(count: 64, seed: 7).base64") == .string(Data(raw).base64EncodedString()))
            #expect(try await value("randomBytes(count: 64, seed: 7).utf8")
                == (String(validating: raw, as: UTF8.self).map(Value.string) ?? .null))
            #expect(try await value(#"decoded(base64: "SFRUUEJJTiBpcyBhd2Vzb21l").utf8"#) == .string("HTTPBIN is awesome"))
            // Printed as a count and the first bytes, never as text with replacement characters.
            output.clear()
            await shell.handle("randomBytes(count: 64, seed: 7)")
            let shown = raw.prefix(8).map { String(format: "%02x", $0) }.joined()
            #expect(output.standard.contains("<64 bytes: \(shown)…>"), "\(output.standard)")
            #expect(!output.all.contains("\u{FFFD}"))
            // Known before any call: completion and :describe say Bytes.
            #expect(try shell.interpreter.staticType(of: "randomBytes(count: 1, seed: 1)").get() == .bytes)
            output.clear()
            await shell.handle(":describe randomBytes")
            #expect(output.standard.contains("Bytes"), "\(output.standard)")
            // JSON output writes Base64, as JSONEncoder writes Data.
            output.clear()
            await shell.handle(":format json")
            await shell.handle(#"decoded(base64: "SFRUUEJJTiBpcyBhd2Vzb21l")"#)
            #expect(output.standard.contains(#""SFRUUEJJTiBpcyBhd2Vzb21l""#), "\(output.standard)")
        }
    }
}
