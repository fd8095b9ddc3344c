import APIScript
import Foundation
import TypedAPI
import TypistCore

/// Loaded documents kept by a hash of their content (and of what else changes the result), so that a large document (GitHub's, 2.5 MB) is
/// parsed and lowered once and reads back in milliseconds: its operations, record types,
/// servers and warnings, in a small JSON file of Typist's own (`version` 18).
///
/// A file is also marked with the program that wrote it (``build``): a rebuilt or upgraded
/// program lowers documents again, so a change to lowering needs no version bump to be seen (the
/// version is still raised when the file's format changes).
///
/// Anything wrong with a cache file — missing, unreadable, another version or program, damaged — makes the
/// document load the long way (and the file be written again); a cache never decides a result.
/// Writing is atomic and best effort: a read-only cache folder only costs the time.
struct DocumentCache {
    static let version = 18
    let directory: URL
    /// What identifies the program writing and reading the files.
    var build: String = Self.runningBuild
    /// How many documents the folder keeps: writing one more removes those used least recently
    /// (a file's time is its last write or read), so the folder does not grow with every edit of
    /// a document or every document ever loaded.
    var capacity = 32

    /// The running executable's size and modification time (its path too), or `""` where it
    /// cannot be read — then only ``version`` tells caches apart.
    static let runningBuild: String = {
        guard let path = Bundle.main.executablePath,
              let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber, let modified = attributes[.modificationDate] as? Date
        else { return "" }
        return "\(path) \(size) \(modified.timeIntervalSince1970)"
    }()

    /// `$XDG_CACHE_HOME/typist/openapi`, or `~/.cache/typist/openapi`; nil without a home.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("typist/openapi")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/typist/openapi")
    }

    func file(for key: String) -> URL { directory.appendingPathComponent(key + ".json") }

    /// The cached contents for `key`, if a sound cache file holds them.
    func read(_ key: String) -> OpenAPIDocument.Contents? {
        guard let data = try? Data(contentsOf: file(for: key)), data.count < 256 << 20,
              let root = try? JSONReader.parse(data), case .dictionary(let entries) = root,
              entries["version"] == .int(Self.version), entries["build"] == .string(build),
              let contents = Self.contents(entries)
        else { return nil }
        // Used now: the last to go when the folder is pruned.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file(for: key).path)
        return contents
    }

    /// Removes the least recently used documents beyond ``capacity`` (best effort).
    func prune() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { return }
        let files = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { directory.appendingPathComponent($0) }
        guard files.count > capacity else { return }
        let used = files.map { file in
            (file, (try? manager.attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? .distantPast)
        }
        for (file, _) in used.sorted(by: { $0.1 < $1.1 }).prefix(files.count - capacity) {
            try? manager.removeItem(at: file)
        }
    }

    /// Keeps `contents` under `key`.
    func write(_ contents: OpenAPIDocument.Contents, key: String) {
        let text = JSONWriter.render(Self.value(contents, build: build), pretty: false)
        let target = file(for: key)
        let temporary = directory.appendingPathComponent(".\(key).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: temporary)
            // rename(2): atomic, and a reader sees the old file or the new one, never half of one.
            guard rename(temporary.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            prune()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }

    // MARK: Writing

    private static func value(_ contents: OpenAPIDocument.Contents, build: String) -> Value {
        var table = RecordTable()
        let operations = contents.operations.map { operation -> Value in
            var entries: [String: Value] = [
                "name": .string(operation.name), "group": .string(operation.group), "summary": .string(operation.summary),
                "method": .string(operation.method), "path": .string(operation.path),
                "response": .string(table.code(operation.responseType)), "json": .bool(operation.responseIsJSON),
                "deprecated": .bool(operation.deprecated),
                "credentials": .array(operation.credentials.map(code)),
                "arguments": .array(operation.arguments.map { argument in
                    var fields: [String: Value] = [
                        "key": .string(argument.key), "label": .string(argument.label), "place": .string(place(argument.place)),
                        "type": .string(table.code(argument.type)),
                    ]
                    if let defaultValue = argument.defaultValue { fields["default"] = .array([defaultValue]) }
                    if let choices = argument.choices { fields["choices"] = .array(choices) }
                    if let shared = argument.sharedTypeName { fields["enumType"] = .string(shared) }
                    if let constraints = argument.constraints { fields["rules"] = rules(constraints) }
                    if let partType = argument.partType { fields["partType"] = .string(partType) }
                    if argument.isSecret { fields["secret"] = .bool(true) }
                    if argument.listStyle != .multi { fields["listStyle"] = .string(argument.listStyle.rawValue) }
                    if let schemaType = argument.schemaType { fields["schemaType"] = .string(table.code(schemaType)) }
                    return .dictionary(fields)
                }),
            ]
            if let operationId = operation.operationId { entries["operationId"] = .string(operationId) }
            if let key = operation.envelopeKey { entries["envelopeKey"] = .string(key) }
            if let key = operation.tokenKey { entries["tokenKey"] = .string(key) }
            if operation.streams { entries["streams"] = .bool(true) }
            if operation.declaresNotModified { entries["notModified"] = .bool(true) }
            return .dictionary(entries)
        }
        // Every document record, also those no operation names (`:describe` lists them).
        for record in contents.recordTypes { _ = table.code(.record(record)) }
        return .dictionary([
            "version": .int(version), "build": .string(build), "title": .string(contents.title), "hash": .string(contents.textHash),
            "servers": .array(contents.servers.map { .array([.string($0.url), $0.description.map(Value.string) ?? .null]) }),
            "warnings": .array(contents.warnings.map(Value.string)),
            // A record is its name and fields, and an open record the type of its other keys.
            "records": .array(table.records.map { record in
                .array([.string(record.name), .array(record.fields.map { field in
                    .array([.string(field.name), .string(field.key), .string(table.code(field.type))] + (field.defaultValue.map { [.array([$0])] } ?? []))
                })]
                    + (record.additionalProperties.map { [.string(table.code($0))] } ?? []))
            }),
            "operations": .array(operations),
        ])
    }

    /// Records numbered as they are met (a record's fields may name records met later).
    private struct RecordTable {
        var records: [RecordType] = []
        var numbers: [ObjectIdentifier: Int] = [:]

        /// A type as a short code: `i d b s x f v a n u` (`f` a file), `?T`, `[T`, `{T`, `r12`.
        mutating func code(_ type: ScriptType) -> String {
            switch type {
            case .int: return "i"
            case .double: return "d"
            case .bool: return "b"
            case .string, .secret: return "s"
            case .bytes: return "x"
            case .void: return "v"
            case .nilLiteral: return "n"
            case .optional(let wrapped): return "?" + code(wrapped)
            case .array(let element): return "[" + code(element)
            case .dictionary(let element): return "{" + code(element)
            case .record(let record) where record == UploadFile.recordType: return "f"
            case .record(let record):
                if let number = numbers[ObjectIdentifier(record)] { return "r\(number)" }
                numbers[ObjectIdentifier(record)] = records.count
                records.append(record)
                // Its fields' records are numbered when the table is written, in order.
                for field in record.fields { _ = code(field.type) }
                if let additional = record.additionalProperties { _ = code(additional) }
                return "r\(numbers[ObjectIdentifier(record)] ?? 0)"
            case .unknown: return "u"
            default: return "a"
            }
        }
    }

    /// A value's constraints as an object of the set ones.
    private static func rules(_ constraints: ValueConstraints) -> Value {
        var entries: [String: Value] = [:]
        if let minimum = constraints.minimum { entries["minimum"] = .double(minimum) }
        if let maximum = constraints.maximum { entries["maximum"] = .double(maximum) }
        if constraints.exclusiveMinimum { entries["exclusiveMinimum"] = .bool(true) }
        if constraints.exclusiveMaximum { entries["exclusiveMaximum"] = .bool(true) }
        if let count = constraints.minLength { entries["minLength"] = .int(count) }
        if let count = constraints.maxLength { entries["maxLength"] = .int(count) }
        if let pattern = constraints.pattern { entries["pattern"] = .string(pattern) }
        if let count = constraints.minItems { entries["minItems"] = .int(count) }
        if let count = constraints.maxItems { entries["maxItems"] = .int(count) }
        return .dictionary(entries)
    }

    /// ``rules(_:)`` read back; nil for what it does not write (a damaged file).
    private static func constraints(_ value: Value) -> ValueConstraints? {
        guard case .dictionary(let entries) = value else { return nil }
        func number(_ key: String) -> Double? {
            switch entries[key] {
            case .double(let number)?: number
            case .int(let number)?: Double(number)
            default: nil
            }
        }
        func count(_ key: String) -> Int? { if case .int(let number)? = entries[key] { number } else { nil } }
        var constraints = ValueConstraints()
        constraints.minimum = number("minimum")
        constraints.maximum = number("maximum")
        constraints.exclusiveMinimum = entries["exclusiveMinimum"] == .bool(true)
        constraints.exclusiveMaximum = entries["exclusiveMaximum"] == .bool(true)
        constraints.minLength = count("minLength")
        constraints.maxLength = count("maxLength")
        if case .string(let pattern)? = entries["pattern"] { constraints.pattern = pattern }
        constraints.minItems = count("minItems")
        constraints.maxItems = count("maxItems")
        return constraints == ValueConstraints() ? nil : constraints
    }

    private static func code(_ credential: SpecCredential) -> Value {
        switch credential {
        case .none: .string("none")
        case .bearer: .string("bearer")
        case .basic: .string("basic")
        case .apiKey(let name, let placement): .string("apikey:\(placement.rawValue):\(name)")
        }
    }

    private static func place(_ place: SpecOperation.Argument.Place) -> String {
        switch place {
        case .path: "path"
        case .query: "query"
        case .header: "header"
        case .bodyField: "field"
        case .formField: "form"
        case .multipartField: "multipart"
        case .formMap: "formMap"
        case .multipartMap: "multipartMap"
        case .rawBody(let mediaType): "raw:" + mediaType
        case .body: "body"
        }
    }

    // MARK: Reading

    private static func contents(_ root: [String: Value]) -> OpenAPIDocument.Contents? {
        guard case .string(let title)? = root["title"], case .string(let textHash)? = root["hash"],
              case .array(let recordList)? = root["records"],
              case .array(let operationList)? = root["operations"], case .array(let serverList)? = root["servers"],
              case .array(let warningList)? = root["warnings"]
        else { return nil }
        // Every record first (fields may refer to any), then their fields.
        var records: [RecordType] = []
        var fieldLists: [(fields: [Value], additional: Value?)] = []
        for item in recordList {
            guard case .array(let parts) = item, parts.count == 2 || parts.count == 3, case .string(let name) = parts[0],
                  case .array(let fields) = parts[1] else { return nil }
            records.append(RecordType(name: name))
            fieldLists.append((fields, parts.count == 3 ? parts[2] : nil))
        }
        for (record, (fields, additionalCode)) in zip(records, fieldLists) {
            var defined: [RecordType.Field] = []
            for field in fields {
                guard case .array(let parts) = field, parts.count == 3 || parts.count == 4, case .string(let name) = parts[0],
                      case .string(let key) = parts[1], case .string(let code) = parts[2], let type = decode(code, records) else { return nil }
                // A default is kept as the one element of a list (it is never null).
                if parts.count == 4 {
                    guard case .array(let boxed) = parts[3], boxed.count == 1,
                          let defaultValue = try? ModelConformance.conform(boxed[0], to: type) else { return nil }
                    defined.append(RecordType.Field(name, type, key: key, default: defaultValue))
                } else {
                    defined.append(RecordType.Field(name, type, key: key))
                }
            }
            var additional: ScriptType?
            if let additionalCode {
                guard case .string(let code) = additionalCode, let type = decode(code, records) else { return nil }
                additional = type
            }
            record.define(defined, additionalProperties: additional)
        }
        var operations: [SpecOperation] = []
        for item in operationList {
            guard case .dictionary(let entries) = item, let operation = operation(entries, records) else { return nil }
            operations.append(operation)
        }
        var servers: [(url: String, description: String?)] = []
        for item in serverList {
            guard case .array(let parts) = item, parts.count == 2, case .string(let url) = parts[0] else { return nil }
            if case .string(let description) = parts[1] { servers.append((url, description)) } else { servers.append((url, nil)) }
        }
        let warnings = warningList.compactMap { if case .string(let text) = $0 { text } else { nil } }
        return OpenAPIDocument.Contents(textHash: textHash, title: title, servers: servers, warnings: warnings, recordTypes: records,
                                        operations: operations)
    }

    private static func operation(_ entries: [String: Value], _ records: [RecordType]) -> SpecOperation? {
        guard case .string(let name)? = entries["name"], case .string(let group)? = entries["group"],
              case .string(let summary)? = entries["summary"], case .string(let method)? = entries["method"],
              case .string(let path)? = entries["path"], case .string(let responseCode)? = entries["response"],
              let responseType = decode(responseCode, records), case .bool(let isJSON)? = entries["json"],
              case .bool(let deprecated)? = entries["deprecated"], case .array(let credentialList)? = entries["credentials"],
              case .array(let argumentList)? = entries["arguments"]
        else { return nil }
        var credentials: [SpecCredential] = []
        for item in credentialList {
            guard case .string(let text) = item, let credential = SpecCredential(option: text) else { return nil }
            credentials.append(credential)
        }
        var arguments: [SpecOperation.Argument] = []
        for item in argumentList {
            guard case .dictionary(let fields) = item, case .string(let key)? = fields["key"], case .string(let label)? = fields["label"],
                  case .string(let placeName)? = fields["place"], let place = place(named: placeName),
                  case .string(let typeCode)? = fields["type"], let type = decode(typeCode, records)
            else { return nil }
            var defaultValue: Value?
            if case .array(let wrapped)? = fields["default"], let first = wrapped.first { defaultValue = first }
            var choices: [Value]?
            if case .array(let values)? = fields["choices"] { choices = values }
            var sharedTypeName: String?
            if case .string(let name)? = fields["enumType"] { sharedTypeName = name }
            var argumentConstraints: ValueConstraints?
            if let rules = fields["rules"] {
                guard let read = constraints(rules) else { return nil }
                argumentConstraints = read
            }
            var argument = SpecOperation.Argument(key: key, label: label, place: place, type: type, defaultValue: defaultValue, choices: choices,
                                                  sharedTypeName: sharedTypeName, constraints: argumentConstraints)
            if case .string(let partType)? = fields["partType"] { argument.partType = partType }
            argument.isSecret = fields["secret"] == .bool(true)
            if case .string(let style)? = fields["listStyle"] {
                guard let listStyle = SpecOperation.Argument.ListStyle(rawValue: style) else { return nil }
                argument.listStyle = listStyle
            }
            if case .string(let code)? = fields["schemaType"] {
                guard let schemaType = decode(code, records) else { return nil }
                argument.schemaType = schemaType
            }
            arguments.append(argument)
        }
        var operationId: String?
        if case .string(let identifier)? = entries["operationId"] { operationId = identifier }
        var envelopeKey: String?
        if case .string(let key)? = entries["envelopeKey"] { envelopeKey = key }
        var tokenKey: String?
        if case .string(let key)? = entries["tokenKey"] { tokenKey = key }
        var operation = SpecOperation(name: name, operationId: operationId, group: group, summary: summary, method: method, path: path,
                                      arguments: arguments, responseType: responseType, responseIsJSON: isJSON, credentials: credentials,
                                      deprecated: deprecated, envelopeKey: envelopeKey, tokenKey: tokenKey)
        operation.streams = entries["streams"] == .bool(true)
        operation.declaresNotModified = entries["notModified"] == .bool(true)
        return operation
    }

    private static func place(named name: String) -> SpecOperation.Argument.Place? {
        switch name {
        case "path": .path
        case "query": .query
        case "header": .header
        case "field": .bodyField
        case "form": .formField
        case "multipart": .multipartField
        case "formMap": .formMap
        case "multipartMap": .multipartMap
        case "body": .body
        default: name.hasPrefix("raw:") && name.count > 4 ? .rawBody(mediaType: String(name.dropFirst(4))) : nil
        }
    }

    /// A type from its code; nil for a code that is not one (a damaged file).
    static func decode(_ code: String, _ records: [RecordType]) -> ScriptType? {
        var index = code.startIndex
        guard let type = decode(code, &index, records, depth: 0), index == code.endIndex else { return nil }
        return type
    }

    private static func decode(_ code: String, _ index: inout String.Index, _ records: [RecordType], depth: Int) -> ScriptType? {
        guard depth < 128, index < code.endIndex else { return nil }
        let character = code[index]
        code.formIndex(after: &index)
        switch character {
        case "i": return .int
        case "d": return .double
        case "b": return .bool
        case "s": return .string
        case "x": return .bytes
        case "f": return .record(UploadFile.recordType)
        case "v": return .void
        case "a": return .any
        case "n": return .nilLiteral
        case "u": return .unknown
        case "?": return decode(code, &index, records, depth: depth + 1).map { .optional($0) }
        case "[": return decode(code, &index, records, depth: depth + 1).map { .array($0) }
        case "{": return decode(code, &index, records, depth: depth + 1).map { .dictionary($0) }
        case "r":
            let start = index
            while index < code.endIndex, code[index].isASCII, code[index].isNumber { code.formIndex(after: &index) }
            guard let number = Int(code[start..<index]), records.indices.contains(number) else { return nil }
            return .record(records[number])
        default: return nil
        }
    }
}
