import APIScript
import Foundation
import Testing
import TypedAPI
@testable import Typist
@testable import TypistCore

/// A parameter of a raw-value enum type takes its cases as Swift writes them: `sort: .stars`.
@Suite("Enum arguments")
struct EnumArgumentTests {
    /// Case names that differ from their raw values, as real APIs have them.
    enum Order: String, Sendable, CaseIterable, ScriptArgument {
        case newestFirst = "created_desc"
        case oldestFirst = "created_asc"
        case `default` = "relevance"
    }

    struct Item: Decodable, Sendable { var id: Int }

    static func registry() throws -> EndpointRegistry {
        try EndpointRegistry {
            Register("items", summary: "Items in an order", Parameter<Order>("order"), Parameter<Order?>("then", default: nil)) { order, then in
                var query = [URLQueryItem(name: "order", value: order.rawValue)]
                if let then { query.append(URLQueryItem(name: "then", value: then.rawValue)) }
                return Endpoint<Public, [Item]>(.get(query: query), path: "/items")
            }
            Register("sorted", summary: "Items in several orders", Parameter<[Order]>("orders"), Parameter<Set<Order>?>("ties", default: nil)) { orders, ties in
                let query = orders.map { URLQueryItem(name: "order", value: $0.rawValue) }
                    + (ties ?? []).map(\.rawValue).sorted().map { URLQueryItem(name: "tie", value: $0) }
                return Endpoint<Public, [Item]>(.get(query: query), path: "/sorted")
            }
        }
    }

    private func withShell(_ body: (Shell, CapturedOutput) async throws -> Void) async throws {
        let output = CapturedOutput()
        let shell = try Shell(registry: try Self.registry(), environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: URLSessionTransport(), output: output.shellOutput)
        try await body(shell, output)
    }

    @Test("`.case` stands for the case's raw value; the raw value as a string still works")
    func implicitMembers() async throws {
        try await withShell { shell, output in
            await shell.handle(":curl items(order: .newestFirst, then: .default)")
            #expect(output.standard.contains("order=created_desc"), "\(output.standard)")
            #expect(output.standard.contains("then=relevance"), "\(output.standard)")
            output.clear()
            await shell.handle(#":curl items(order: "created_asc")"#)
            #expect(output.standard.contains("order=created_asc"), "\(output.standard)")
            let type = try shell.interpreter.staticType(of: "items(order: .oldestFirst)").get()
            #expect(type.description == "[Item]")
        }
    }

    @Test("A case that does not exist is an error before anything is sent, naming the cases")
    func unknownCase() async throws {
        try await withShell { shell, output in
            #expect(await shell.handle("items(order: .newest)") == false)
            #expect(output.error.contains("<input>:1:14: error: type 'Order' has no member 'newest'"), "\(output.error)")
            #expect(output.error.contains(".newestFirst, .oldestFirst, .default"), "\(output.error)")
            #expect(output.error.contains("did you mean '.newestFirst'?"), "\(output.error)")
            output.clear()
            // Where no parameter names an enum, `.x` has no type to be a member of.
            #expect(await shell.handle("let o = .newestFirst") == false)
            #expect(output.error.contains("cannot infer the type of '.newestFirst'"), "\(output.error)")
        }
    }

    @Test("Completion after `order: .` offers the enum's cases, before any call")
    func completion() async throws {
        try await withShell { shell, _ in
            let all = shell.interpreter.completions(for: "items(order: .", cursor: 14)
            #expect(all.candidates == ["newestFirst", "oldestFirst", "default"], "the cases in the order the enum declares them")
            #expect(all.areMembers)
            let some = shell.interpreter.completions(for: "items(order: .oldestFirst, then: .ne", cursor: 36)
            #expect(some.candidates == ["newestFirst"])
        }
    }

    @Test("An array (or set) of an enum takes its cases element by element: `orders: [.newestFirst, .default]`")
    func arrays() async throws {
        try await withShell { shell, output in
            await shell.handle(":curl sorted(orders: [.newestFirst, .default], ties: [.oldestFirst])")
            #expect(output.standard.contains("order=created_desc&order=relevance&tie=created_asc"), "\(output.standard)")
            output.clear()
            // Raw values still work, and may be mixed with cases.
            await shell.handle(#":curl sorted(orders: [.oldestFirst, "relevance"])"#)
            #expect(output.standard.contains("order=created_asc&order=relevance"), "\(output.standard)")
            output.clear()
            #expect(await shell.handle("sorted(orders: [.newestFirst, .oldestFrst])") == false)
            #expect(output.error.contains("<input>:1:31: error: type 'Order' has no member 'oldestFrst'"), "\(output.error)")
            #expect(output.error.contains("did you mean '.oldestFirst'?"), "\(output.error)")
            output.clear()
            #expect(await shell.handle("sorted(orders: [.newestFirst, 3])") == false)
            #expect(output.error.contains("cannot convert value of type 'Int' to expected argument type 'String'"), "\(output.error)")
            // Tab inside the array offers the cases; :describe names the enum, not the array.
            #expect(shell.interpreter.completions(for: "sorted(orders: [.newestFirst, .", cursor: 31).candidates
                    == ["newestFirst", "oldestFirst", "default"])
            #expect(shell.interpreter.completions(for: "sorted(orders: [.de", cursor: 19).candidates == ["default"])
            let described = try #require(shell.describeText("sorted"))
            #expect(described.contains("orders: [Order]  (one of .newestFirst, .oldestFirst, .default)"), "\(described)")
            // :swift writes cases, also for raw values written as strings.
            output.clear()
            await shell.handle(#":swift sorted(orders: ["created_asc", "relevance"])"#)
            #expect(output.standard.contains(".sorted(orders: [.oldestFirst, .default])"), "\(output.standard)")
        }
    }

    @Test("The demo's search takes `sort: .stars` through a real server")
    func demo() async throws {
        try await withDemoShell { shell, _, _ in
            let count = try await shell.evaluate("searchRepositories(query: \"swift\", sort: .stars, perPage: 1).items.count")
            #expect(count == .int(1))
        }
    }
}
