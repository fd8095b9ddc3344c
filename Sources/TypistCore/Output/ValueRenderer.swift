import APIScript

/// Shows values at the prompt: records laid out with their type names, arrays of flat records as
/// tables, JSON on request; long values cut with a note saying how to see all.
struct ValueRenderer {
    var format: OutputFormat
    var style: TerminalStyle
    var maximumRows = 20
    var maximumStringLength = 160
    var maximumCellWidth = 36

    func render(_ value: Value, type: ScriptType?) -> String {
        switch format {
        case .json:
            return JSONWriter.render(value, pretty: true)
        case .table:
            if let table = table(value, type: type, force: true) { return table }
            return pretty(value, type: type)
        case .pretty:
            return pretty(value, type: type)
        }
    }

    private func pretty(_ value: Value, type: ScriptType?) -> String {
        if let table = table(value, type: type, force: false) { return table }
        var lines: [String] = []
        var notes: [String] = []
        write(value, indent: "", into: &lines, notes: &notes, label: nil)
        if case .record(let record)? = Optional(value), lines.count > 1 {
            lines[0] = style.type(record.type.name)
        }
        return (lines + notes.map { style.dim($0) }).joined(separator: "\n")
    }

    // MARK: Tree form

    private func write(_ value: Value, indent: String, into lines: inout [String], notes: inout [String], label: String?) {
        let prefix = indent + (label.map { "\($0): " } ?? "")
        let inline = self.inline(value, notes: &notes)
        // Colour codes take no room on the screen: a value fits or not the same with or without them.
        if TerminalStyle.visibleCount(inline) + TerminalStyle.visibleCount(prefix) <= 100 || !isNested(value) {
            lines.append(prefix + inline)
            return
        }
        switch value {
        case .record(let record):
            lines.append(prefix + style.type(record.type.name))
            for (name, value) in record.shownFields {
                write(value, indent: indent + "  ", into: &lines, notes: &notes, label: name)
            }
        case .array(let elements):
            lines.append(prefix + style.dim("\(elements.count) element\(elements.count == 1 ? "" : "s")"))
            for (index, element) in elements.prefix(maximumRows).enumerated() {
                write(element, indent: indent + "  ", into: &lines, notes: &notes, label: "[\(index)]")
            }
            if elements.count > maximumRows {
                lines.append(indent + "  " + style.dim("… \(elements.count - maximumRows) more"))
                note("use .prefix(n) or :format json to see more", &notes)
            }
        case .dictionary(let entries):
            lines.append(prefix + style.dim("\(entries.count) key\(entries.count == 1 ? "" : "s")"))
            for key in entries.keys.sorted() {
                write(entries[key] ?? .null, indent: indent + "  ", into: &lines, notes: &notes, label: key)
            }
        default:
            lines.append(prefix + inline)
        }
    }

    private func isNested(_ value: Value) -> Bool {
        switch value {
        case .record, .array, .dictionary: true
        default: false
        }
    }

    private func note(_ text: String, _ notes: inout [String]) {
        if !notes.contains(text) { notes.append(text) }
    }

    /// One-line form, with long strings cut.
    private func inline(_ value: Value, notes: inout [String]) -> String {
        switch value {
        case .string(let text):
            if text.count > maximumStringLength {
                note("long text is cut; print(…) shows all of it", &notes)
                return style.string(ValueFormatter.quoted(String(text.prefix(maximumStringLength))) + "…")
            }
            return style.string(ValueFormatter.quoted(text))
        case .int, .double, .bool:
            return style.number(ValueFormatter.literal(value))
        case .null:
            return style.dim("nil")
        case .secret:
            return "••••"
        case .bytes(let bytes):
            return style.dim(ByteText.summary(bytes))
        case .array(let elements):
            if elements.count > 50 {
                note("use .prefix(n) or :format json to see more", &notes)
                let shown = elements.prefix(50).map { inline($0, notes: &notes) }.joined(separator: ", ")
                return "[\(shown), … \(elements.count - 50) more]"
            }
            return "[" + elements.map { inline($0, notes: &notes) }.joined(separator: ", ") + "]"
        case .dictionary(let entries):
            if entries.isEmpty { return "[:]" }
            return "[" + entries.keys.sorted().map { "\(ValueFormatter.quoted($0)): \(inline(entries[$0] ?? .null, notes: &notes))" }
                .joined(separator: ", ") + "]"
        case .record(let record):
            let fields = record.shownFields.map { name, value in "\(name): \(inline(value, notes: &notes))" }.joined(separator: ", ")
            return (record.type.isTuple ? "" : style.type(record.type.name)) + "(" + fields + ")"
        default:
            return ValueFormatter.literal(value)
        }
    }

    // MARK: Tables

    /// An array of records whose fields are short scalars, as a table.
    private func table(_ value: Value, type: ScriptType?, force: Bool) -> String? {
        guard case .array(let elements) = value, let first = elements.first, case .record(let record) = first else {
            return nil
        }
        let fields = record.type.fields
        let scalarColumns = fields.indices.filter { index in
            elements.allSatisfy { element in
                guard case .record(let row) = element, index < row.fieldCount else { return false }
                return !row.holdsContainer(at: index)
            }
        }
        guard !scalarColumns.isEmpty, force || scalarColumns.count == fields.count, fields.count <= 10 else { return nil }
        let shown = elements.prefix(maximumRows)
        var rows: [[String]] = [scalarColumns.map { fields[$0].name }]
        for element in shown {
            guard case .record(let row) = element else { continue }
            rows.append(scalarColumns.map { index in cell(row.value(at: index) ?? .null) })
        }
        var widths = Array(repeating: 0, count: scalarColumns.count)
        for row in rows {
            for (index, text) in row.enumerated() { widths[index] = max(widths[index], text.count) }
        }
        let typeName = type.map { "\($0)" } ?? "[\(record.type.name)]"
        var lines = [style.type(typeName) + style.dim(" — \(elements.count) element\(elements.count == 1 ? "" : "s")")]
        for (rowIndex, row) in rows.enumerated() {
            let line = row.enumerated().map { index, text in
                text.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
            var trimmed = line
            while trimmed.hasSuffix(" ") { trimmed.removeLast() }
            lines.append(rowIndex == 0 ? style.bold(trimmed) : trimmed)
        }
        if elements.count > maximumRows {
            lines.append(style.dim("… \(elements.count - maximumRows) more rows; use .prefix(n), filter, or :format json to see them"))
        }
        if scalarColumns.count < fields.count {
            let hidden = fields.indices.filter { !scalarColumns.contains($0) }.map { fields[$0].name }
            lines.append(style.dim("(not shown: \(hidden.joined(separator: ", ")))"))
        }
        return lines.joined(separator: "\n")
    }

    private func cell(_ value: Value) -> String {
        var text: String
        switch value {
        case .string(let string): text = string
        case .null: text = "nil"
        default: text = ValueFormatter.literal(value)
        }
        text = text.replacingOccurrences(of: "\n", with: " ")
        if text.count > maximumCellWidth { text = String(text.prefix(maximumCellWidth - 1)) + "…" }
        return text
    }
}
