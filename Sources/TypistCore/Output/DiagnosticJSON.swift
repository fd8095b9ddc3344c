import APIScript

/// Diagnostics as one JSON object a line, for `--format json`.
enum DiagnosticJSON {
    static func render(_ diagnostic: Diagnostic) -> String {
        var fields: [(String, Value)] = [
            ("severity", .string(diagnostic.severity.rawValue)),
            ("kind", .string(diagnostic.kind.rawValue)),
            ("message", .string(diagnostic.message)),
        ]
        if let source = diagnostic.source, let position = diagnostic.position {
            fields.insert(contentsOf: [("file", .string(source.name)), ("line", .int(position.line)),
                                       ("column", .int(position.column))], at: 0)
        }
        if !diagnostic.notes.isEmpty { fields.append(("notes", .array(diagnostic.notes.map { .string($0.message) }))) }
        if let suggestion = diagnostic.suggestion { fields.append(("suggestion", .string(suggestion))) }
        return "{" + fields.map { "\(JSONWriter.quoted($0.0)): \(JSONWriter.render($0.1, pretty: false))" }
            .joined(separator: ", ") + "}"
    }
}
