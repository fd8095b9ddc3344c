/// Swift names for things named otherwise: properties from JSON keys (`full_name` → `fullName`),
/// types from keys (`owner` → `Owner`), an array's element from its key (`items` → `item`).
package enum SwiftNames {
    /// Words of a key: split at anything not a letter or digit and at lower-to-upper changes.
    package static func words(_ key: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        // Only ASCII letters and digits make words: by their bytes (Unicode's character
        // properties cost a table lookup each, a tenth of loading a large OpenAPI document).
        for byte in key.utf8 {
            let isUpper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            let isLower = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            guard isUpper || isLower || isDigit else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousWasLower = false
                continue
            }
            if isUpper, previousWasLower, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.unicodeScalars.append(Unicode.Scalar(byte))
            previousWasLower = isLower || isDigit
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// A property name for a key: `full_name` → `fullName`, `URLValue` → `urlValue`, `2fa` → `_2fa`.
    package static func property(_ key: String) -> String {
        let parts = words(key)
        guard let first = parts.first else { return "value" }
        var name = first.prefix(1).lowercased() + (first.allSatisfy { $0.isUppercase || $0.isNumber } ? first.dropFirst().lowercased() : String(first.dropFirst()))
        for part in parts.dropFirst() { name += part.prefix(1).uppercased() + part.dropFirst() }
        if let leading = name.first, leading.isNumber { name = "_" + name }
        return name
    }

    /// A type name for a key: `owner` → `Owner`, `2fa` → `Item_2fa`.
    package static func type(_ key: String) -> String {
        let property = property(key)
        guard let first = property.first, first != "_" else { return "Item" + property }
        return first.uppercased() + property.dropFirst()
    }

    /// The key an array's element is named by: `categories` → `category`, `status` → `statu`,
    /// `data` → `dataItem`.
    package static func singular(_ key: String) -> String {
        if key.hasSuffix("ies"), key.count > 3 { return String(key.dropLast(3)) + "y" }
        if key.hasSuffix("sses") { return String(key.dropLast(2)) }
        if key.hasSuffix("s"), !key.hasSuffix("ss"), key.count > 1 { return String(key.dropLast()) }
        return key + "Item"
    }

    /// `base`, or `base` with a number (`Owner2`) when `taken` has it or Swift reserves it; added
    /// to `taken`. An empty base is `Model`.
    package static func uniqueType(_ base: String, taken: inout Set<String>) -> String {
        let base = base.isEmpty ? "Model" : base
        var name = base
        var counter = 2
        while taken.contains(name) || reservedTypes.contains(name) {
            name = base + String(counter)
            counter += 1
        }
        taken.insert(name)
        return name
    }

    /// Type names a declared type may not take: the standard ones a model uses, and `JSONValue`.
    package static let reservedTypes: Set<String> = [
        "String", "Int", "Double", "Bool", "JSONValue", "Data", "Date", "URL", "UUID", "Decodable", "Sendable",
        "CodingKeys", "Self", "Type", "Protocol", "Any",
    ]

    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "catch",
        "false", "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try", "Any", "await", "async",
    ]

    /// The name as it must be written in a declaration: a keyword in backticks.
    package static func escaped(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }
}
