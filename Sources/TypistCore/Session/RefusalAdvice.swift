import APIScript
import Foundation
import TypedAPI
import TypistText

/// A call the service refused with a body that says why (a 400 or 422 with the fields it
/// found wrong, a problem document): what it said, read by ``ServiceProblems``, one line per
/// problem, each naming the argument it is about where one matches — lines the prompt shows as
/// notes after the body itself.
///
/// `GET …/items?limit=0: 422 Unprocessable Entity` and FastAPI's one-line JSON become
/// `the service refused 'limit' (query.limit): Input should be greater than or equal to 1 (it got "0")`.
package enum RefusalAdvice {
    /// How many problems get a line of their own.
    static let shownProblems = 8

    /// The lines for `error` when it is a refusal (any error status but 401, which
    /// ``ChallengeAdvice`` reads) whose body says what was wrong; none otherwise.
    static func lines(for error: any Error, parameters: [ParameterInfo]) -> [String] {
        guard case .unacceptableStatus(_, let response)? = error as? APIError, response.status != 401,
              let reading = ServiceProblems.read(response.body)
        else { return [] }
        return lines(reading, parameters: parameters, cut: response.body.count > ResponseSummary.excerptLength)
    }

    /// One line per problem a refusal's `body` lists (none when it says nothing in a shape
    /// ``ServiceProblems`` reads), each as `'limit' (query.limit): Input should be …`.
    package static func problems(inBody body: Data) -> [String] {
        ServiceProblems.read(body).map { lines($0, parameters: [], cut: false, refused: "") } ?? []
    }

    /// The lines for `reading`: its message only when the body shown was `cut` (otherwise the
    /// message stands in it, whole), then its problems.
    static func lines(_ reading: ServiceProblems, parameters: [ParameterInfo], cut: Bool,
                      refused: String = "the service refused ") -> [String] {
        var lines: [String] = []
        if cut, let message = reading.message { lines.append("the service says: \(shown(message))") }
        for problem in reading.problems.prefix(shownProblems) {
            let place = problem.location.map(shown).joined(separator: ".")
            let argument = argument(for: problem.location, in: parameters)
            let subject: String
            if let name = argument.map({ $0.label ?? $0.name }) {
                subject = place.isEmpty || place == name ? "'\(name)'" : "'\(name)' (\(place))"
            } else {
                subject = place.isEmpty ? "the request" : place
            }
            var line = "\(refused)\(subject): \(shown(problem.message))"
            // A quoted value of an argument that carries a secret is left out, not masked: it
            // may be a mistyped one, which the session does not know to mask.
            let secret = argument?.carriesSecret == true || problem.location.last.map(Redaction.isSecretHeader) == true
            if let sent = problem.sent, !secret { line += " (it got \(shown(ServiceProblems.Problem.text(sent), limit: 80)))" }
            lines.append(line)
        }
        let more = reading.problems.count - shownProblems
        if more > 0 { lines.append("… and \(more) more problem\(more == 1 ? "" : "s") in the body") }
        return lines
    }

    /// The parameter a location is about: its first part after a place (`query`, `body`, or
    /// webargs' `json`, `querystring` …) that is a parameter's label or name, as written or as
    /// Swift names it (`item_id` → `itemId`); the place itself last (a whole `body`, which
    /// webargs calls `json` or `form`).
    static func argument(for location: [String], in parameters: [ParameterInfo]) -> ParameterInfo? {
        guard let first = location.first else { return nil }
        let places: Set<String> = ["body", "query", "path", "header", "cookie", "json", "form", "querystring", "headers", "cookies", "view_args", "match_info"]
        let place = ["json", "form"].contains(first) ? "body" : first
        let candidates = places.contains(first) ? Array(location.dropFirst()) + [place] : location
        for candidate in candidates {
            let swiftName = SwiftNames.property(candidate)
            if let parameter = parameters.first(where: { [candidate, swiftName].contains($0.label ?? $0.name) || [candidate, swiftName].contains($0.name) }) {
                return parameter
            }
        }
        return nil
    }

    /// Server text as it may be shown on one line: control characters and line breaks escaped,
    /// long text cut.
    private static func shown(_ text: String) -> String { shown(text, limit: 300) }

    private static func shown(_ text: String, limit: Int) -> String {
        let safe = TerminalText.sanitized(text).replacingOccurrences(of: "\n", with: "\\n")
        return safe.count > limit ? safe.prefix(limit) + "…" : safe
    }
}
