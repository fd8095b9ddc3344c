import APIScript
import Foundation
import Synchronization
import TypedAPI

/// Follows one `pages { … }` from page to page: the closure's one endpoint call is sent as built
/// for the first page, and for every later one where the previous answer said the next page is —
/// a header or a body field, a URL or a cursor (``PageHint``).
///
/// `pages { … }` hands it to the call in its closure (a ``APIScript/HostScope`` value), which
/// passes it in the call's context to the session's ``PageStage``: that stage hands it each
/// request before it is signed and each answer. The request keeps its method, headers and
/// credentials, and goes nowhere but the session's origin (``TypedAPI/PreparedRequest/following(pageLink:)``).
final class PageFollower: Sendable {
    /// What comes after a page.
    enum Next: Equatable {
        /// The next page is there.
        case page(PageHint)
        /// The answer names none.
        case end
        /// The answer names a page already fetched (a service that loops).
        case repeated(String)
    }

    private struct State {
        /// Requests sent for the page under way.
        var requests = 0
        /// Where the page under way goes; `nil` for the first page.
        var hint: PageHint?
        /// The last request sent, as sent: later links resolve against its URL.
        var lastRequest: PreparedRequest?
        /// The page's answer: the next page its headers name.
        var headerHint: PageHint?
        /// Every URL asked for so far (with its cursor, for a GraphQL page), so that a service
        /// that names the same page again ends it.
        var visited: Set<String> = []
        /// The GraphQL variable a Relay cursor goes in (the call's endpoint's).
        var cursorVariable: String?
    }

    /// The GraphQL variable the call's Relay connection takes its cursor in, when it has one.
    var cursorVariable: String? {
        get { state.withLock { $0.cursorVariable } }
        set { state.withLock { $0.cursorVariable = newValue } }
    }

    private let state = Mutex(State())

    /// Called by the page stage before a request is signed and sent: on a later page, sends it to
    /// the page's link instead.
    func willSend(_ request: inout PreparedRequest) throws {
        try state.withLock { state in
            state.requests += 1
            guard state.requests == 1 else {
                throw SessionError("pages { … } follows one endpoint call; this closure makes more than one")
            }
            if let hint = state.hint, let previous = state.lastRequest {
                var next = try Self.request(after: previous, hint, variable: state.cursorVariable)
                // The call as built this time (headers, credentials of now), at the link's place.
                next.method = request.method
                next.timeout = request.timeout
                for header in request.headers {
                    next.setHeader(header, sensitive: request.isSensitive(header: header.name))
                }
                request = next
            }
            state.lastRequest = request
            state.visited.insert(Self.key(request.url, state.hint))
        }
    }

    /// What tells pages apart: the URL, and a GraphQL page's cursor (every page has one URL).
    private static func key(_ url: String, _ hint: PageHint?) -> String {
        if case .cursor(let cursor)? = hint { return url + "\u{0}" + cursor }
        return url
    }

    /// The request for the page `hint` names after `previous`.
    private static func request(after previous: PreparedRequest, _ hint: PageHint, variable: String?) throws -> PreparedRequest {
        switch hint {
        case .link(let link): return try previous.following(pageLink: link)
        case .query(let name, let value): return previous.settingQueryItem(named: name, to: value)
        case .cursor(let cursor):
            guard let variable else {
                throw SessionError("pages { … } found a Relay connection whose after: takes no variable: write the connection as "
                                   + "issues(first: 50, after: $cursor) and declare $cursor: String in the operation")
            }
            return try previous.settingGraphQLVariable(variable, to: .string(cursor))
        }
    }

    /// Called by the page stage with each answer's headers: keeps the next page they name.
    func didReceive(headers: [HTTPHeader]) {
        let hint = PageHint.inHeaders(headers)
        state.withLock { $0.headerHint = hint }
    }

    /// How many requests the page under way sent.
    var requestsThisPage: Int { state.withLock { $0.requests } }

    /// What follows the page: the next page its answer's headers name, or else `body` (what its
    /// body names).
    func next(body: PageHint?) -> Next {
        state.withLock { state in
            guard let hint = state.headerHint ?? body else { return .end }
            if let previous = state.lastRequest, let url = try? Self.request(after: previous, hint, variable: state.cursorVariable).url,
               state.visited.contains(Self.key(url, hint)) {
                return .repeated(previous.redactedURL)
            }
            return .page(hint)
        }
    }

    /// Starts the next page, sent where `hint` says.
    func startPage(at hint: PageHint) {
        state.withLock { state in
            state.requests = 0
            state.hint = hint
            state.headerHint = nil
        }
    }
}

extension PreparedRequest {
    /// The same GraphQL request (a JSON body `{"query", "variables"}`) with one variable set.
    func settingGraphQLVariable(_ name: String, to value: Value) throws -> PreparedRequest {
        guard let body, case .dictionary(var entries)? = try? JSONReader.parse(body) else {
            throw SessionError("pages { … } follows a Relay cursor only in a GraphQL request's JSON body")
        }
        var variables: [String: Value] = if case .dictionary(let existing)? = entries["variables"] { existing } else { [:] }
        variables[name] = value
        entries["variables"] = .dictionary(variables)
        var next = self
        next.body = try JSONWriter.data(.dictionary(entries))
        return next
    }
}
