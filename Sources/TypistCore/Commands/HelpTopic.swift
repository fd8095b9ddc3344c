import APIScript

/// The topics `:help` explains that are neither a command, an endpoint nor a built-in: the
/// language, paging, streams and cassettes. `:help` names them all on its last line.
enum HelpTopic: String, CaseIterable {
    case language, pages, streams, cassette

    /// The topic `name` asks for: its own word, or a word a reader may try first (`stream`, `har`).
    static func named(_ name: String) -> HelpTopic? {
        HelpTopic(rawValue: name) ?? ["stream": .streams, "page": .pages, "paging": .pages, "cassettes": .cassette,
                                      "har": .cassette, "record": .cassette, "replay": .cassette][name]
    }

    var text: String {
        switch self {
        case .language:
            """
            Statements: let/var, x = e, x += e, if/else, if let, guard let … else, for x in e, while, break,
            continue, func name(label p: Type) -> Type { … }, return, expect(condition, "message").
            Expressions: Swift precedence; closures { $0.id } and { p in p.id }; key paths \\.title;
            optional chaining a?.b; a ?? b; try? e; x as? String; ranges 0..<n; subscripts a[0], d["k"].
            Full reference: Docs/Language.md
            """
        case .pages:
            """
            pages { call } -> [Item]
              Follows one call from page to page and joins the pages' items, typed before any call:
              pages { searchRepositories(query: "swift", perPage: 2) } is a [Repository].
              The next page is found where services name it: a Link rel="next" header, Next-Page or X-Next-Page,
              a next / nextLink / @odata.nextLink field (also under links, _links, meta, paging, pagination),
              or a cursor (next_cursor, nextCursor, nextPageToken, next_page_token) sent back as the next request's.
            pages(limit: 5) { call }
              At most five pages (100 by default). A result that is only part of the whole says so on standard error.
              Only the session's origin is followed; the same headers and credential go each time.
              :curl pages { … } shows the first page's request. Works for endpoints, a document's operations and
              the untyped calls (their json).
            """
        case .streams:
            """
            A stream is an endpoint's answer that arrives over time (text/event-stream, JSON Lines):
            AsyncThrowingStream<Item, any Error>, typed before any call. Nothing is sent until it is read.
              at the prompt:  events(count: 5).map(\\.status)      items print as they arrive; Ctrl-C ends the stream
              in a script:    for try await event in events(count: 50) { print(event.n) }
            Narrow it: \(BuiltinHelp.streamMethods.narrowing.joined(separator: ", ")); read it until they know: \(BuiltinHelp.streamMethods.consuming.joined(separator: ", ")).
            httpStream("/path") reads a stream nobody declared, untyped. :curl writes curl -N; :swift writes
            for try await … in client.stream(…). A cassette records a stream as it was read and replays it.
            """
        case .cassette:
            """
            A cassette is a HAR file of a session's exchanges, secrets masked as ••••, replayed with no network:
              typist run smoke.api --cassette smoke.har     the first run records (the file is missing), later runs replay
              --record-mode once|new|none|all             none when CI is set, else once; --match method,path,query,body
              :record file.har                            at the prompt: record what follows (:record stop writes it)
              typist cassette show smoke.har              method, path, status, Swift type and size of each exchange
              typist cassette verify smoke.har            every recorded response through today's types (drift)
            A call whose request was not recorded is an error naming the nearest recorded one and how they differ.
            """
        }
    }
}
