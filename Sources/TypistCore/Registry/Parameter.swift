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
                      enumeration: Value.cases.map {
                          HostEnumeration(typeName: SwiftTypeName.of(Value.self).replacingOccurrences(of: "?", with: ""), cases: $0)
                      })
    }
}
