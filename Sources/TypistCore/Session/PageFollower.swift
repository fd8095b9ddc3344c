import Foundation
import Synchronization
import TypedAPI

/// Follows one `pages { … }` from page to page: the closure's one endpoint call is sent as built
/// for the first page, and for every later one to the URL the previous answer named — its
/// `Link: <…>; rel="next"` header (RFC 8288) or, failing that, a `next`/`next_url` field.
///
/// The client's delegate hands each request and answer of the task running the closure to
/// ``current``; the request keeps its method, headers and credentials, and goes nowhere but the
/// session's origin (``TypedAPI/PreparedRequest/following(pageLink:)``).
final class PageFollower: Sendable {
    /// The follower of the `pages { … }` the current task runs, if any.
    @TaskLocal static var current: PageFollower?

    private struct State {
        /// Requests sent for the page under way.
        var requests = 0
        /// Where the page under way goes; `nil` for the first page.
        var link: String?
        /// The last request sent, as sent: later links resolve against its URL.
        var lastRequest: PreparedRequest?
        /// The page's answer: its `Link` header's `next`.
        var linkedNext: String?
        /// Every URL asked for so far, so that a service that names the same page again ends it.
        var visited: Set<String> = []
    }

    private let state = Mutex(State())

    /// Called by the client's delegate before a request is sent: on a later page, sends it to the
    /// page's link instead.
    func willSend(_ request: inout PreparedRequest) throws {
        try state.withLock { state in
            state.requests += 1
            guard state.requests == 1 else {
                throw SessionError("pages { … } follows one endpoint call; this closure makes more than one")
            }
            if let link = state.link, let previous = state.lastRequest {
                var next = try previous.following(pageLink: link)
                // The call as built this time (headers, credentials of now), at the link's place.
                next.method = request.method
                next.timeout = request.timeout
                for (name, value) in request.headers {
                    next.setHeader(.custom(name: name, value: value), sensitive: request.isSensitive(header: name))
                }
                request = next
            }
            state.lastRequest = request
            state.visited.insert(request.url)
        }
    }

    /// Called by the client's delegate with each answer: keeps its `Link` header's next page.
    func didReceive(_ exchange: Exchange) {
        let link = exchange.responseHeaders.filter { $0.name.lowercased() == "link" }.map(\.value).joined(separator: ", ")
        state.withLock { $0.linkedNext = Self.next(inLinkHeader: link) }
    }

    /// How many requests the page under way sent.
    var requestsThisPage: Int { state.withLock { $0.requests } }

    /// The next page's link, from the answer's `Link` header or else from `field` (a `next` field
    /// of the body), or `nil` when there is none or it names a page already fetched.
    func nextLink(field: String?) -> String? {
        state.withLock { state in
            guard let link = state.linkedNext ?? field, !link.isEmpty else { return nil }
            if let previous = state.lastRequest, let url = try? previous.following(pageLink: link).url,
                state.visited.contains(url)
            {
                return nil
            }
            return link
        }
    }

    /// Starts the next page, sent to `link`.
    func startPage(at link: String) {
        state.withLock { state in
            state.requests = 0
            state.link = link
            state.linkedNext = nil
        }
    }

    /// The `rel="next"` target of a `Link` header: `<url>; rel="next"`, several links separated by
    /// commas, `rel` quoted or not and possibly naming several relations (`rel="next last"`).
    static func next(inLinkHeader header: String) -> String? {
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { return nil }
            let target = String(rest[rest.index(after: open)..<close])
            // The parameters run to the next link (a comma outside quotes, before a '<').
            var parameters = rest[rest.index(after: close)...]
            if let following = parameters.firstIndex(of: "<") { parameters = parameters[..<following] }
            rest = rest[parameters.endIndex...]
            for parameter in parameters.split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "rel" else { continue }
                var value = pair[1]
                while value.hasSuffix(",") { value.removeLast() }
                value = value.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
                if value.lowercased().split(separator: " ").contains("next") { return target }
            }
        }
        return nil
    }
}
