import APIScript
import TypistCore
import TypistText

/// The type model built from JSON Schemas: the same ``ScriptType`` and ``RecordType`` the registry
/// builds from Swift types and `:model` from a JSON sample, so that the checker, completion,
/// `:describe` and `:model` read a document's types as they read a host's.
///
/// - An object schema (`properties`, `allOf`) is a record; a property is optional unless
///   `required`; its field is named as Swift would (`full_name` → `fullName`) with its key kept.
/// - `nullable: true`, `type: [T, "null"]` and `anyOf`/`oneOf` `[T, {type: null}]` make `T?`.
/// - `allOf` merges its members into one record.
/// - `oneOf`/`anyOf` of objects (with a discriminator or not) is one record whose variant-only
///   fields are optional; an unrelated union, or `{}`, is dynamic JSON (`Any`).
/// - `additionalProperties` without `properties` is a dictionary; with them (`{}`, `true` or a
///   schema) the record is open: its values keep every other key the service sent
///   (``RecordType/additionalProperties``).
/// - `readOnly` fields are left out of request bodies, `writeOnly` ones out of responses.
/// - Formats: `int32`/`int64` are `Int`; `binary` is `Bytes`; `date-time`, `uuid`, `byte` … stay
///   `String` (as the JSON holds them).
/// - A schema that refers to itself (`$ref` cycles) is a record that contains itself.
package struct SchemaTypes {
    /// Which way a body goes: fields only the other way are left out.
    package enum Direction: Sendable { case request, response }

    private let document: SpecNode
    /// Records of named schemas, by `$ref` and direction.
    private var named: [String: RecordType] = [:]
    private var usedNames: Set<String> = []
    /// Every record made, in order (less those found to be another's shape).
    package private(set) var records: [RecordType] = []
    /// Inline object schemas by shape: one met again with the same fields and keys (Kinto's
    /// `permissions`, under each of its 28 answers) is the record made the first time, named once
    /// every use is known (``nameSharedRecords()``).
    private var shapes: [Shape: RecordType] = [:]
    /// Named schemas' records by shape: an inline object met after one of the same fields is it
    /// (GitHub's `labels` items are its `Label`).
    private var namedShapes: [Shape: RecordType] = [:]
    /// The names each shared inline record's uses would have given it, the first use's first.
    private var uses: [ObjectIdentifier: (record: RecordType, names: [String])] = [:]
    private var dropped: Set<ObjectIdentifier> = []
    /// What could not be followed (an external `$ref`), in words.
    package private(set) var warnings: [String] = []
    private static let maximumDepth = 64

    /// `$ref` targets already found (a large document refers to its schemas thousands of times).
    private let found = FoundReferences()

    package init(document: SpecNode) {
        self.document = document
    }

    /// The type of `schema`; an inline object's record is named `name`.
    package mutating func type(of schema: SpecNode, name: String, direction: Direction) -> ScriptType {
        type(of: schema, name: name, direction: direction, depth: 0)
    }

    private mutating func type(of schema: SpecNode, name: String, direction: Direction, depth: Int) -> ScriptType {
        guard depth < Self.maximumDepth, case .object = schema else { return .any }
        if let reference = schema["$ref"]?.string { return referenced(reference, direction: direction, depth: depth) }
        var nullable = schema["nullable"]?.bool == true || schema["x-nullable"]?.bool == true
        // `type: [T, "null"]` (3.1).
        var typeName = schema["type"]?.string
        if let types = schema["type"]?.array?.compactMap(\.string) {
            nullable = nullable || types.contains("null")
            let others = types.filter { $0 != "null" }
            guard others.count <= 1 else { return .any }
            typeName = others.first
        }
        func wrap(_ type: ScriptType) -> ScriptType { nullable ? type.optional : type }

        if let members = schema["allOf"]?.array, schema["properties"] == nil, members.count == 1 {
            return wrap(type(of: members[0], name: name, direction: direction, depth: depth + 1))
        }
        if schema["allOf"] != nil || schema["properties"] != nil || typeName == "object" && schema["additionalProperties"] == nil {
            if schema["allOf"] == nil, schema["properties"] == nil {
                return wrap(.dictionary(.any))
            }
            let record = makeRecord(name)
            record.define(fields(of: schema, owner: record.name, direction: direction, depth: depth),
                          additionalProperties: additionalProperties(of: schema, name: record.name, direction: direction, depth: depth))
            return wrap(.record(sharing(record, name: name)))
        }
        if let union = schema["oneOf"]?.array ?? schema["anyOf"]?.array {
            return wrap(self.union(union, name: name, direction: direction, depth: depth))
        }
        switch typeName {
        case "integer": return wrap(.int)
        case "number": return wrap(.double)
        case "boolean": return wrap(.bool)
        case "string": return wrap(schema["format"]?.string == "binary" ? .bytes : .string)
        case "array":
            let items = schema["items"] ?? .object([])
            return wrap(.array(type(of: items, name: SwiftNames.type(SwiftNames.singular(name)), direction: direction, depth: depth + 1)))
        case "object":
            // `additionalProperties` alone: a dictionary.
            switch schema["additionalProperties"] {
            case .object(let entries)? where !entries.isEmpty:
                return wrap(.dictionary(type(of: .object(entries), name: name + "Value", direction: direction, depth: depth + 1)))
            default: return wrap(.dictionary(.any))
            }
        case "null": return .nilLiteral
        default:
            // No type: an enum of strings is a string; anything else is any JSON.
            if let cases = schema["enum"]?.array, !cases.isEmpty, cases.allSatisfy({ if case .string = $0 { true } else { false } }) {
                return wrap(.string)
            }
            return .any
        }
    }

    /// The Swift type a named schema is: its name as Swift writes a type, with `Model` after a name
    /// the generated Swift needs for something else — `Endpoint`'s generic parameters (`Kind`, as
    /// in `extension Endpoint where Kind == Bearer`, where a schema's `Kind` could not be named),
    /// the types it is written with, and Swift's own.
    static func typeName(ofSchema name: String) -> String {
        let type = SwiftNames.type(name)
        return reservedTypeNames.contains(type) ? type + "Model" : type
    }

    /// ``typeName(ofSchema:)``, with a warning that says why when it is not the schema's own name.
    mutating func typeName(forSchema name: String) -> String {
        let type = Self.typeName(ofSchema: name)
        if type != SwiftNames.type(name) {
            warnings.append("'\(TerminalText.sanitized(name))' is the type \(type) here: \(SwiftNames.type(name)) is a name the generated Swift uses for something else")
        }
        return type
    }

    /// Swift's own types and protocols a shared record is not named after (a package's
    /// `Collection` would make Swift's ambiguous in a host that imports it).
    static let standardLibraryNames: Set<String> = [
        "Collection", "Sequence", "Element", "Index", "Result", "Never", "Character", "Float", "Range", "Identifiable",
        "Equatable", "Hashable", "Comparable", "Task", "Decoder", "Encoder", "Substring", "UInt", "Int64", "Int32",
        "Iterator", "Key", "Value", "Values", "Keys", "Mirror", "Unicode", "Slice", "Stride", "Duration", "Clock",
    ]

    static let reservedTypeNames: Set<String> = SwiftNames.reservedTypes.union([
        "Kind", "Response", "Endpoint", "Public", "Bearer", "Basic", "APIKey", "HTTPHeader", "HTTPMethod", "RequestBody", "MultipartPart", "UploadFile",
        "Group", "Register", "RegisterStream", "Parameter", "ScriptArgument", "JSONScriptArgument", "URLQueryItem", "Void",
        "Array", "Dictionary", "Optional", "Set", "Error", "Encodable", "Codable", "CaseIterable",
    ])

    /// A `$ref`: a named schema's record (made once, so cycles end), or the type it names.
    private mutating func referenced(_ reference: String, direction: Direction, depth: Int) -> ScriptType {
        guard let target = resolve(reference) else {
            warnings.append(reference.hasPrefix("#")
                ? "$ref '\(TerminalText.sanitized(reference))' points at nothing in the document: it is Any here"
                : "cannot follow $ref '\(TerminalText.sanitized(reference))' (only references inside the document are followed): it is Any here")
            return .any
        }
        let schemaName = typeName(forSchema: String(reference.split(separator: "/").last ?? "Model"))
        guard Self.isRecord(target) else {
            // Worked out once per reference and direction; a reference met again while its own
            // type is being worked out (the "any JSON value" `oneOf` that holds arrays of itself)
            // is any JSON there. Without both, each use would expand the schema anew, twice per
            // level to the depth limit.
            let key = reference + (direction == .request ? "#request" : "#response")
            if let known = found.types[key] { return known ?? .any }
            found.types[key] = .some(nil)
            let resolved = type(of: target, name: schemaName, direction: direction, depth: depth + 1)
            found.types[key] = resolved
            return resolved
        }
        // One record for both directions unless a field somewhere in it is read- or write-only:
        // then what is sent is `PetInput` and what comes back `Pet` (the request's used to take
        // the plain name, leaving `Pet2` for every answer).
        let oneWay = direction == .request && hasOneWayFields(reference, target)
        let key = reference + (oneWay ? "#request" : "")
        if let record = named[key] { return Self.nullable(target) ? .record(record).optional : .record(record) }
        let record = makeRecord(oneWay ? schemaName + "Input" : schemaName)
        named[key] = record
        record.define(fields(of: target, owner: record.name, direction: direction, depth: depth),
                      additionalProperties: additionalProperties(of: target, name: record.name, direction: direction, depth: depth))
        if !record.fields.isEmpty {
            let shape = Shape(fields: record.fields, additionalProperties: record.additionalProperties)
            if namedShapes[shape] == nil { namedShapes[shape] = record }
        }
        return Self.nullable(target) ? .record(record).optional : .record(record)
    }

    /// The node a local `$ref` (`#/components/schemas/Pet`) points at.
    package func resolve(_ reference: String) -> SpecNode? {
        if let known = found.nodes[reference] { return known }
        let node = lookUp(reference)
        found.nodes[reference] = node
        return node
    }

    private func lookUp(_ reference: String) -> SpecNode? {
        guard reference.hasPrefix("#") else { return nil }
        var node = document
        for token in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let key = (token.removingPercentEncoding ?? String(token))
                .replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let next = node[key] {
                node = next
            } else if let index = Int(key), let elements = node.array, elements.indices.contains(index) {
                node = elements[index]
            } else {
                return nil
            }
        }
        return node
    }

    /// An object's fields: its own properties, and those of every `allOf` member.
    private mutating func fields(of schema: SpecNode, owner: String, direction: Direction, depth: Int) -> [RecordType.Field] {
        var collected: [(key: String, type: ScriptType, defaultValue: Value?)] = []
        var positions: [String: Int] = [:]
        func add(_ key: String, _ type: ScriptType, _ defaultValue: Value?) {
            if let position = positions[key] {
                collected[position] = (key, type, defaultValue)
            } else {
                positions[key] = collected.count
                collected.append((key, type, defaultValue))
            }
        }
        var seen = 0
        walkObject(schema, depth: depth) { object, this in
            seen += 1
            let required = Set(object["required"]?.array?.compactMap(\.string) ?? [])
            for (key, property) in object["properties"]?.entries ?? [] {
                let resolved = property["$ref"]?.string.flatMap(this.resolve) ?? property
                if direction == .response, resolved["writeOnly"]?.bool == true { continue }
                if direction == .request, resolved["readOnly"]?.bool == true { continue }
                let type = this.type(of: property, name: Self.fieldTypeName(owner: owner, key: key), direction: direction, depth: depth + 1)
                if required.contains(key) {
                    add(key, type, nil)
                } else if let defaultValue = Self.defaultValue(of: property["default"] ?? resolved["default"], type: type) {
                    add(key, type, defaultValue)
                } else {
                    add(key, type.optional, nil)
                }
            }
        }
        var taken: Set<String> = []
        return collected.map { key, type, defaultValue in
            var name = SwiftNames.property(key)
            while taken.contains(name) { name += "_" }
            taken.insert(name)
            return defaultValue.map { RecordType.Field(name, type, key: key, default: $0) } ?? RecordType.Field(name, type, key: key)
        }
    }

    /// What an absent key holds, when the document gives its property a `default` that its type
    /// holds and Swift writes as a literal — a number, a Boolean, a string, a list or map of
    /// them, or an empty list or map of anything (Kinto's lists' `data: {type: array, default:
    /// []}`): then the field is `[T]` with that
    /// default, as the service fills it, not `[T]?` read with `!`. A nullable property keeps its
    /// `?` (null is one of its values); a `default: null` is no default.
    static func defaultValue(of node: SpecNode?, type: ScriptType) -> Value? {
        guard let node, !type.isOptional else { return nil }
        switch (type, node.value) {
        case (_, .null): return nil
        // Empty, a list or map of anything is written `[]` or `[:]`.
        case (.array, .array(let elements)) where elements.isEmpty: return .array([])
        case (.dictionary, .dictionary(let entries)) where entries.isEmpty: return .dictionary([:])
        case (_, let value):
            guard writesAsLiteral(type) else { return nil }
            return try? ModelConformance.conform(value, to: type)
        }
    }

    private static func writesAsLiteral(_ type: ScriptType) -> Bool {
        switch type {
        case .int, .double, .bool, .string: true
        case .array(let element), .dictionary(let element): writesAsLiteral(element)
        default: false
        }
    }

    /// The name of the type of an object's field, from its owner's and the key: `Post` and
    /// `author` make `PostAuthor`. A list whose one element would repeat the owner's last word
    /// (`BatchResponse`'s `responses`, whose elements would be `BatchResponseResponse`) is of
    /// `…Item`s: `BatchResponseItem`.
    static func fieldTypeName(owner: String, key: String) -> String {
        let part = SwiftNames.type(key)
        let element = SwiftNames.type(SwiftNames.singular(key))
        guard part != element, !element.hasSuffix("Item"), owner.hasSuffix(element) else { return owner + part }
        return owner + "Items"
    }

    /// The type of an object's other keys when it allows them beside its properties —
    /// `additionalProperties: {}` or `true` (any JSON) or a schema, on it or on an `allOf`
    /// member — or nil when it allows none (`false`, or no `additionalProperties`).
    private mutating func additionalProperties(of schema: SpecNode, name: String, direction: Direction, depth: Int) -> ScriptType? {
        var found: SpecNode?
        walkObject(schema, depth: depth) { object, _ in
            if found == nil, let additional = object["additionalProperties"] { found = additional }
        }
        switch found {
        case nil, .bool(false)?: return nil
        case .bool(true)?: return .any
        case let additional?:
            guard case .object(let entries) = additional, !entries.isEmpty else { return .any }
            return type(of: additional, name: name + "Value", direction: direction, depth: depth + 1)
        }
    }

    /// Calls `visit` for an object schema and each `allOf` member (references followed, each
    /// once: `allOf: [A, A]` inside `A` would otherwise double the work at every level).
    private mutating func walkObject(_ schema: SpecNode, depth: Int, _ visit: (SpecNode, inout SchemaTypes) -> Void) {
        var visited: Set<String> = []
        walkObject(schema, depth: depth, visited: &visited, visit)
    }

    private mutating func walkObject(_ schema: SpecNode, depth: Int, visited: inout Set<String>, _ visit: (SpecNode, inout SchemaTypes) -> Void) {
        guard depth < Self.maximumDepth else { return }
        visit(schema, &self)
        for member in schema["allOf"]?.array ?? [] {
            if let reference = member["$ref"]?.string {
                guard visited.insert(reference).inserted, let resolved = resolve(reference) else { continue }
                walkObject(resolved, depth: depth + 1, visited: &visited, visit)
            } else {
                walkObject(member, depth: depth + 1, visited: &visited, visit)
            }
        }
    }

    /// The one member of a `oneOf`/`anyOf` that is not `{type: null}`, when there is one and a null.
    static func nonNullMember(of schema: SpecNode) -> SpecNode? {
        guard let members = schema["anyOf"]?.array ?? schema["oneOf"]?.array else { return nil }
        let others = members.filter { !isNull($0) }
        return others.count == 1 && members.count == 2 ? others[0] : nil
    }

    private static func isNull(_ schema: SpecNode) -> Bool { schema["type"]?.string == "null" }

    /// `oneOf`/`anyOf`: `T` or null is `T?`; objects are one record whose variant-only fields are
    /// optional; anything else is any JSON.
    private mutating func union(_ members: [SpecNode], name: String, direction: Direction, depth: Int) -> ScriptType {
        let others = members.filter { !Self.isNull($0) }
        let nullable = others.count < members.count
        guard !others.isEmpty else { return .nilLiteral }
        if others.count == 1 {
            let type = type(of: others[0], name: name, direction: direction, depth: depth + 1)
            return nullable ? type.optional : type
        }
        let resolved = others.map { $0["$ref"]?.string.flatMap(resolve) ?? $0 }
        guard resolved.allSatisfy(Self.isRecord) else {
            let types = others.map { type(of: $0, name: name, direction: direction, depth: depth + 1) }
            guard let first = types.first, types.allSatisfy({ $0 == first }) else { return .any }
            return nullable ? first.optional : first
        }
        // One record: every variant's fields, optional unless every variant requires them.
        var variants: [[RecordType.Field]] = []
        for member in resolved {
            variants.append(fields(of: member, owner: name, direction: direction, depth: depth + 1))
        }
        var merged: [RecordType.Field] = []
        for variant in variants {
            for field in variant where !merged.contains(where: { $0.key == field.key }) {
                let everywhere = variants.allSatisfy { $0.contains { $0.key == field.key && !$0.type.isOptional } }
                var kept = field
                if !everywhere {
                    // Absent from a variant, it is absent: no default stands in for it.
                    kept.type = field.type.optional
                    kept.defaultValue = nil
                }
                merged.append(kept)
            }
        }
        let record = makeRecord(name)
        record.define(merged)
        let shared = sharing(record, name: name)
        return nullable ? .record(shared).optional : .record(shared)
    }

    /// The shape of an inline record: two are one type when their fields (names, keys, types,
    /// defaults) and other keys are.
    private struct Shape: Hashable {
        var fields: [RecordType.Field]
        var additionalProperties: ScriptType?
    }

    /// `record`, just defined from an inline schema, or the record of its shape made before — a
    /// named schema's first (its name is the document's), else the first inline one — (then
    /// `record` is dropped: nothing refers to it yet). Records are compared once their
    /// fields' records are, so nested shapes are shared from the inside out.
    private mutating func sharing(_ record: RecordType, name: String) -> RecordType {
        let shape = Shape(fields: record.fields, additionalProperties: record.additionalProperties)
        // The document's own name for the shape, where it has one.
        if let named = namedShapes[shape] {
            dropped.insert(ObjectIdentifier(record))
            usedNames.remove(record.name)
            return named
        }
        guard let first = shapes[shape] else {
            shapes[shape] = record
            uses[ObjectIdentifier(record)] = (record, [name])
            return record
        }
        dropped.insert(ObjectIdentifier(record))
        usedNames.remove(record.name)
        uses[ObjectIdentifier(first)]?.names.append(name)
        return first
    }

    /// Names each inline record met under several names by what those names share
    /// (`GetBucketResponsePermissions`, `DeleteBucketResponsePermissions` … → `BucketPermissions`;
    /// ``commonNames(of:fields:)``), a name Swift has taking `Model` (`CollectionModel`), where
    /// that is a name no other record has; else it keeps its first use's name. Records used most
    /// are named first. Call once every operation is read: a record's name is final after.
    package mutating func nameSharedRecords() {
        if !dropped.isEmpty { records.removeAll { dropped.contains(ObjectIdentifier($0)) } }
        dropped = []
        let shared = uses.values.filter { $0.names.count > 1 }
        guard !shared.isEmpty else { return }
        var taken = Set(records.map(\.name))
        let order = Dictionary(uniqueKeysWithValues: records.enumerated().map { (ObjectIdentifier($1), $0) })
        for (record, names) in shared.sorted(by: { ($0.names.count, order[ObjectIdentifier($1.record)] ?? 0) > ($1.names.count, order[ObjectIdentifier($0.record)] ?? 0) }) {
            // A shared name Swift has is the name with `Model`, as a schema's is.
            let candidates = Self.commonNames(of: names, fields: record.fields.map(\.key)).flatMap { name in
                Self.reservedTypeNames.contains(name) || Self.standardLibraryNames.contains(name) ? [name + "Model"] : [name]
            }
            guard let name = candidates.first(where: { !taken.contains($0) }), name != record.name else { continue }
            taken.remove(record.name)
            taken.insert(name)
            record.rename(to: name)
        }
    }

    /// The names a record met under `names` may take: the words every name has, in the order
    /// they have them, a list's `Buckets` being its element's `Bucket` (`GetBucketsResponseDataItem`,
    /// `GetBucketResponseData`, `CreateBucketResponseData` → `BucketData`; a word every name
    /// spells in the plural stays so: `Permissions`) — first without the words every answer's and
    /// body's name has (`Response`, `Body`, `Item`), then with them. Where those are all they
    /// share (`DeleteBucketsResponse`, `GetRecordsResponse`), the record is named by its first
    /// fields instead (`DataResponse`). Two uses that differ by one word may also be named by
    /// both (`PullRequestSimple`'s `head` and `base`: `PullRequestSimpleHeadOrBase`). Each starts with a letter; none when
    /// they share no word.
    static func commonNames(of names: [String], fields: [String]) -> [String] {
        guard var shared = names.first.map(words) else { return [] }
        for other in names.dropFirst() { shared = commonSubsequence(shared, words(other)) }
        let plain = shared.filter { !["Response", "Body", "Item"].contains($0.single) }
        let spelled = { (words: [(single: String, spelled: String)]) in
            words.map { $0.spelled.prefix(1).uppercased() + $0.spelled.dropFirst() }.joined()
        }
        var candidates = plain.isEmpty
            ? (shared.isEmpty || fields.isEmpty ? [] : [fields.prefix(2).map(SwiftNames.type).joined() + spelled(shared)])
            : [spelled(plain), spelled(shared)]
        // Two uses whose shared words are taken (`PullRequestSimple`'s `head` and `base`): both.
        let distinct = names.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if distinct.count == 2, !shared.isEmpty {
            let rests = distinct.map { name in
                var rest = SwiftNames.words(name)
                for word in shared { if let index = rest.firstIndex(where: { $0 == word.spelled || $0 == word.single }) { rest.remove(at: index) } }
                return rest
            }
            // Only where each differs by one word: more reads as two names run together.
            if rests.allSatisfy({ $0.count == 1 }) {
                let both = rests.map { $0[0] }.joined(separator: "Or")
                // Where the words differ: first (`ListOrGetPermissions`) or after the shared ones.
                let leading = zip(distinct, rests).allSatisfy { name, rest in SwiftNames.words(name).first == rest[0] }
                candidates.append(leading ? both + spelled(shared) : spelled(shared) + both)
            }
        }
        return candidates.filter { name in name.unicodeScalars.first.map { (65...90).contains($0.value) } == true }
    }

    /// A name's words: each as one of a kind (`Buckets` → `Bucket`), for comparing, and as spelled.
    private static func words(_ name: String) -> [(single: String, spelled: String)] {
        SwiftNames.words(name).map { word in
            guard word.count > 3, word.last == "s", word.first?.isUppercase == true, !word.hasSuffix("ss") else { return (word, word) }
            let single = SwiftNames.singular(word)
            return single.hasSuffix("Item") ? (word, word) : (single, word)
        }
    }

    /// The longest run of words both lists have in order (not necessarily adjacent), compared one
    /// of a kind; a word spelled two ways is spelled singular.
    private static func commonSubsequence(_ first: [(single: String, spelled: String)],
                                          _ second: [(single: String, spelled: String)]) -> [(single: String, spelled: String)] {
        guard !first.isEmpty, !second.isEmpty else { return [] }
        // lengths[i][j]: of first[i...] and second[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: second.count + 1), count: first.count + 1)
        for i in first.indices.reversed() {
            for j in second.indices.reversed() {
                lengths[i][j] = first[i].single == second[j].single ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var result: [(single: String, spelled: String)] = []
        var (i, j) = (0, 0)
        while i < first.count, j < second.count {
            if first[i].single == second[j].single {
                result.append(first[i].spelled == second[j].spelled ? first[i] : (first[i].single, first[i].single))
                i += 1
                j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return result
    }

    private mutating func makeRecord(_ base: String) -> RecordType {
        let record = RecordType(name: SwiftNames.uniqueType(base, taken: &usedNames))
        records.append(record)
        return record
    }

    /// Whether a schema describes an object with fields.
    private static func isRecord(_ schema: SpecNode) -> Bool {
        schema["properties"] != nil || schema["allOf"] != nil
    }

    private static func nullable(_ schema: SpecNode) -> Bool {
        schema["nullable"]?.bool == true || schema["x-nullable"]?.bool == true
            || schema["type"]?.array?.contains { $0.string == "null" } == true
    }

    /// ``hasOneWayFields(_:document:)`` of the schema `reference` names, worked out once per
    /// reference (a large document refers to one schema thousands of times).
    private func hasOneWayFields(_ reference: String, _ target: SpecNode) -> Bool {
        if let known = found.oneWay[reference] { return known }
        let answer = Self.hasOneWayFields(target, document: self)
        found.oneWay[reference] = answer
        return answer
    }

    /// Whether a field of the schema, or of a schema it holds (through properties, items,
    /// dictionaries, `allOf`/`anyOf`/`oneOf` and `$ref`s, each followed once), is read- or
    /// write-only: then its record differs between what is sent and what comes back.
    private static func hasOneWayFields(_ schema: SpecNode, document: SchemaTypes) -> Bool {
        var seen: Set<String> = []
        func oneWay(_ node: SpecNode, depth: Int) -> Bool {
            guard depth < 64 else { return false }
            var node = node
            if let reference = node["$ref"]?.string {
                guard seen.insert(reference).inserted, let target = document.resolve(reference) else { return false }
                node = target
            }
            if node["readOnly"]?.bool == true || node["writeOnly"]?.bool == true { return depth > 0 }
            let held = (node["properties"]?.entries ?? []).map(\.value)
                + ["items", "additionalProperties"].compactMap { node[$0] }
                + ["allOf", "anyOf", "oneOf"].flatMap { node[$0]?.array ?? [] }
            return held.contains { oneWay($0, depth: depth + 1) }
        }
        return oneWay(schema, depth: 0)
    }
}

/// The targets of `$ref`s found so far, shared by the copies of one ``SchemaTypes`` (a reader's
/// work is single-threaded).
private final class FoundReferences {
    var nodes: [String: SpecNode?] = [:]
    /// Whether each referenced schema has a one-way field somewhere in it.
    var oneWay: [String: Bool] = [:]
    /// Types of referenced schemas that are not records, by reference and direction; `.some(nil)`
    /// while one is being worked out.
    var types: [String: ScriptType?] = [:]
}
