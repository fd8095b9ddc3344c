import Foundation
import TypedAPI

// Lesson 1, the walk's "a GET has no body" (compiled beside reference.swift: `:compile reference
// get-body`). A search that sends its query as a JSON body with a GET: TypedAPI's `.get` holds
// query items only, and refuses a body by name. It is not one of `lesson --check`'s misuses: it is
// written in TypedAPI's names, which a design of the student's own need not share.

struct SearchQuery: Encodable, Sendable {
    let q: String
}

extension Endpoint where Kind == Public, Response == SearchResponse {
    static func searchByBody(query: String) -> Self {
        Endpoint(.get(.json(SearchQuery(q: query))), path: "/search/repositories")  // expected-error: a GET carries no body
    }
}
