import APIScript
import Foundation
import Testing
import TypedAPI
@testable import Typist
@testable import TypistCore

/// `:describe` tells the whole truth about a request: every parameter in the request line
/// (optional Bools and enums found by difference), the body's type and fields, the envelope,
/// the kind, and the named values of enum arguments.
@Suite(":describe from the types")
struct DescribeTests {
    enum Order: String, CaseIterable, Sendable, ScriptArgument { case newest, oldest = "created_asc" }

    /// A kind of the host's own: a tenant header.
    enum Tenant: ShellKind {
        static func prepare(_ request: inout PreparedRequest, with data: Void) { request.setHeader(.custom(name: "X-Tenant", value: "t1")) }
        static func requestData(from session: SessionCredentials, calling function: String) throws {}
    }

    struct Note: Decodable, Sendable { var id: Int; var text: String }
    struct NoteDraft: Encodable, Sendable { var text: String; var pinned: Bool; var tags: [String] }

    static func registry() throws -> EndpointRegistry {
        try EndpointRegistry {
            Group("Notes") {
                Register("notes", summary: "Lists notes", Parameter<Bool?>("pinned"), Parameter<Order?>("order"),
                         Parameter<Bool>("archived", default: false), Parameter<Int>("limit", default: 10)) { pinned, order, archived, limit in
                    var query = [URLQueryItem(name: "limit", value: "\(limit)")]
                    if let pinned { query.append(URLQueryItem(name: "pinned", value: pinned ? "1" : "0")) }
                    if let order { query.append(URLQueryItem(name: "order", value: order.rawValue)) }
                    if archived { query.append(URLQueryItem(name: "archived", value: "yes")) }
                    return Endpoint<Public, [Note]>(.get(query: query), path: "/notes", envelope: "data")
                }
                Register("addNote", summary: "Adds a note", Parameter<String>("text")) { text in
                    Endpoint<Tenant, Note>(.post(.json(NoteDraft(text: text, pinned: false, tags: []))), path: "/notes")
                }
            }
        }
    }

    private func describe(_ name: String) async throws -> String {
        let output = CapturedOutput()
        let shell = try Shell(registry: try Self.registry(), environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: InMemoryTransport(), output: output.shellOutput)
        await shell.handle(":describe \(name)")
        return output.all
    }

    @Test("Optional Bools, optional enums and Bools with defaults all appear in the request line")
    func requestLine() async throws {
        let text = try await describe("notes")
        #expect(text.contains("request:  GET /notes?limit={limit}&pinned={pinned}&order={order}&archived={archived}"), "\(text)")
        #expect(text.contains("param:    order: Order? = nil  (one of .newest, .oldest)"), "\(text)")
        #expect(text.contains("response: [Note]  (under \"data\" in the JSON)"), "\(text)")
        #expect(text.contains("kind:     Public (no credentials)"), "\(text)")
    }

    @Test("The body's type and fields, a host's own kind, and the body type described by name")
    func bodyAndKind() async throws {
        let text = try await describe("addNote")
        #expect(text.contains("body:     NoteDraft (JSON)\n    text: String\n    pinned: Bool\n    tags: [String]"), "\(text)")
        #expect(text.contains("kind:     Tenant (a kind of the host's own)"), "\(text)")
        let draft = try await describe("NoteDraft")
        #expect(draft.contains("NoteDraft  (a request body, sent as JSON)\n  text: String"), "\(draft)")
        #expect(draft.contains("sent by: addNote"), "\(draft)")
    }

    @Test("An enum argument type lists its cases and who takes it")
    func enumType() async throws {
        let text = try await describe("Order")
        #expect(text.contains("enum Order"), "\(text)")
        #expect(text.contains("case newest\n  case oldest = \"created_asc\""), "\(text)")
        #expect(text.contains("used by: notes"), "\(text)")
    }
}
