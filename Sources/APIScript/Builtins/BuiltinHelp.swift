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
}
