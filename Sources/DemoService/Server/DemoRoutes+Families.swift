import Foundation
import HTTPTypes

extension DemoRoutes {
    // MARK: Dogs

    func addDogs(to router: inout DemoRouter) {
        let breeds = data.breeds
        router.get("/api/breeds/list/all") { _ in
            Reply.json(Breeds(status: "success", message: breeds))
        }
        router.get("/api/breed/:breed/images") { request in
            let breed = request.parameters.get("breed") ?? ""
            guard breeds[breed] != nil else {
                return Reply.json(DogError(status: "error", message: "Breed not found (master breed does not exist)",
                                           code: 404), status: .notFound)
            }
            return Reply.json(BreedImages(status: "success", message: DemoData.images(of: breed)))
        }
    }

    // MARK: Blog

    func addBlog(to router: inout DemoRouter) {
        let store = store
        let data = data
        router.get("/posts") { _ in Reply.bytes(store.encodedList()) }
        router.get("/posts/:id") { request in
            guard let id = request.parameters.get("id", as: Int.self), let post = store.encodedPost(id) else {
                return Reply.bytes("{}", status: .notFound)
            }
            return Reply.bytes(post)
        }
        router.get("/posts/:id/comments") { request in
            let id = request.parameters.get("id", as: Int.self)
            return Reply.json(data.comments.filter { $0.postId == id })
        }
        // Every comment, or a post's with `?postId=` (the route of the blog seed's `Routes.comments`).
        router.get("/comments") { request in
            guard let text = request.query("postId") else { return Reply.json(data.comments) }
            guard let post = Int(text) else {
                return Reply.error("postId '\(text)' is not a number", status: .badRequest)
            }
            return Reply.json(data.comments.filter { $0.postId == post })
        }
        router.get("/albums") { _ in Reply.json(data.albums) }
        router.get("/photos") { request in
            guard let text = request.query("albumId") else { return Reply.json(data.photos) }
            guard let album = Int(text) else {
                return Reply.error("albumId '\(text)' is not a number", status: .badRequest)
            }
            return Reply.json(data.photos.filter { $0.albumId == album })
        }
        router.get("/users") { _ in Reply.json(data.authors) }
        router.get("/users/:id") { request in
            guard let id = request.parameters.get("id", as: Int.self),
                let author = data.authors.first(where: { $0.id == id })
            else { return Reply.bytes("{}", status: .notFound) }
            return Reply.json(author)
        }
        router.post("/posts") { request in
            let draft = try Reply.decode(PostDraft.self, from: request)
            return Reply.json(store.create(draft), status: .created)
        }
        router.put("/posts/:id") { request in
            guard let id = request.parameters.get("id", as: Int.self) else {
                return Reply.bytes("{}", status: .notFound)
            }
            let draft = try Reply.decode(PostDraft.self, from: request)
            let post = store.update(id) { post in
                post.userId = draft.userId
                post.title = draft.title
                post.body = draft.body
            }
            return post.map { Reply.json($0) } ?? Reply.bytes("{}", status: .notFound)
        }
        router.patch("/posts/:id") { request in
            guard let id = request.parameters.get("id", as: Int.self) else {
                return Reply.bytes("{}", status: .notFound)
            }
            let patch = try Reply.decode(PostPatch.self, from: request)
            let post = store.update(id) { post in
                if let title = patch.title { post.title = title }
                if let body = patch.body { post.body = body }
            }
            return post.map { Reply.json($0) } ?? Reply.bytes("{}", status: .notFound)
        }
        router.delete("/posts/:id") { request in
            guard let id = request.parameters.get("id", as: Int.self), store.delete(id) else {
                return Reply.bytes("{}", status: .notFound)
            }
            return DemoResponse(status: .noContent)
        }
        let bigCache = BigPostsCache()
        router.get("/big") { request in
            let text = request.query("count") ?? "26500"
            guard let count = Int(text), (0...BigPostsCache.limit).contains(count) else {
                return Reply.error("count must be a number from 0 to \(BigPostsCache.limit), not '\(text)'",
                                   status: .badRequest)
            }
            return Reply.bytes(bigCache.body(count: count))
        }
    }

    // MARK: GitHub

    func addGitHub(to router: inout DemoRouter) {
        let repositories = data.repositories
        router.get("/search/repositories") { request in
            let query = request.query("q") ?? ""
            guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
                return Reply.json(
                    ValidationFailure(message: "Validation Failed",
                                      errors: [.init(resource: "Search", field: "q", code: "missing")]),
                    status: .unprocessableContent)
            }
            let perPageText = request.query("per_page") ?? "30"
            guard let perPage = Int(perPageText), (1...100).contains(perPage) else {
                return Reply.error("per_page must be a number from 1 to 100, not '\(perPageText)'", status: .badRequest)
            }
            var matches = RepositoryQuery(query).filter(repositories)
            switch request.query("sort") {
            case "stars": matches.sort { $0.stargazersCount > $1.stargazersCount }
            case "updated": matches.sort { $0.id > $1.id }
            case nil, "": break
            case let other?:
                return Reply.error("sort must be 'stars' or 'updated', not '\(other)'", status: .badRequest)
            }
            let pageText = request.query("page") ?? "1"
            guard let page = Int(pageText), page >= 1 else {
                return Reply.error("page must be a number from 1, not '\(pageText)'", status: .badRequest)
            }
            // Pages as GitHub's: `page` from 1, and a Link header naming the next and last (RFC 8288).
            let start = min(matches.count, (page - 1).multipliedReportingOverflow(by: perPage).overflow
                ? matches.count : (page - 1) * perPage)
            let result = RepositorySearch(totalCount: matches.count, incompleteResults: false,
                                          items: Array(matches[start..<min(matches.count, start + perPage)]))
            var response = Reply.json(result, snakeCase: true)
            let lastPage = max(1, (matches.count + perPage - 1) / perPage)
            if page < lastPage, let host = request.authority, let linkName = HTTPField.Name("Link") {
                func link(_ number: Int) -> String {
                    var components = URLComponents()
                    components.queryItems = request.queryItems.map { URLQueryItem(name: $0.name, value: $0.value) }
                        .filter { $0.name != "page" } + [URLQueryItem(name: "page", value: String(number))]
                    return "<http://\(host)/search/repositories?\(components.percentEncodedQuery ?? "")>"
                }
                response.headers[linkName] = "\(link(page + 1)); rel=\"next\", \(link(lastPage)); rel=\"last\""
            }
            return response
        }
    }

    // MARK: Accounts

    func addAccounts(to router: inout DemoRouter) {
        let sessions = sessions
        let data = data
        router.post("/v1/login") { request in
            let credentials = try Reply.decode(Credentials.self, from: request)
            guard let token = sessions.login(credentials) else {
                return Reply.error("wrong user or password", status: .unauthorized)
            }
            return Reply.envelope(Session(token: token, expiresIn: 3600))
        }
        router.get("/v1/token") { request in
            // HTTP Basic: "Basic " + base64("user:password").
            guard let header = request.headers[.authorization], header.hasPrefix("Basic "),
                let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
                let colon = decoded.firstIndex(of: ":"),
                let token = sessions.login(Credentials(user: String(decoded[..<colon]),
                                                       password: String(decoded[decoded.index(after: colon)...])))
            else {
                var response = Reply.error("missing or wrong user name and password (Basic)", status: .unauthorized)
                response.headers[.wwwAuthenticate] = "Basic realm=\"demo\""
                return response
            }
            return Reply.envelope(Session(token: token, expiresIn: 3600))
        }
        // Counts a visitor's visits in a cookie: the one cookie the demo sets, for the session's
        // cookie jar (and bound to no script function, for the untyped calls).
        router.get("/v1/visits") { request in
            let cookies = request.headers[values: .cookie].flatMap { $0.split(separator: ";") }
            let previous = cookies.lazy.map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix("visits=") }.flatMap { Int($0.dropFirst("visits=".count)) } ?? 0
            let visits = min(previous, 1_000_000) + 1
            var response = Reply.json(["visits": visits])
            response.headers[.setCookie] = "visits=\(visits); Path=/v1; HttpOnly; SameSite=Lax"
            return response
        }
        router.get("/v1/users") { _ in Reply.envelope(data.users) }
        router.get("/v1/users/:id") { request in
            let text = request.parameters.get("id") ?? ""
            guard let id = UUID(uuidString: text) else {
                return Reply.error("'\(text)' is not a UUID", status: .badRequest)
            }
            guard let user = data.users.first(where: { $0.id == id }) else {
                return Reply.error("no user with id \(text)", status: .notFound)
            }
            return Reply.envelope(user)
        }
        router.get("/v1/featured") { _ in
            Reply.envelope(data.items.filter { $0.tags.contains("featured") })
        }
        router.get("/v1/search") { request in
            guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
                sessions.isValid(String(header.dropFirst(7)))
            else {
                // RFC 6750's challenge: an error code only when a token was sent.
                var response = Reply.error("missing or invalid token", status: .unauthorized)
                response.headers[.wwwAuthenticate] = request.headers[.authorization] == nil
                    ? "Bearer realm=\"demo\"" : "Bearer realm=\"demo\", error=\"invalid_token\""
                return response
            }
            let query = request.query("q") ?? ""
            let words = query.lowercased().split(separator: " ")
            let items = data.items.filter { item in
                words.allSatisfy { word in
                    item.title.lowercased().contains(word) || item.tags.contains { $0.contains(word) }
                }
            }
            return Reply.envelope(SearchResults(query: query, total: items.count, items: items))
        }
    }

    // MARK: Faults

    func addFaults(to router: inout DemoRouter) {
        router.get("/faults/status/:code") { request in
            guard let code = request.parameters.get("code", as: Int.self), (200...599).contains(code) else {
                return Reply.error("the status must be a number from 200 to 599", status: .badRequest)
            }
            let status = HTTPResponse.Status(code: code)
            if code == 204 || code == 304 { return DemoResponse(status: status) }
            return Reply.json(StatusReport(status: code, message: "status \(code) as requested"), status: status)
        }
        router.get("/faults/slow") { request in
            let text = request.query("ms") ?? "1000"
            guard let ms = Int(text), (0...60_000).contains(ms) else {
                return Reply.error("ms must be a number from 0 to 60000, not '\(text)'", status: .badRequest)
            }
            try await Task.sleep(for: .milliseconds(ms))
            return Reply.json(SlowReport(waitedMs: ms))
        }
        router.get("/faults/malformed") { _ in
            Reply.bytes(#"{"userId": 1, "id": 1, "title": "unfinished"#)
        }
        router.get("/faults/wrong-type") { _ in
            Reply.bytes(#"{"userId":1,"id":"one","title":"an id that is a string","body":"…"}"#)
        }
        router.get("/faults/html") { _ in
            Reply.bytes("<!doctype html><html><body><h1>Maintenance</h1></body></html>",
                        contentType: "text/html; charset=utf-8")
        }
        router.get("/faults/truncated") { _ in
            DemoResponse(status: .ok, headers: [.contentType: "application/json"],
                         body: .stream(length: 1000) { writer in
                             try await writer.write(#"{"userId":1,"id":1,"title":"cut"#)
                             throw TruncatedOnPurpose()
                         })
        }
        router.get("/faults/redirect") { request in
            guard let target = request.query("to"), !target.isEmpty else {
                return Reply.error("give the target as ?to=URL", status: .badRequest)
            }
            return DemoResponse(status: .found, headers: [.location: String(target)])
        }
        router.get("/faults/loop") { _ in
            DemoResponse(status: .found, headers: [.location: "/faults/loop"])
        }
    }
}

/// Thrown mid-body so the server closes the connection before the promised length.
struct TruncatedOnPurpose: Error {}
