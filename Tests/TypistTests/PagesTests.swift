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
        #expect(PageHint.next(inLinkHeader: #"<https://a.example/x?page=2>; rel="next", <https://a.example/x?page=9>; rel="last""#)
            == "https://a.example/x?page=2")
        #expect(PageHint.next(inLinkHeader: #"<https://a.example/x?page=1>; rel="prev", <https://a.example/x?page=3>; rel=next"#)
            == "https://a.example/x?page=3")
        #expect(PageHint.next(inLinkHeader: #"</items?cursor=a,b>; title="x, y"; rel="last next""#) == "/items?cursor=a,b")
        #expect(PageHint.next(inLinkHeader: #"<https://a.example/x?page=9>; rel="last""#) == nil)
        #expect(PageHint.next(inLinkHeader: "") == nil)
        #expect(PageHint.next(inLinkHeader: "<unclosed; rel=next") == nil)
    }

    @Test("Next pages as real services name them: headers, link fields, cursors; a has_more with none is a page it cannot follow")
    func hints() {
        func headers(_ pairs: (String, String)...) -> [HTTPHeader] { pairs.map { HTTPHeader(name: $0.0, value: $0.1) } }
        // Kinto's Next-Page (a URL), GitLab's X-Next-Page (a page number); Link wins over both.
        #expect(PageHint.inHeaders(headers(("Next-Page", "http://a.example/v1/buckets?_token=xyz"))) == .link("http://a.example/v1/buckets?_token=xyz"))
        #expect(PageHint.inHeaders(headers(("x-next-page", "3"))) == .query(name: "page", value: "3"))
        #expect(PageHint.inHeaders(headers(("X-Next-Page", ""))) == nil)
        #expect(PageHint.inHeaders(headers(("Next-Page", "/b"), ("Link", #"</a>; rel="next""#))) == .link("/a"))
        let items: Value = .array([.int(1)])
        // A page's JSON, its items beside what it says of the next page.
        func body(_ json: String) -> (PageHint?, String?) {
            guard case .dictionary(let entries)? = try? JSONReader.parse(Data(#"{"items": [1], "#.utf8) + Data(json.dropFirst().utf8)) else {
                return (nil, "unreadable test JSON")
            }
            let found = PageHint.inBody(.dictionary(entries))
            return (found.hint, found.saysMore)
        }
        #expect(body(#"{"next": "/p/2"}"#) == (.link("/p/2"), nil))
        #expect(body(#"{"@odata.nextLink": "https://a.example/p?$skiptoken=2"}"#) == (.link("https://a.example/p?$skiptoken=2"), nil))
        #expect(body(#"{"links": {"next": "/p/2"}}"#) == (.link("/p/2"), nil))
        #expect(body(#"{"meta": {"next": "/p/3"}}"#) == (.link("/p/3"), nil))
        #expect(body(#"{"_links": {"next": {"href": "/orders?page=2"}}}"#) == (.link("/orders?page=2"), nil))
        #expect(body(#"{"nextPageToken": "CAoQAA"}"#) == (.query(name: "pageToken", value: "CAoQAA"), nil))
        #expect(body(#"{"response_metadata": {"next_cursor": "dXNlcjpVMEc5"}}"#) == (.query(name: "cursor", value: "dXNlcjpVMEc5"), nil))
        #expect(body(#"{"meta": {"next_cursor": "c2"}}"#) == (.query(name: "cursor", value: "c2"), nil))
        // The end, as services say it: an empty cursor (Slack), a null next, no next at all.
        #expect(body(#"{"response_metadata": {"next_cursor": ""}}"#) == (nil, nil))
        #expect(body(#"{"next": null, "has_more": false}"#) == (nil, nil))
        // More, and no way to it: said, never taken for the whole.
        #expect(body(#"{"has_more": true}"#) == (nil, "has_more: true"))
        #expect(body(#"{"pagination": {"hasNextPage": true}}"#) == (nil, "hasNextPage: true"))
        // A record read from a document reads the same, by its JSON keys.
        let page = RecordType(name: "Page")
        page.define([.init("items", .array(.int)), .init("nextPageToken", .string.optional)])
        #expect(PageHint.inBody(.record(Record(type: page, values: [items, .string("t2")]))).hint == .query(name: "pageToken", value: "t2"))
    }

    @Test("A page that says there is more but not where is said on standard error, with the part it is")
    func saysMore() async throws {
        let output = CapturedOutput()
        let shell = try Shell(registry: EndpointRegistry {}, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: InMemoryTransport(json: #"{"data": [1, 2], "has_more": true}"#), output: output.shellOutput)
        #expect(try await shell.evaluate(#"pages { httpGet("/items") }.count"#) == .int(2))
        #expect(output.error.contains("warning: pages { … } stopped at page 1, which says there is more (has_more: true) but names no next page it can follow"),
                "\(output.error)")
        #expect(output.error.contains("the result is the 2 items of the first page, not all of them"), "\(output.error)")
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

        // A page number in X-Next-Page (GitLab's) is sent as `page`; a cursor (Google's
        // nextPageToken) as `pageToken`. httpbin names the same page again: a loop, said and ended.
        for (hint, sent) in [("X-Next-Page=2", "page=2"), ("nextPageToken=c%2B1", "pageToken=c%2B1")] {
            output.clear()
            #expect(try await shell.evaluate("pages { httpGet(\"/response-headers?items=a&items=b&\(hint)\") }.count") == .int(4))
            #expect("\(try await shell.evaluate("response!.url"))".contains(sent), "\(hint)")
            #expect(output.error.contains("stopped at page 2: its answer names a page already read as the next one"), "\(output.error)")
        }

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
