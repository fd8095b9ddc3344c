import TypedAPI

/// A prepared request as a curl command line, secrets redacted.
enum CurlCommand {
    static func render(_ request: PreparedRequest) -> String {
        var parts = ["curl"]
        if request.method != "GET" { parts.append("-X \(request.method)") }
        parts.append(quote(request.redactedURL))
        for (name, value) in request.redactedHeaders { parts.append("-H " + quote("\(name): \(value)")) }
        if let body = request.body, !body.isEmpty {
            parts.append("--data-raw " + quote(String(decoding: body, as: UTF8.self)))
        }
        return parts.joined(separator: " \\\n  ")
    }

    /// Single quotes for a POSIX shell.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

import Foundation
