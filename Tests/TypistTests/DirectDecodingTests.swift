import APIScript
import DemoService
import Foundation
import Testing
import TypedAPI
import TypedAPICurl
@testable import Typist
@testable import TypistCore

/// The one-pass JSON → value path: which types get a plan, that a plan gives exactly the value of
/// decoding and bridging, and that it gives up rather than guess.
@Suite("One-pass JSON decoding")
struct DirectDecodingTests {
    struct Address: Codable { var city: String; var zip: String? }
    struct Person: Codable {
        var id: Int
        var name: String
        var score: Double
        var active: Bool
        var nickname: String?
        var tags: [String]
        var scores: [String: Int]
        var address: Address
        var previous: [Address]?
        var friends: [Person]?
    }
    struct Renamed: Codable {
        var stargazersCount: Int
        enum CodingKeys: String, CodingKey { case stargazersCount = "stars" }
    }
    struct Shouting: Decodable {
        var title: String
        enum CodingKeys: CodingKey { case title }
        init(from decoder: any Decoder) throws {
            title = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .title).uppercased()
        }
    }
    struct Defaulted: Codable {
        var id: Int
        var seen = false
        enum CodingKeys: CodingKey { case id }
    }
    struct Dated: Codable { var at: Date }
    enum Color: String, Codable, CaseIterable { case red, blue }
    struct Colored: Codable { var color: Color }
    struct Narrow: Codable { var small: Int32 }
    struct Wrapper: Codable {
        var raw: Int
        init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(Int.self) }
    }
    final class Boxed: Codable { var id = 0 }

    private func plan<T: Decodable>(_ type: T.Type, _ bridge: ValueBridge = ValueBridge()) -> ReadingPlan? {
        _ = try? bridge.scriptType(of: type)
        return bridge.readingPlan(for: type)
    }

    /// The value the typed way gives: JSONDecoder, then the bridge.
    private func typed<T: Decodable>(_ type: T.Type, _ json: String, decoder: JSONDecoder = JSONDecoder(),
                                     bridge: ValueBridge) throws -> Value {
        bridge.value(of: try decoder.decode(T.self, from: Data(json.utf8)))
    }

    @Test("Plain models, renamed keys, optionals, arrays, dictionaries and recursion get a plan")
    func transparentTypes() {
        #expect(plan(Person.self) != nil)
        #expect(plan([Person].self) != nil)
        #expect(plan(Renamed.self) != nil)
        #expect(plan(Post.self) != nil)
        #expect(plan(RepositorySearch.self) != nil)
        // A type that decodes itself from one value is read as that JSON value.
        guard case .dynamic? = plan(Wrapper.self) else {
            Issue.record("expected a dynamic plan for a single-value type")
            return
        }
    }

    @Test("Transformed values, defaults, dates, enums, narrow integers, custom containers and classes do not",
          arguments: [0, 1, 2, 3, 4, 6])
    func opaqueTypes(which: Int) {
        let found: ReadingPlan? = switch which {
        case 0: plan(Shouting.self)
        case 1: plan(Defaulted.self)
        case 2: plan(Dated.self)
        case 3: plan(Colored.self)
        case 4: plan(Narrow.self)
        default: plan(Boxed.self)
        }
        #expect(found == nil)
    }

    /// A recursive model whose own plan fails (a property no key fills) after its field `[Tree]`
    /// has been planned against it.
    struct Tree: Codable {
        var name: String
        var children: [Tree]
        var visited = false
        enum CodingKeys: CodingKey { case name, children }
    }

    @Test("A plan left pointing at a record whose build failed is never published")
    func failedBuildLeavesNoPlan() {
        let bridge = ValueBridge()
        #expect(plan(Tree.self, bridge) == nil)
        // `[Tree]` was planned inside Tree's build, against a record never defined.
        #expect(bridge.readingPlan(for: [Tree].self) == nil)
        #expect(bridge.plans.withLock { $0.values.allSatisfy { $0?.isComplete ?? true } })
    }

    @Test("A record plan is defined once, from any thread: the first definition stands, whole")
    func definedOnce() async {
        let plan = RecordPlan()
        #expect(!plan.isDefined && !ReadingPlan.record(plan).isComplete)
        let types = (0..<16).map { RecordType(name: "R\($0)", fields: [.init("id", .int)]) }
        await withTaskGroup(of: Void.self) { group in
            for type in types { group.addTask { plan.define(type: type, keys: ["id"], fields: [.int]) } }
        }
        let definition = plan.definition
        #expect(definition.map { definition in types.contains { $0 === definition.type } } == true)
        #expect(definition?.keyStrings == ["id"] && definition?.keys == [Array("id".utf8)])
        plan.define(type: RecordType(name: "Late", fields: []), keys: [], fields: [])
        #expect(plan.definition === definition)
        #expect(ReadingPlan.record(plan).isComplete)
    }

    @Test("Plans asked for by many threads at once are whole before any is read")
    func plansFromManyThreads() async throws {
        let bridge = ValueBridge()
        _ = try? bridge.scriptType(of: [Person].self)
        let json = #"[{"id":3,"name":"C","score":1,"active":true,"tags":[],"scores":{},"address":{"city":"c"},"friends":[{"id":4,"name":"D","score":4,"active":false,"tags":[],"scores":{},"address":{"city":"d"}}]}]"#
        let expected = try typed([Person].self, json, bridge: bridge)
        let results = await withTaskGroup(of: (ReadingPlan?, Value?).self) { group in
            for _ in 0..<32 {
                group.addTask {
                    let plan = bridge.readingPlan(for: [Person].self)
                    return (plan, plan.flatMap { JSONReader.value(from: Data(json.utf8), plan: $0, decoder: JSONDecoder()) })
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for (plan, value) in results {
            #expect(plan?.isComplete == true)
            #expect(value == expected)
        }
    }

    @Test("A plan gives exactly the value of decoding and bridging", arguments: [
        #"{"id":1,"name":"Ada","score":2.5,"active":true,"tags":["a","b"],"scores":{"x":1,"y":-2},"address":{"city":"Z\u00fcrich"}}"#,
        #"  {"name":"B\"o\\b \ud83d\ude00 \n","id":-9223372036854775808,"score":1e3,"active":false,"nickname":null,"tags":[],"scores":{},"address":{"city":"","zip":"8000"},"previous":[{"city":"x"}],"extra":{"ignored":[1,2,{"a":null}]}}  "#,
        #"{"id":3,"name":"C","score":-0.0,"active":true,"nickname":"cc","tags":["é"],"scores":{"k":0},"address":{"city":"c"},"friends":[{"id":4,"name":"D","score":4,"active":false,"tags":[],"scores":{},"address":{"city":"d"}}]}"#,
    ])
    func equivalence(json: String) throws {
        let bridge = ValueBridge()
        let person = try #require(plan(Person.self, bridge))
        let direct = JSONReader.value(from: Data(json.utf8), plan: person, decoder: JSONDecoder())
        #expect(direct == (try typed(Person.self, json, bridge: bridge)))
        #expect(direct != nil)
    }

    @Test("Renamed keys and snake_case follow the decoder the endpoint uses")
    func keys() throws {
        let bridge = ValueBridge()
        let renamed = try #require(plan(Renamed.self, bridge))
        let json = #"{"stars":42}"#
        #expect(JSONReader.value(from: Data(json.utf8), plan: renamed, decoder: JSONDecoder())
                == (try typed(Renamed.self, json, bridge: bridge)))
        let search = try #require(plan(RepositorySearch.self, bridge))
        let body = #"{"total_count":1,"incomplete_results":false,"items":[{"id":7,"name":"n","full_name":"o/n","owner":{"login":"o","id":1},"stargazers_count":5,"language":null}]}"#
        let direct = JSONReader.value(from: Data(body.utf8), plan: search, decoder: JSONDecoder.snakeCase)
        #expect(direct != nil)
        #expect(direct == (try typed(RepositorySearch.self, body, decoder: .snakeCase, bridge: bridge)))
        // Under default keys the snake_case body does not fit: the plan gives up.
        #expect(JSONReader.value(from: Data(body.utf8), plan: search, decoder: JSONDecoder()) == nil)
        // Dictionary keys are data, not coding keys: JSONDecoder leaves them as they are.
        let person = try #require(plan(Person.self, bridge))
        let snake = #"{"id":1,"name":"A","score":1,"active":true,"tags":[],"scores":{"a_b":1},"address":{"city":"c"}}"#
        let viaSnakeCase = JSONReader.value(from: Data(snake.utf8), plan: person, decoder: .snakeCase)
        #expect(viaSnakeCase != nil)
        #expect(viaSnakeCase == (try typed(Person.self, snake, decoder: .snakeCase, bridge: bridge)))
    }

    @Test("Foundation's snake_case rule, edge cases included", arguments: [
        ("user_id", "userId"), ("_private_key", "_privateKey"), ("trailing__", "trailing__"),
        ("a__b", "aB"), ("ALL_CAPS", "allCaps"), ("simple", "simple"), ("__", "__"), ("x_y_z_", "xYZ_"),
    ])
    func snakeCase(input: String, output: String) throws {
        #expect(JSONReader.convertFromSnakeCase(input) == output)
        // The same as JSONDecoder's own conversion.
        struct Probe: Decodable {
            let key: String
            init(from decoder: any Decoder) throws {
                key = try decoder.container(keyedBy: AnyKey.self).allKeys.first?.stringValue ?? ""
            }
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(Probe.self, from: Data(#"{"\#(input)":1}"#.utf8)).key == output)
    }

    @Test("Anything doubtful gives up, for the typed way to decide", arguments: [
        #"{"id":1,"name":"A","score":1,"active":true,"tags":[],"scores":{}}"#,  // a required key is missing
        #"{"id":"1","name":"A","score":1,"active":true,"tags":[],"scores":{},"address":{"city":""}}"#,  // wrong type
        #"{"id":null,"name":"A","score":1,"active":true,"tags":[],"scores":{},"address":{"city":""}}"#,  // null
        #"{"id":9223372036854775808,"name":"A","score":1,"active":true,"tags":[],"scores":{},"address":{"city":""}}"#,
        #"{"id":1.0,"name":"A","score":1,"active":true,"tags":[],"scores":{},"address":{"city":""}}"#,
        #"{"id":01,"name":"A","score":1,"active":true,"tags":[],"scores":{},"address":{"city":""}}"#,
        #"{"id":1,"id":2,"name":"A","score":1,"active":true,"tags":[],"scores":{},"address":{"city":""}}"#,
        #"{"id":1,"name":"A","score":1,"active":true,"tags":[],"scores":{},"address":{"city":""}} x"#,
        #"{"id":1,"name":"A","score":1,"active":true,"tags":[,],"scores":{},"address":{"city":""}}"#,
        #"{"id":1,"name":"\ud800","score":1,"active":true,"tags":[],"scores":{},"address":{"city":""}}"#,
        #"{"id":1,"name":"A","score":1,"active":true,"tags":[],"scores":{},"address":{"city":""},"x":[1,]}"#,
        #"{"id":1,"name":"A","score":1,"active":true,"tags":[],"scores":{},"address":{"city":""}"#,
    ])
    func givesUp(json: String) throws {
        let person = try #require(plan(Person.self))
        #expect(JSONReader.value(from: Data(json.utf8), plan: person, decoder: JSONDecoder()) == nil)
    }

    @Test("Invalid UTF-8 and bare control characters give up")
    func invalidBytes() throws {
        let strings = try #require(plan([String].self))
        #expect(JSONReader.value(from: Data([0x5B, 0x22, 0xFF, 0x22, 0x5D]), plan: strings, decoder: JSONDecoder()) == nil)
        #expect(JSONReader.value(from: Data([0x5B, 0x22, 0x0A, 0x22, 0x5D]), plan: strings, decoder: JSONDecoder()) == nil)
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let nested = try #require(plan([[[[String]]]].self))
        #expect(JSONReader.value(from: Data(deep.utf8), plan: nested, decoder: JSONDecoder()) == nil)
    }

    @Test("Real demo responses read the same both ways")
    func demoResponses() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: CurlTransport())
        let bridge = ValueBridge()
        func check<Kind, T: Decodable>(_ endpoint: Endpoint<Kind, T>, decoder: JSONDecoder = JSONDecoder(),
                                       sourceLocation: SourceLocation = #_sourceLocation) async throws
        where Kind.RequestData == Void {
            let plan = try #require(self.plan(T.self, bridge), "\(T.self)", sourceLocation: sourceLocation)
            let body = try await client.send(endpoint.redecoded(.data))
            let direct = JSONReader.value(from: body, plan: plan, decoder: decoder)
            #expect(direct != nil, "\(T.self)", sourceLocation: sourceLocation)
            #expect(direct == bridge.value(of: try decoder.decode(T.self, from: body)), "\(T.self)", sourceLocation: sourceLocation)
        }
        try await check(.posts)
        try await check(.bigPosts(count: 500))
        try await check(.comments(postId: 3))
        try await check(.albums)
        try await check(.searchRepositories(query: "swift"), decoder: .snakeCase)
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
