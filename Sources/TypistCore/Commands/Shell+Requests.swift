import APIScript
import Foundation
import TypedAPI
import TypistText

/// `:curl`, `:swift` and `:last`: the requests behind an expression, shown without sending them.
extension Shell {
    func curl(_ text: String) async -> Bool {
        guard !text.isEmpty else {
            fail("write :curl <expression>, such as :curl post(id: 1)")
            return false
        }
        let (requests, diagnostics, perElement, _) = await dryRun(text)
        if !diagnostics.isEmpty {
            report(diagnostics)
            return false
        }
        if requests.isEmpty {
            write("# this expression sends no request")
            return true
        }
        write(CurlCommand.render(requests, secrets: session.knownSecrets, files: session.readFile, perElement: perElement))
        return true
    }

    func swift(_ text: String) async -> Bool {
        guard !text.isEmpty else {
            fail("write :swift <expression>, such as :swift post(id: 1)")
            return false
        }
        if let publisher = text.firstMatch(of: /^--publisher(?:\s+|$)/) {
            let expression = String(text[publisher.range.upperBound...])
            guard !expression.isEmpty else {
                fail("write :swift --publisher <expression>: \(SwiftSnippet.publisherShape)")
                return false
            }
            switch SwiftSnippet(shell: self).publisherParts(for: expression) {
            case .success(let parts):
                write(parts.text)
                return true
            case .failure(let failure):
                if failure.diagnostics.isEmpty { fail(failure.message) } else { report(failure.diagnostics) }
                return false
            }
        }
        // Untyped calls are written from the requests a dry run would send; everything else from
        // the syntax alone (a dry run's placeholder values would trip an `expect`).
        var untyped: [UntypedRequest] = []
        let untypedNames = Set(Self.untypedCalls.map(\.name))
        if interpreter.hostCalls(in: text).contains(where: { untypedNames.contains($0.name) }) {
            let (_, diagnostics, _, requests) = await dryRun(text)
            if !diagnostics.isEmpty {
                report(diagnostics)
                return false
            }
            untyped = requests
        }
        switch SwiftSnippet(shell: self).render(text, untyped: untyped) {
        case .success(let swift):
            write(swift)
            return true
        case .failure(let failure):
            if !failure.diagnostics.isEmpty {
                report(failure.diagnostics)
            } else {
                fail(":swift cannot write this in Swift: \(failure.message)")
            }
            return false
        }
    }

    /// `:model [Name =] expr`: evaluates the expression (sending what it sends) and prints Swift
    /// models for its value.
    func model(_ text: String) async -> Bool {
        guard !text.isEmpty else {
            fail("write :model <expression>, such as :model httpGet(\"/posts/1\").json (or :model Post = …)")
            return false
        }
        var name = "Model"
        var expression = text
        if let match = text.wholeMatch(of: /([A-Z][A-Za-z0-9_]*)\s*=\s*(.+)/.dotMatchesNewlines()) {
            name = String(match.1)
            expression = String(match.2)
        }
        let result = await evaluate(ScriptSource(name: "<input>", text: expression), isPrompt: true)
        report(result.diagnostics)
        guard !result.failed, let value = result.value else { return false }
        if value.isNull {
            fail("the value is nil: nothing to infer a model from (an untyped call's json is nil unless the body is JSON)")
            return false
        }
        write(SwiftDeclarations.render(SampleTypes.infer(value, rootName: name)))
        return true
    }

    func lastExchange() -> String {
        guard let exchange = session.read(\.lastExchange) else { return "no request has been sent yet" }
        let style = TerminalStyle(enabled: colors)
        var lines = [style.bold("\(exchange.method) \(exchange.url)")]
        // Headers and bodies are data: nothing in them may drive the terminal.
        let safe = TerminalText.sanitized
        for header in exchange.requestHeaders { lines.append(safe("\(header.name): \(header.value)")) }
        if let body = exchange.requestBody, !body.isEmpty {
            lines.append("")
            let contentType = exchange.requestHeaders.value(named: "Content-Type") ?? ""
            lines += Self.requestBodyLines(body, contentType: contentType, style: style)
        }
        let (seconds, attoseconds) = exchange.duration.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        lines.append("")
        let status = exchange.status ?? 0
        lines.append(style.bold("\(status) \(safe(exchange.reason.isEmpty ? ResponseSummary.standardReasons[status] ?? "" : exchange.reason))") + style.dim(String(format: "  (%.1f ms)", milliseconds)))
        for header in exchange.responseHeaders { lines.append(safe("\(header.name): \(Self.maskedResponseHeader(header.name, header.value))")) }
        if !exchange.responseBody.isEmpty {
            lines.append("")
            let text = safe(String(decoding: exchange.responseBody.prefix(4096), as: UTF8.self))
            lines.append(text + (exchange.responseBody.count > 4096 ? style.dim("\n… \(exchange.responseBody.count) bytes in all; response.body has everything") : ""))
        }
        return lines.joined(separator: "\n")
    }

    /// A request body as `:last` shows it: text up to 2 KB (and how much there was); bytes that
    /// are not text by their count; a multipart body part by part — each part's headers, then its
    /// text or its count of bytes — so a field after a large file is still seen.
    static func requestBodyLines(_ body: Data, contentType: String, style: TerminalStyle) -> [String] {
        let safe = TerminalText.sanitized
        func content(_ data: Data) -> String {
            guard let text = String(data: data, encoding: .utf8) else { return style.dim("<\(data.count) bytes that are not text>") }
            guard data.count > 2048 else { return safe(text) }
            return safe(String(decoding: data.prefix(2048), as: UTF8.self)) + style.dim("\n… \(data.count) bytes in all")
        }
        guard let boundary = MultipartEncoding.boundary(inContentType: contentType),
              let parts = MultipartEncoding.parts(of: body, boundary: boundary)
        else {
            if contentType.lowercased().hasPrefix("application/x-www-form-urlencoded"), body.count <= 2048,
               let text = String(data: body, encoding: .utf8) {
                return [safe(maskedFormFields(text))]
            }
            return [content(body)]
        }
        var lines: [String] = []
        for part in parts {
            lines.append(safe("--\(boundary)"))
            lines.append(safe("Content-Disposition: form-data; name=\"\(part.name)\"" + (part.filename.map { "; filename=\"\($0)\"" } ?? "")))
            if let type = part.contentType { lines.append(safe("Content-Type: \(type)")) }
            lines.append("")
            lines.append(part.filename != nil && part.data.count > 256 ? style.dim("<\(part.data.count) bytes>")
                : part.filename == nil && Redaction.isSecretHeader(part.name) ? Redaction.mask : content(part.data))
        }
        lines.append(safe("--\(boundary)--"))
        return lines
    }

    /// A form body with the value of each field whose name is a credential's (`password`,
    /// `client_secret`) as `••••`, whatever its length; the rest as it was sent.
    static func maskedFormFields(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = String(pair[..<equals]).replacingOccurrences(of: "+", with: " ")
            return Redaction.isSecretHeader(name.removingPercentEncoding ?? name) ? pair[...equals] + Redaction.mask : String(pair)
        }.joined(separator: "&")
    }

    /// A response header as `:last` shows it: a credential header's value masked; of a
    /// `Set-Cookie`, the cookie's name and attributes kept, its value masked.
    static func maskedResponseHeader(_ name: String, _ value: String) -> String {
        guard Redaction.isSecretHeader(name) else { return value }
        guard name.lowercased() == "set-cookie", let equals = value.firstIndex(of: "=") else { return Redaction.mask }
        let attributes = value[equals...].firstIndex(of: ";").map { value[$0...] } ?? ""
        return value[...equals] + Redaction.mask + attributes
    }
}
