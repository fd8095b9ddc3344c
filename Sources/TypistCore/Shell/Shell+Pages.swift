import APIScript
import TypedAPI

extension Shell {
    /// The most pages `pages { … }` fetches unless told otherwise.
    static let defaultPageLimit = 100
    /// The function's name.
    static let pagesName = "pages"

    /// Registers `pages(limit:_:)`, unless the host has an endpoint of that name.
    func registerPages() throws {
        guard !registry.endpoints.contains(where: { $0.name == Self.pagesName }) else { return }
        let summary = "Every page of one endpoint call, concatenated: follows a Link: <…>; rel=\"next\" or Next-Page header, "
            + "a next link or a cursor field (next_cursor, nextPageToken), on the session's origin, up to limit pages. "
            + "The call returns an array, or a record with one array field (its items)"
        let warn = output.error
        let router = router
        var function = HostFunction(
            name: Self.pagesName,
            parameters: [
                .init(label: "limit", type: .int, defaultValue: .int(Self.defaultPageLimit)),
                .init(label: nil, name: "call", type: .function(parameters: [], result: .unknown)),
            ],
            returnType: .array(.any), summary: summary
        ) { values in
            guard values.count == 2, case .int(let limit) = values[0], case .function(let call) = values[1] else {
                throw SessionError("pages takes a limit and a closure: pages(limit: 5) { repos(org: \"swift\") }")
            }
            guard limit >= 1 else { throw SessionError("pages(limit:) must be at least 1, not \(limit)") }
            // A preview (`:curl`, `:swift`) shows the first page's request: its answers are samples, with no link.
            if router.preview != nil { return .array(try PageItems.of(try await call.callFromHost([]), page: 1).items) }
            let follower = PageFollower()
            var items: [Value] = []
            // A result that is a part is said to be one, on standard error: never shown as the whole.
            func stoppedShort(_ why: String, pages: Int) {
                warn("warning: pages { … } \(why): the result is the \(items.count) item\(items.count == 1 ? "" : "s") of "
                     + "\(pages == 1 ? "the first page" : "the first \(pages) pages"), not all of them\n")
            }
            for page in 1...limit {
                let value = try await call.callFromHost([], handing: follower)
                guard follower.requestsThisPage == 1 else {
                    throw SessionError("pages { … } needs one endpoint call in its closure, such as pages { repos(org: \"swift\") }; this one made none")
                }
                let found = try PageItems.of(value, page: page)
                items += found.items
                switch follower.next(body: found.next) {
                case .end:
                    if let saysMore = found.saysMore {
                        stoppedShort("stopped at page \(page), which says there is more (\(saysMore)) but names no next page it can follow "
                                     + "(a Link or Next-Page header, a next link, a next_cursor or nextPageToken field)", pages: page)
                    }
                    return .array(items)
                case .repeated:
                    stoppedShort("stopped at page \(page): its answer names a page already read as the next one", pages: page)
                    return .array(items)
                case .page(let next):
                    guard page < limit else {
                        stoppedShort("stopped at its limit of \(limit) page\(limit == 1 ? "" : "s") while the service names more "
                                     + "(pages(limit: \(limit * 10)) { … } reads further)", pages: page)
                        return .array(items)
                    }
                    follower.startPage(at: next)
                }
            }
            return .array(items)
        }
        function.resultFromArguments = { types in
            guard types.count == 2, case .function(_, let result)? = types[1] else { return nil }
            guard let item = PageItems.itemsType(of: result) else {
                throw SessionError("pages { … } concatenates pages: its call must return an array, or a record with one array field, not \(result)")
            }
            return .array(item)
        }
        try interpreter.register(function)
    }
}
