import APIScript
import TypistText

extension GraphQLSchemaModel {
    /// Reads an introspection answer: `{"data": {"__schema": …}}` as a service sends it, or the
    /// `__schema` object alone (a saved `schema.json`).
    ///
    /// - Throws: A ``GraphQLSchemaError`` saying what is missing, and where.
    package init(introspection json: Value) throws {
        var schema = json
        if let data = Self.member("data", of: schema) { schema = data }
        if let inner = Self.member("__schema", of: schema) { schema = inner }
        guard case .array(let list)? = Self.member("types", of: schema) else {
            throw GraphQLSchemaError("the JSON is not an introspection answer: it has no __schema.types")
        }
        var types: [String: NamedType] = [:]
        var warnings: [String] = []
        for (index, entry) in list.enumerated() {
            guard let name = Self.string("name", of: entry), !name.isEmpty else {
                throw GraphQLSchemaError("__schema.types[\(index)] has no name")
            }
            try Self.requireName(name, at: "__schema.types[\(index)]")
            if name.hasPrefix("__") { continue }
            guard let kindText = Self.string("kind", of: entry), let kind = Self.kind(kindText) else {
                throw GraphQLSchemaError("__schema.types[\(index)] (\(name)) has no kind GraphQL knows")
            }
            var type = NamedType(name: name, kind: kind, description: Self.string("description", of: entry))
            for (position, field) in Self.array("fields", of: entry).enumerated() {
                guard let fieldName = Self.string("name", of: field), let reference = Self.reference(Self.member("type", of: field)) else {
                    throw GraphQLSchemaError("\(name).fields[\(position)] has no name or type")
                }
                try Self.requireName(fieldName, at: "\(name).fields[\(position)]")
                guard type.field(named: fieldName) == nil else {
                    warnings.append("\(name).\(fieldName) is defined twice in the schema; the first definition is used")
                    continue
                }
                type.fields.append(Field(name: fieldName, type: reference,
                                         arguments: try Self.array("args", of: field).map { try Self.inputValue($0, in: "\(name).\(fieldName)") },
                                         description: Self.string("description", of: field), deprecation: Self.deprecation(field)))
            }
            type.inputFields = try Self.array("inputFields", of: entry).map { try Self.inputValue($0, in: name) }
            type.enumValues = try Self.array("enumValues", of: entry).compactMap { value in
                guard let valueName = Self.string("name", of: value) else { return nil }
                try Self.requireName(valueName, at: "\(name).enumValues")
                return EnumValue(name: valueName, description: Self.string("description", of: value), deprecation: Self.deprecation(value))
            }
            for related in Self.array("interfaces", of: entry) + Self.array("possibleTypes", of: entry) {
                if let relatedName = Self.string("name", of: related) { try Self.requireName(relatedName, at: "\(name)'s interfaces or members") }
            }
            type.interfaces = Self.array("interfaces", of: entry).compactMap { Self.string("name", of: $0) }
            if kind == .union { type.possibleTypes = Self.array("possibleTypes", of: entry).compactMap { Self.string("name", of: $0) } }
            types[name] = type
        }
        let root = { (key: String) in Self.member(key, of: schema).flatMap { Self.string("name", of: $0) } }
        self.init(types: types, queryType: root("queryType"), mutationType: root("mutationType"),
                  subscriptionType: root("subscriptionType"), warnings: warnings)
        if queryType == nil { throw GraphQLSchemaError("the introspection answer names no queryType") }
    }

    private static func inputValue(_ value: Value, in owner: String) throws -> InputValue {
        guard let name = string("name", of: value), let reference = reference(member("type", of: value)) else {
            throw GraphQLSchemaError("an argument or input field of \(owner) has no name or type")
        }
        try requireName(name, at: "an argument or input field of \(owner)")
        try requireName(reference.namedType, at: "\(owner).\(name)'s type")
        return InputValue(name: name, type: reference, defaultValue: string("defaultValue", of: value),
                          description: string("description", of: value), deprecation: deprecation(value))
    }

    private static func reference(_ value: Value?, depth: Int = 0) -> TypeReference? {
        guard let value, depth < 32, let kind = string("kind", of: value) else { return nil }
        switch kind {
        case "NON_NULL": return reference(member("ofType", of: value), depth: depth + 1).map(TypeReference.nonNull)
        case "LIST": return reference(member("ofType", of: value), depth: depth + 1).map(TypeReference.list)
        default: return string("name", of: value).map(TypeReference.named)
        }
    }

    /// Refuses a name GraphQL does not allow (`/[_A-Za-z][_0-9A-Za-z]*/`): an answer that has one
    /// is not a schema, and its names reach the terminal and the validator's SDL.
    private static func requireName(_ name: String, at place: String) throws {
        let isName = name.utf8.first.map { $0 == UInt8(ascii: "_") || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0 & ~0x20) } ?? false
            && name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0 & ~0x20) }
        guard isName, name.utf8.count <= 1024 else {
            throw GraphQLSchemaError("\(place): '\(TerminalText.sanitized(String(name.prefix(80))))' is not a GraphQL name")
        }
    }

    private static func deprecation(_ value: Value) -> String? {
        guard case .bool(true)? = member("isDeprecated", of: value) else { return nil }
        return string("deprecationReason", of: value) ?? "No longer supported"
    }

    private static func kind(_ text: String) -> Kind? {
        switch text {
        case "SCALAR": .scalar
        case "OBJECT": .object
        case "INTERFACE": .interface
        case "UNION": .union
        case "ENUM": .enumeration
        case "INPUT_OBJECT": .inputObject
        default: nil
        }
    }

    static func member(_ key: String, of value: Value) -> Value? {
        guard case .dictionary(let entries) = value, let inner = entries[key], inner != .null else { return nil }
        return inner
    }

    static func string(_ key: String, of value: Value) -> String? {
        if case .string(let text)? = member(key, of: value) { return text }
        return nil
    }

    static func array(_ key: String, of value: Value) -> [Value] {
        if case .array(let elements)? = member(key, of: value) { return elements }
        return []
    }

    /// The introspection query Typist sends for `--graphql URL`: every type with its fields,
    /// arguments, input fields, enum values, interfaces and members, deprecated ones included.
    package static let introspectionQuery = """
    query IntrospectionQuery {
      __schema {
        queryType { name }
        mutationType { name }
        subscriptionType { name }
        types { ...FullType }
      }
    }
    fragment FullType on __Type {
      kind name description
      fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
      inputFields { ...InputValue }
      interfaces { ...TypeRef }
      enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
      possibleTypes { ...TypeRef }
    }
    fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
    fragment TypeRef on __Type {
      kind name
      ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
    }
    """
}
