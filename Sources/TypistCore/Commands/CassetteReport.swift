import APIScript
import Foundation
import HTTPTypes
import TypedAPI
import TypistText

/// `typist cassette show` and `typist cassette verify`: a cassette read without the network.
package enum CassetteReport {
    /// A table of the cassette's exchanges: method, path, status, Swift type, size.
    package static func show(_ cassette: Cassette) -> String {
        var rows = [["#", "METHOD", "PATH", "STATUS", "TYPE", "SIZE"]]
        for (index, entry) in cassette.entries.enumerated() {
            let status: String
            switch entry.outcome {
            case .response(let code, _, _, _):
                status = String(code) + thenFailed(entry)
            case .failure(let failure): status = "failed: \(failure.kind.nameForPeople)"
            }
            let type = entry.label?.responseType.map { isStream(entry) ? "stream of \($0)" : $0 } ?? "-"
            rows.append([String(index + 1), entry.method, entry.path, status, type, byteCount(entry.responseBody.count)])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { TerminalText.sanitized($0[column]).count }.max() ?? 0 }
        let lines = rows.map { row in
            zip(row, widths).map { cell, width in
                let text = TerminalText.sanitized(cell)
                return text + String(repeating: " ", count: max(0, width - text.count))
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return lines.joined(separator: "\n") + "\n\(cassette.entries.count) exchange\(cassette.entries.count == 1 ? "" : "s")\n"
    }

    /// One entry's verdict.
    package enum Verdict: Equatable {
        case decodes
        /// A stream whose every recorded item decodes.
        case itemsDecode(Int)
        /// An untyped call whose method and path are an operation's: read as its response.
        case decodesAs(String)
        case drifted(String)
        case skipped(String)
    }

    /// Decodes every recorded 2xx response through the registry's Swift types, with no network:
    /// each entry's endpoint (as recorded) is called on a transport that answers with the recorded
    /// response. A response that no longer decodes is drift, reported with its JSON path.
    package static func verify(_ cassette: Cassette, registry: EndpointRegistry) async -> [(Cassette.Entry, Verdict)] {
        var verdicts: [(Cassette.Entry, Verdict)] = []
        for entry in cassette.entries {
            verdicts.append((entry, await verdict(entry, registry: registry)))
        }
        return verdicts
    }

    /// The report's text and whether every checked entry decodes.
    package static func render(_ verdicts: [(Cassette.Entry, Verdict)]) -> (text: String, clean: Bool) {
        var text = ""
        var drifted = 0
        var checked = 0
        for (index, (entry, verdict)) in verdicts.enumerated() {
            // A cassette is a file from anywhere: every field it names is shown escaped.
            let place = "\(index + 1) \(TerminalText.sanitized(entry.method)) \(TerminalText.sanitized(entry.path))"
            let type = entry.label?.responseType.map { " → \(TerminalText.sanitized($0))" } ?? ""
            switch verdict {
            case .decodes:
                checked += 1
                text += "ok       \(place)\(type)\n"
            case .itemsDecode(let count):
                checked += 1
                text += "ok       \(place)\(type) (a stream: \(count) item\(count == 1 ? "" : "s")\(thenFailed(entry)))\n"
            case .decodesAs(let operation):
                checked += 1
                text += "ok       \(place) (an untyped call, read as \(operation))\n"
            case .drifted(let reason):
                checked += 1
                drifted += 1
                text += "DRIFT    \(place)\(type): \(TerminalText.sanitized(reason))\n"
            case .skipped(let reason):
                text += "skipped  \(place): \(reason)\n"
            }
        }
        // Checking nothing is no pass: say what was left, and what would check it.
        guard checked > 0 else {
            let skipped = verdicts.count
            text += skipped == 0 ? "nothing checked: the cassette holds no exchange\n"
                : "nothing checked: \(skipped == 1 ? "the one exchange was" : "all \(skipped) exchanges were") skipped; "
                    + "verify with the host whose endpoints recorded them, or add --openapi DOCUMENT to check untyped calls against its operations\n"
            return (text, false)
        }
        text += drifted == 0 ? "\(checked) \(checked == 1 ? "response decodes" : "responses decode") with today's types\n"
            : "\(drifted) of \(checked) responses no longer decode\n"
        return (text, drifted == 0)
    }

    private static func verdict(_ entry: Cassette.Entry, registry: EndpointRegistry) async -> Verdict {
        guard case .response(let status, let reason, let headers, let body) = entry.outcome else {
            return .skipped("no response was recorded")
        }
        guard (200..<300).contains(status) else { return .skipped("status \(status), not a success") }
        guard let name = entry.label?.endpoint else {
            // An untyped call (`httpGet(…)`): checked against the operation a document gives its
            // method and path, when one does.
            guard let registration = registry.endpoint(routing: entry.method, entry.path) else {
                return .skipped("an untyped call, and no operation of a document (--openapi) has its method and path")
            }
            let reading = "\(registration.name) → \(registration.responseTypeName)"
            switch await check(status: status, reason: reason, headers: headers, body: body, through: registration) {
            case .decodes, .itemsDecode: return .decodesAs(reading)
            case .drifted(let why): return .drifted("read as \(reading): \(why)")
            case let other: return other
            }
        }
        let candidates = registry.endpoints.filter { $0.name == name }
        guard let registration = candidates.first(where: { $0.responseTypeName == entry.label?.responseType }) ?? candidates.first
        else { return .skipped("no endpoint named '\(TerminalText.sanitized(name))' in this program") }
        return await check(status: status, reason: reason, headers: headers, body: body, through: registration)
    }

    /// A recorded response read through an endpoint's plan, on a transport that answers with it.
    private static func check(status: Int, reason: String, headers: [Cassette.Header], body: Data,
                              through registration: EndpointRegistration) async -> Verdict {
        guard let plan = plan(for: registration) else { return .skipped("its arguments cannot be made up to check it") }
        let answer = RecordedAnswer(head: Cassette.response(status: status, reason: reason, headers: headers), body: body)
        // A stream's items read so far: the one that fails is the next.
        var items = 0
        do {
            let environment = try ServerEnvironment(url: "http://127.0.0.1:9")
            let client = APIClient(environment: environment, transport: answer)
            // Whatever the kind asks of the session: nothing is sent.
            let credentials = SessionCredentials(token: "verify", apiKey: "verify", username: "verify", password: "verify")
            guard case .stream(let stream) = try await plan.send(client, CallSetup(credentials: credentials)).value else { return .decodes }
            try await stream.forEach { _ in
                items += 1
                return true
            }
            return .itemsDecode(items)
        } catch {
            let place = registration.streams ? "item \(items + 1) " : ""
            if case .decodingFailed(_, let failure) = error as? APIError {
                let path = failure.codingPath.isEmpty ? "the top level" : failure.codingPath
                return .drifted("\(place)at \(path): expected \(failure.expected), found \(failure.found)")
            }
            return .drifted(place.isEmpty ? String(describing: error) : "\(place)\(error)")
        }
    }

    /// `, then failed: closed` for a stream whose connection failed after its recorded body, else nothing.
    private static func thenFailed(_ entry: Cassette.Entry) -> String {
        entry.interruption.map { ", then failed: \($0.kind.nameForPeople)" } ?? ""
    }

    /// Whether a recorded answer is a stream (server-sent events or JSON Lines).
    private static func isStream(_ entry: Cassette.Entry) -> Bool {
        guard case .response(_, _, let headers, _) = entry.outcome else { return false }
        let type = headers.first { $0.isNamed("Content-Type") }?.value ?? ""
        return MediaType.streamFraming(of: type) != nil
    }

    /// A call plan with made-up arguments: defaults, an enum's first case, or probe values (and,
    /// for strings a type refuses, a UUID).
    private static func plan(for registration: EndpointRegistration) -> CallPlan? {
        for attempt in 0..<2 {
            let values = registration.parameters.enumerated().map { index, parameter -> Value in
                if let value = parameter.defaultValue { return value }
                if let first = parameter.choices?.first { return first }
                if let first = parameter.enumeration?.cases.first {
                    // An array of an enum (`states: [IssueState]`) takes its cases as elements.
                    if case .array = parameter.scriptType.unwrapped { return .array([first.value]) }
                    return first.value
                }
                let probe = ProbeValues.value(for: parameter.scriptType, index: index)
                if attempt == 1, case .string = probe { return .string("00000000-0000-0000-0000-000000000000") }
                return probe
            }
            if let plan = try? registration.plan(values) { return plan }
        }
        return nil
    }

    private static func byteCount(_ count: Int) -> String {
        count < 1024 ? "\(count) B" : count < 1 << 20 ? "\(count >> 10) KB" : "\(count >> 20) MB"
    }
}

extension TransportFailure.Kind {
    /// The kind in words, for a table.
    var nameForPeople: String {
        switch self {
        case .connectionRefused: "refused"
        case .connectionClosed: "closed"
        case .hostNotFound: "host not found"
        case .tls: "TLS"
        case .timedOut: "timed out"
        case .cancelled: "cancelled"
        case .responseTooLarge: "too large"
        case .other: "other"
        }
    }
}

/// A transport that answers every request with one recorded response: whole, or as a stream of
/// one chunk.
private struct RecordedAnswer: StreamingHTTPTransport {
    let head: HTTPResponse
    let body: Data

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        (head, self.body)
    }

    func stream(_ request: HTTPRequest, body: Data?, idleTimeout: Duration, tls: TLSOptions) async throws
        -> (HTTPResponse, HTTPBodyChunks)
    {
        (head, HTTPBodyChunks(whole: self.body))
    }
}
