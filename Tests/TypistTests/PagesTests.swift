import APIScript
import DemoBindings
import DemoService
import FaultServer
import Foundation
import Testing
import TypedAPI
@testable import Typist
@testable import TypistCore

/// What evaluating `text` fails with ("" when it does not fail).
private func failure(_ shell: Shell, _ text: String) async -> String {
    do {
        _ = try await shell.evaluate(text)
        return ""
    } catch {
        return "\(error)"
    }
}

/// `pages { … }`: one endpoint call, followed from page to page by its `Link: rel="next"` header or a
/// `next` field, the pages' items concatenated and typed — for compiled endpoints, a document's
/// operations and untyped calls alike; never to another origin.
@Suite("Pagination: pages { … }")
struct PagesTests {
    private static let names = ["apple/swift", "apple/swift-nio", "apple/swift-argument-parser"]

    @Test("A compiled endpoint's pages, typed before any call, through every transport",
          arguments: HttpbinShellTests.Transport.allCases)
    func compiledEndpoint(transport: HttpbinShellTests.Transport) async throws {
        let server = try await DemoServer.start()
        do {
            let output = CapturedOutput()
            let shell = try Shell(registry: try DemoBindings.registry(), environment: try ServerEnvironment(url: server.baseURL),
                                  transport: transport.make(), output: output.shellOutput)
            #expect(try shell.interpreter.staticType(of: #"pages { searchRepositories(query: "swift", perPage: 2) }"#).get().description == "[Repository]")
            let one = try await shell.evaluate(#"searchRepositories(query: "swift", perPage: 100).items.map(\.fullName)"#)
            let all = try await shell.evaluate(#"pages { searchRepositories(query: "swift", perPage: 2) }.map(\.fullName)"#)
            guard case .array(let every) = one, case .array(let paged) = all else {
                Issue.record("not arrays: \(one), \(all)")
                await server.stop()
                return
            }
            #expect(every.count > 4, "the query must span several pages of 2")
            #expect(paged == every, "the pages, in order, are the whole result")
            #expect(Array(paged.prefix(3)) == Self.names.map(Value.string))
            // `limit:` stops early; the last exchange is the last page's.
            #expect(try await shell.evaluate(#"pages(limit: 2) { searchRepositories(query: "swift", perPage: 2) }.count"#) == .int(4))
            #expect("\(try await shell.evaluate("response!.url"))".contains("page=2"))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("A document's operation pages the same way: typist --openapi, no Swift bindings")
    func documentOperation() async throws {
        let server = try await DemoServer.start()
        do {
            try await withTemporaryFolder("typist-pages") { folder in
                let document = folder.appendingPathComponent("openapi.yaml")
                try SpecFixture.document.write(to: document, atomically: true, encoding: .utf8)
                let input = """
                    :type pages { searchRepositories(q: "swift", perPage: 2) }
                    let all = pages { searchRepositories(q: "swift", perPage: 2) }
                    print(all.count == searchRepositories(q: "swift", perPage: 100).items.count, all.count > 4)
                    print(all.prefix(3).map(\\.fullName))

                    """
                let ran = try await Built.run("typist", ["--openapi", document.path, "--base-url", server.baseURL], input: input,
                                              environment: ["XDG_CACHE_HOME": folder.path])
                #expect(ran.status == 0, "\(ran.error)")
                #expect(ran.standard.contains("[Repository]"), "\(ran.standard)")
                #expect(ran.standard.contains("true true"), "\(ran.standard)")
                #expect(ran.standard.contains(#"["apple/swift", "apple/swift-nio", "apple/swift-argument-parser"]"#), "\(ran.standard)")
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("The checker refuses what has no items, and a closure with no call or two is refused as it runs")
    func refusals() async throws {
        try await withDemoShell { shell, _, _ in
            let check = shell.check(ScriptSource(name: "p.api", text: "pages { post(id: 1) }"))
            #expect(check.contains { $0.message.contains("its call must return an array, or a record with one array field, not Post") }, "\(check)")
            #expect(await failure(shell, "pages { [1, 2] }").contains("needs one endpoint call in its closure"))
            #expect(await failure(shell, "pages { posts() + posts() }").contains("makes more than one"))
            #expect(await failure(shell, "pages(limit: 0) { posts() }").contains("must be at least 1, not 0"))
            // The session is whole after each refusal.
            let count = try await shell.evaluate("pages { posts() }.count")
            #expect(count == .int(100))
        }
    }

    @Test("Link headers as RFC 8288 writes them")
    func linkHeaders() {
        #expect(PageFollower.next(inLinkHeader: #"<https://a.example/x?page=2>; rel="next", <https://a.example/x?page=9>; rel="last""#)
            == "https://a.example/x?page=2")
        #expect(PageFollower.next(inLinkHeader: #"<https://a.example/x?page=1>; rel="prev", <https://a.example/x?page=3>; rel=next"#)
            == "https://a.example/x?page=3")
        #expect(PageFollower.next(inLinkHeader: #"</items?cursor=a,b>; title="x, y"; rel="last next""#) == "/items?cursor=a,b")
        #expect(PageFollower.next(inLinkHeader: #"<https://a.example/x?page=9>; rel="last""#) == nil)
        #expect(PageFollower.next(inLinkHeader: "") == nil)
        #expect(PageFollower.next(inLinkHeader: "<unclosed; rel=next") == nil)
    }
}

/// httpbin, a service nobody here wrote, answers with whatever `Link` header it is asked for: the
/// untyped calls follow it on the session's origin and refuse another origin.
@Suite("Pagination against httpbin", .disabled(if: HttpbinServer.unavailable != nil, "\(HttpbinServer.unavailable ?? "")"))
struct PagesHttpbinTests {
    @Test("An untyped call's pages follow a relative next link; a link to another origin is refused")
    func untyped() async throws {
        let server = try await HttpbinServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try Shell(registry: EndpointRegistry {}, environment: try ServerEnvironment(url: server.baseURL),
                              transport: HttpbinShellTests.Transport.curl.make(), output: output.shellOutput)
        // Page 1 names page 2 (relative), which names no further page; each page's one array is `items`.
        let second = "/response-headers?items=c&items=d"
        let link = "<\(second)>; rel=\"next\""
        let first = "/response-headers?items=a&items=b&Link=" + (link.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        #expect(try await shell.evaluate("pages { httpGet(\"\(first)\") }") == .array(["a", "b", "c", "d"].map(Value.string)))

        // The same origin under another name (localhost for 127.0.0.1) is another origin: no credentials go there.
        _ = try await shell.evaluate(#"token = "page-secret""#)
        let elsewhere = "<http://localhost:\(server.port)\(second)>; rel=\"next\""
        let away = "/response-headers?items=a&items=b&Link=" + (elsewhere.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let refusal = await failure(shell, "pages { httpGet(\"\(away)\") }")
        #expect(refusal.contains("another origin"), "\(refusal)")
        #expect(!refusal.contains("page-secret"))
        #expect(!output.all.contains("page-secret"))
    }
}
