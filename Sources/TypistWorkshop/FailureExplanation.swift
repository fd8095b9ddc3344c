import APIScript
import Foundation
import TypedAPI
import TypistCore
import TypistText

/// `:explain`: the last failed call in the pattern's terms — which `APIError` case, which check
/// produced it, which write-up introduced that check, and the server's own error when one was decoded.
struct FailureExplanation {
    static func text(_ failure: FailedCall, scrub: (String) -> String) -> String {
        var lines: [String] = []
        let (caseName, check, seed, next) = parts(failure.error)
        lines.append("The last error came from \(failure.function): \(caseName)")
        if let request = (failure.error as? APIError)?.request { lines.append("  request: \(request.method) \(scrub(request.url))") }
        lines.append("  check:   \(check)")
        lines.append("  pattern: \(seed)")
        if case .unacceptableStatus(_, let response)? = failure.error as? APIError {
            if let model = response.serverError {
                lines.append("  server:  its error model decoded as \(SwiftTypeName.of(type(of: model))): \(scrub(String(describing: model)))")
            } else if !response.body.isEmpty {
                let excerpt = TerminalText.sanitized(String(decoding: response.body.prefix(200), as: UTF8.self))
                lines.append("  server:  \(scrub(excerpt))" + (response.body.count > 200 ? "…" : ""))
                // What the service found wrong, when its body lists it (FastAPI's, a problem document …).
                for problem in RefusalAdvice.problems(inBody: response.body) { lines.append("  refused: \(scrub(problem))") }
            }
        }
        lines.append("  next:    \(next)")
        return lines.joined(separator: "\n")
    }

    private static func parts(_ error: any Error) -> (String, String, String, String) {
        if let missing = error as? MissingCredentials {
            return ("a missing credential (\(missing.message))",
                    "the endpoint's kind needs request data (an AccessToken for Bearer) before anything is sent",
                    "write-up 3: with Endpoint<Kind, Response>, sending a Bearer endpoint without a token does not compile — the compiler says the types 'AccessToken' and '()' must be equivalent",
                    "set `token = …` (or call login), then call again")
        }
        if let argument = error as? ArgumentError, argument.reason == .rule {
            return ("a value the document rules out (\(argument.message))",
                    "each argument is held to the document's rules for it (minimum, maxLength, pattern …) before anything is sent",
                    "write-up 1: a typed request takes typed values — the document's rules are the part of a value's type Swift cannot state",
                    ":describe the function to see its rules; the untyped call sends the value anyway, for the service's own answer")
        }
        if let argument = error as? ArgumentError {
            return ("an argument the endpoint's parameter type refused (\(argument.message))",
                    "each argument converts to the parameter's Swift type before the endpoint is built",
                    "write-up 1: a typed request takes typed values — in Swift a wrong argument type does not compile",
                    ":describe the function to see its parameter types")
        }
        guard let error = error as? APIError else {
            return (String(describing: error), "—", "—", ":last shows the exchange, if one was made")
        }
        switch error {
        case .invalidURL(let url, let reason):
            return ("APIError.invalidURL (\(url): \(reason))",
                    "the base URL and the endpoint's path must make a valid URL",
                    "write-up 2: APIConfig keeps the base URL apart from the routes; write-up 0 guarded `URL(string:)` by hand",
                    "look at baseURL (:base) and the path in :describe")
        case .invalidRequest(_, let reason):
            return ("APIError.invalidRequest (\(reason))",
                    "the kind's request data and the body must encode",
                    "write-up 3: the kind's prepare(_:with:) attaches its data; write-up 4's request processing encodes the body",
                    ":curl shows the request as it would be sent")
        case .transport(_, let failure) where failure.kind == .tls:
            return ("APIError.transport (tls: \(failure.detail))",
                    "the server's certificate must be signed by a CA the session trusts (and the client's, when the server asks for one)",
                    "every write-up: the network can fail before any status; a typed client says so in one case",
                    "a private CA: --cacert FILE; a client certificate: --cert FILE --key FILE; or \"tls\" in typist.json's environment")
        case .transport(_, let failure):
            return ("APIError.transport (\(failure.kind): \(failure.detail))",
                    "a complete response must arrive: none did",
                    "every write-up: the network can fail before any status; a typed client says so in one case",
                    "is the service running at baseURL? try :base, then call again")
        case .unacceptableStatus(_, let response):
            return ("APIError.unacceptableStatus (\(response.status))",
                    "the status must be one the endpoint accepts (200..<300 unless it says otherwise)",
                    "write-up 4's validateStatusCode and write-up 2's HTTPError: a status outside 2xx is an error, not a model",
                    "`response!.status` and :last show the exchange; `try?` turns the error into nil")
        case .unexpectedContentType(_, let expected, let response):
            let found = response.contentType ?? "none"
            return ("APIError.unexpectedContentType (expected \(expected), found \(found))",
                    "the response's Content-Type must match the endpoint's Accept before its body is decoded",
                    "write-up 4's validateContentType: an HTML error page is not decoded as JSON",
                    ":last shows what came back")
        case .decodingFailed(_, let failure):
            return ("APIError.decodingFailed (\(failure.type) at \(failure.codingPath.isEmpty ? "the top" : failure.codingPath): expected \(failure.expected), found \(failure.found))",
                    "the body must decode into the endpoint's response type",
                    "write-up 0: the route's model must match the JSON (its 'wrong model' error); write-up 1 decodes into Response",
                    ":describe the model, :last for the body; :model last-body JSON suggests a matching struct")
        case .cancelled:
            return ("APIError.cancelled", "the caller stopped waiting (Ctrl-C)", "write-up 4: a client returning tasks that can be cancelled",
                    "call again")
        case .timedOut(_, let limit):
            return ("APIError.timedOut (after \(limit))", "the whole exchange must end within the time limit",
                    "write-up 2's APIConfig holds settings like the time limit; TypedAPI's is per client and per endpoint",
                    "raise it with `timeout = 60`, or call again")
        case .tooManyRedirects(_, let count):
            return ("APIError.tooManyRedirects (\(count))", "the client follows at most 10 redirects",
                    "write-up 4's response processing: redirects are followed by the client, never with credentials to another origin",
                    ":last shows where the server kept sending it")
        }
    }
}
