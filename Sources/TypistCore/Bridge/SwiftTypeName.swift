import Foundation

/// Swift type names as a learner writes them: `[Post]`, `String?`, `[String: Int]`.
///
/// The one user of the standard library's `_typeName`, which `String(describing:)` and
/// `String(reflecting:)` would replace at a cost: they first ask the metatype for three protocol
/// conformances, milliseconds at start-up over every registered type.
package enum SwiftTypeName {
    /// The type's name without its module (`Post`, `Array<Post>`), as the runtime writes it.
    package static func unqualified(_ type: Any.Type) -> String { _typeName(type, qualified: false) }

    /// The type's name with its module (`DemoService.Post`), as the runtime writes it.
    package static func qualified(_ type: Any.Type) -> String { _typeName(type, qualified: true) }

    /// The type's name as Swift writes it (`[Post]`, `User?`). `_typeName` rather than
    /// `String(describing:)`, which first asks the metatype for three protocol conformances: at
    /// start-up, for every registered type, those lookups cost milliseconds.
    package static func of(_ type: Any.Type) -> String {
        sugar(unqualified(type))
    }

    private static func sugar(_ name: String) -> String {
        if name.hasPrefix("Array<"), name.hasSuffix(">") {
            return "[\(sugar(String(name.dropFirst(6).dropLast())))]"
        }
        if name.hasPrefix("Optional<"), name.hasSuffix(">") {
            return "\(sugar(String(name.dropFirst(9).dropLast())))?"
        }
        if name.hasPrefix("Dictionary<"), name.hasSuffix(">") {
            let inner = String(name.dropFirst(11).dropLast())
            if let comma = inner.firstIndex(of: ",") {
                return "[\(sugar(String(inner[..<comma]))): \(sugar(inner[inner.index(after: comma)...].trimmingCharacters(in: .whitespaces)))]"
            }
        }
        if name == "()" { return "Void" }
        return name
    }

    /// The modules named in the types' qualified names (`DemoService` for `[DemoService.Post]`),
    /// without the standard library, Foundation and TypedAPI.
    static func modules(of types: Any.Type...) -> [String] {
        var modules: [String] = []
        for type in types {
            let name = qualified(type)
            for token in name.split(whereSeparator: { "<>,[]:? ()".contains($0) }) {
                guard let module = token.split(separator: ".").first.map(String.init), token.contains("."),
                    !["Swift", "Foundation", "TypedAPI", "__C"].contains(module), !modules.contains(module)
                else { continue }
                modules.append(module)
            }
        }
        return modules
    }

    /// A case's name in Swift (`stars`), also when the enum describes itself in its own words.
    static func caseName(of value: some Any) -> String {
        if !(value is any CustomStringConvertible) { return String(describing: value) }
        // `Module.Type.case`, unless the enum also writes its own debug description.
        let reflected = String(reflecting: value)
        return reflected.split(separator: ".").last.map(String.init) ?? reflected
    }
}
