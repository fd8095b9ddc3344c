import APIScript
import Foundation
import TypedAPI

/// One parameter of a registered endpoint function.
public struct Parameter<Value: ScriptArgument>: Sendable {
    let label: String?
    let name: String
    let defaultValue: Value?

    /// A labeled parameter, as in `post(id: 1)`.
    ///
    /// - Parameters:
    ///   - label: The argument label.
    ///   - defaultValue: The value used when the argument is left out.
    public init(_ label: String, default defaultValue: Value? = nil) {
        self.label = label
        self.name = label
        self.defaultValue = defaultValue
    }

    /// An unlabeled parameter, given positionally: `echo("x")`.
    public static func unlabeled(_ name: String, default defaultValue: Value? = nil) -> Parameter {
        Parameter(label: nil, name: name, defaultValue: defaultValue)
    }

    private init(label: String?, name: String, defaultValue: Value?) {
        self.label = label
        self.name = name
        self.defaultValue = defaultValue
    }

    var info: ParameterInfo {
        ParameterInfo(label: label, name: name, swiftType: SwiftTypeName.of(Value.self), scriptType: Value.scriptType,
                      defaultValue: defaultValue.map(\.scriptValue) ?? (Value.scriptType.isOptional ? .null : nil),
                      choices: Value.choices,
                      enumeration: Value.cases.map { HostEnumeration(typeName: Self.enumerationName, cases: $0) })
    }

    /// The enum's own name: `RepositorySort` for `RepositorySort?`, and for `[IssueState]?` or
    /// `Set<IssueState>`, whose elements take its cases.
    private static var enumerationName: String {
        var name = SwiftTypeName.of(Value.self).replacingOccurrences(of: "?", with: "")
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasPrefix("Set<"), name.hasSuffix(">") { name = String(name.dropFirst(4).dropLast()) }
        return name
    }
}
