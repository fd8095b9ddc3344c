/// What `:help` says of the language's own functions, methods and properties — read from the
/// same tables the checker and the runtime use, so help cannot drift from behaviour.
package enum BuiltinHelp {
    /// Help on `name`: the built-in function of that name, every method of that name (with the
    /// kinds of value it works on and an example) and the property of that name; `nil` when the
    /// language has none of these.
    public static func text(for name: String) -> String? {
        var parts: [String] = []
        if let function = BuiltinFunction(rawValue: name) { parts.append(function.summary) }
        if let property = Property(rawValue: name) { parts.append(property.help) }
        parts += BuiltinMethod.named(name).map(\.help)
        return parts.isEmpty ? nil : parts.joined(separator: "\n")
    }

    /// Every name that has built-in help, each once: functions, properties, then methods.
    public static var topics: [String] {
        var seen = Set<String>()
        let names = BuiltinFunction.allCases.map(\.rawValue) + Property.allCases.map(\.rawValue) + BuiltinMethod.all.map(\.name)
        return names.filter { seen.insert($0).inserted }
    }

    /// The members a type's values have, as `:help String` lists them: its properties, then its
    /// methods, from the tables the checker uses; `nil` for a type with none (`Int`, a model).
    public static func members(ofType name: String) -> String? {
        let types: [String: Receivers] = ["String": .string, "Array": .array, "Dictionary": .dictionary, "Range": .range,
                                          "Bytes": .bytes, "AsyncThrowingStream": .stream, "Secret": .string]
        guard let kind = types[name] else { return nil }
        let properties = Property.allCases.filter { $0.receivers.contains(kind) }.map(\.rawValue)
        let methods = BuiltinMethod.names(on: kind).filter { !properties.contains($0) }
        var lines: [String] = []
        if !properties.isEmpty { lines.append("  properties: " + properties.joined(separator: ", ")) }
        // `lowercased()` takes nothing; `prefix(…)` takes something, in one of its forms at least.
        let table = kind == .stream ? BuiltinMethod.streams : BuiltinMethod.all
        func spelled(_ name: String) -> String {
            let takesNothing = table.filter { $0.name == name && $0.receivers.contains(kind) }
                .allSatisfy { $0.declaration.hasPrefix(name + "()") }
            return name + (takesNothing ? "()" : "(…)")
        }
        if !methods.isEmpty { lines.append("  methods: " + methods.map(spelled).joined(separator: ", ")) }
        lines.append("  :help NAME tells more of one (:help \(methods.first ?? properties.first ?? "count"))")
        return lines.joined(separator: "\n")
    }

    /// The stream methods: those that give a stream back (`prefix`, `map`), and those that read
    /// items until they know their answer (`first(where:)`), as `:help streams` names them.
    public static var streamMethods: (narrowing: [String], consuming: [String]) {
        var narrowing: [String] = [], consuming: [String] = []
        var seen = Set<String>()
        for method in BuiltinMethod.streams where method.receivers.contains(.stream) && seen.insert(method.name).inserted {
            if method.declaration.contains("-> AsyncThrowingStream") { narrowing.append(method.name) } else { consuming.append(method.name) }
        }
        return (narrowing, consuming)
    }
}
