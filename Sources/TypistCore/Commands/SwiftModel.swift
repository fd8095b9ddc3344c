import APIScript
import Foundation

/// `:model`: `Decodable` Swift structs inferred from a JSON value, the step from an untyped call to
/// a typed endpoint.
///
/// Struct names come from keys (`owner` → `Owner`, `items` → `Item`); a key that is null or
/// missing in some elements of an array is `Optional`; the records of an array are merged into one
/// struct; numbers are `Int` unless some are not whole; keys that are not Swift names get
/// `CodingKeys`. Where one key holds values of different kinds, the field is a small `JSONValue`
/// enum, printed once at the end.
struct SwiftModel {
    /// The shape of JSON values seen at one place.
    private indirect enum Shape: Equatable {
        case null, bool, int, double, string
        case array(Shape?)  // nil: only empty arrays were seen
        case object(ObjectShape)
        /// Seen as null somewhere, and as this elsewhere.
        case nullable(Shape)
        case mixed
    }

    private struct ObjectShape: Equatable {
        var keys: [String] = []
        var shapes: [String: Shape] = [:]
        /// Keys some objects here lacked.
        var sometimesMissing: Set<String> = []
    }

    private var structs: [(name: String, lines: [String])] = []
    private var usedNames: Set<String> = []
    private var needsJSONValue = false
    /// Nesting is bounded by the value's own (and JSON's 512 levels); this bounds the work too.
    private static let maximumDepth = 64

    /// The Swift source for `value`, with `rootName` for its top-level struct.
    static func render(_ value: Value, rootName: String) -> String {
        var model = SwiftModel()
        let shape = model.shape(of: value, depth: 0)
        var header = ["// Inferred from one response: check optionals and number types against the service's documentation."]
        let root: String
        switch shape {
        case .object(let object):
            root = model.declare(object, named: rootName)
        case .array(.object(let object)?):
            root = "[" + model.declare(object, named: rootName) + "]"
        default:
            root = model.typeName(shape, key: rootName, optional: false)
        }
        header.append("// Decode it as \(root): try JSONDecoder().decode(\(root).self, from: data)")
        var lines = header + [""]
        for (index, item) in model.structs.enumerated() {
            if index > 0 { lines.append("") }
            lines.append(contentsOf: item.lines)
        }
        if model.structs.isEmpty { lines.removeLast() }
        if model.needsJSONValue { lines.append(""); lines.append(contentsOf: jsonValueDeclaration) }
        return lines.joined(separator: "\n")
    }

    private func shape(of value: Value, depth: Int) -> Shape {
        guard depth < Self.maximumDepth else { return .mixed }
        switch value {
        case .null, .void, .function: return .null
        case .bool: return .bool
        case .int: return .int
        case .double: return .double
        case .string, .secret, .bytes: return .string
        case .range: return .array(.int)
        case .array(let elements):
            return .array(elements.reduce(nil as Shape?) { merged, element in
                let next = shape(of: element, depth: depth + 1)
                return merged.map { Self.merge($0, next) } ?? next
            })
        case .dictionary(let entries):
            var object = ObjectShape()
            for key in entries.keys.sorted() {
                object.keys.append(key)
                object.shapes[key] = shape(of: entries[key] ?? .null, depth: depth + 1)
            }
            return .object(object)
        case .record(let record):
            var object = ObjectShape()
            for (index, field) in record.type.fields.enumerated() {
                object.keys.append(field.name)
                object.shapes[field.name] = shape(of: record.value(at: index) ?? .null, depth: depth + 1)
            }
            return .object(object)
        }
    }

    private static func merge(_ a: Shape, _ b: Shape) -> Shape {
        switch (a, b) {
        case _ where a == b: return a
        case (.null, .nullable), (.nullable, .null): return a == .null ? b : a
        case (.nullable(let x), _): return .nullable(merge(x, b == .null ? x : b))
        case (_, .nullable(let y)): return .nullable(merge(a, y))
        case (.null, _): return .nullable(b)
        case (_, .null): return .nullable(a)
        case (.int, .double), (.double, .int): return .double
        case (.array(let x), .array(let y)):
            guard let x else { return b }
            guard let y else { return a }
            return .array(merge(x, y))
        case (.object(let x), .object(let y)):
            var merged = x
            for key in y.keys {
                if let existing = merged.shapes[key], let other = y.shapes[key] {
                    merged.shapes[key] = merge(existing, other)
                } else {
                    merged.keys.append(key)
                    merged.shapes[key] = y.shapes[key]
                    merged.sometimesMissing.insert(key)
                }
            }
            merged.sometimesMissing.formUnion(y.sometimesMissing)
            for key in x.keys where y.shapes[key] == nil { merged.sometimesMissing.insert(key) }
            return .object(merged)
        default: return .mixed
        }
    }

    /// Declares a struct (and, first, the structs of its fields); returns its name.
    private mutating func declare(_ object: ObjectShape, named base: String) -> String {
        let name = uniqueTypeName(base)
        let position = structs.count
        structs.append((name, []))
        var properties: [(property: String, key: String, type: String)] = []
        var taken: Set<String> = []
        for key in object.keys {
            var property = Self.propertyName(key)
            while taken.contains(property) { property += "_" }
            taken.insert(property)
            let shape = object.shapes[key] ?? .null
            let optional = object.sometimesMissing.contains(key)
            properties.append((property, key, typeName(shape, key: key, optional: optional)))
        }
        var lines = ["struct \(name): Decodable, Sendable {"]
        for item in properties { lines.append("    let \(Self.escaped(item.property)): \(item.type)") }
        if properties.contains(where: { $0.property != $0.key }) {
            lines.append("")
            lines.append("    enum CodingKeys: String, CodingKey {")
            for item in properties {
                lines.append("        case \(Self.escaped(item.property))" + (item.property == item.key ? "" : " = \(ValueFormatter.quoted(item.key))"))
            }
            lines.append("    }")
        }
        lines.append("}")
        structs[position].lines = lines
        return name
    }

    private mutating func typeName(_ shape: Shape, key: String, optional: Bool) -> String {
        let base: String
        var isOptional = optional
        switch shape {
        case .null:
            base = "String"
            isOptional = true
        case .bool: base = "Bool"
        case .int: base = "Int"
        case .double: base = "Double"
        case .string: base = "String"
        case .array(let element?):
            if case .object(let object) = element {
                base = "[" + declare(object, named: Self.typeBase(Self.singular(key))) + "]"
            } else {
                base = "[" + typeName(element, key: Self.singular(key), optional: false) + "]"
            }
        case .array(nil): base = "[String]"
        case .object(let object): base = declare(object, named: Self.typeBase(key))
        case .nullable(let wrapped):
            return typeName(wrapped, key: key, optional: true)
        case .mixed:
            needsJSONValue = true
            base = "JSONValue"
            isOptional = true
        }
        return isOptional ? base + "?" : base
    }

    private mutating func uniqueTypeName(_ base: String) -> String {
        var name = base.isEmpty ? "Model" : base
        var counter = 2
        while usedNames.contains(name) || ["String", "Int", "Double", "Bool", "JSONValue", "Data", "Date", "URL", "UUID", "Decodable", "Sendable", "CodingKeys", "Self", "Type", "Protocol", "Any"].contains(name) {
            name = (base.isEmpty ? "Model" : base) + String(counter)
            counter += 1
        }
        usedNames.insert(name)
        return name
    }

    // MARK: Names

    /// Words of a key: split at anything not a letter or digit and at lower-to-upper changes.
    private static func words(_ key: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        for character in key {
            if !(character.isLetter || character.isNumber) || !character.isASCII {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase, previousWasLower, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
            previousWasLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    static func propertyName(_ key: String) -> String {
        let parts = words(key)
        guard let first = parts.first else { return "value" }
        var name = first.prefix(1).lowercased() + (first.allSatisfy { $0.isUppercase || $0.isNumber } ? first.dropFirst().lowercased() : String(first.dropFirst()))
        for part in parts.dropFirst() { name += part.prefix(1).uppercased() + part.dropFirst() }
        if let leading = name.first, leading.isNumber { name = "_" + name }
        return name
    }

    static func typeBase(_ key: String) -> String {
        let property = propertyName(key)
        guard let first = property.first, first != "_" else { return "Item" + property }
        return first.uppercased() + property.dropFirst()
    }

    static func singular(_ key: String) -> String {
        if key.hasSuffix("ies"), key.count > 3 { return String(key.dropLast(3)) + "y" }
        if key.hasSuffix("sses") { return String(key.dropLast(2)) }
        if key.hasSuffix("s"), !key.hasSuffix("ss"), key.count > 1 { return String(key.dropLast()) }
        return key + "Item"
    }

    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "catch",
        "false", "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try", "Any", "await", "async",
    ]

    private static func escaped(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }


    private static let jsonValueDeclaration = [
        "/// A value whose kind varied in the response.",
        "enum JSONValue: Decodable, Sendable {",
        "    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])",
        "",
        "    init(from decoder: any Decoder) throws {",
        "        let container = try decoder.singleValueContainer()",
        "        if container.decodeNil() { self = .null }",
        "        else if let value = try? container.decode(Bool.self) { self = .bool(value) }",
        "        else if let value = try? container.decode(Double.self) { self = .number(value) }",
        "        else if let value = try? container.decode(String.self) { self = .string(value) }",
        "        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }",
        "        else { self = .object(try container.decode([String: JSONValue].self)) }",
        "    }",
        "}",
    ]
}
