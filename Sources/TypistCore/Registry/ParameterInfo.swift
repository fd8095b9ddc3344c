import APIScript
import Foundation
import TypedAPI

/// A parameter as the shell shows and checks it.
public struct ParameterInfo: Sendable {
    /// The label, or `nil` for a positional parameter.
    public var label: String?
    /// The name.
    public var name: String
    /// The Swift type, such as `Int` or `RepositorySort?`.
    public var swiftType: String
    /// The type scripts see.
    public var scriptType: ScriptType
    /// The default, if the argument may be left out.
    public var defaultValue: Value?
    /// The values it allows, when the type names them (a raw-value enum's cases).
    public var choices: [Value]?
    /// The enum it takes, when it takes one: its cases may be written `.stars`.
    public var enumeration: HostEnumeration?
    /// What its source allows beyond the type, in short (an OpenAPI document's `1...50`,
    /// `pattern ^[a-z]+$`), as `:describe` lists it.
    package var rules: String?
    /// Why its source rules out a value (see ``HostFunction/Parameter/rule``), or nil.
    package var rule: (@Sendable (Value) -> String?)?
    /// Why its source rules out every value of a static type (see ``HostFunction/Parameter/typeRule``), or nil.
    package var typeRule: (@Sendable (ScriptType) -> String?)?
    /// Whether a document makes it a credential, where one describes it; `nil` for a host's
    /// parameter, whose name decides (``carriesSecret``).
    package var isSecretByDocument: Bool?

    /// A parameter from another source than a Swift registration (an OpenAPI document).
    package init(label: String?, name: String, swiftType: String, scriptType: ScriptType, defaultValue: Value? = nil,
                 choices: [Value]? = nil, enumeration: HostEnumeration? = nil) {
        self.label = label
        self.name = name
        self.swiftType = swiftType
        self.scriptType = scriptType
        self.defaultValue = defaultValue
        self.choices = choices
        self.enumeration = enumeration
    }

    /// Its default as Swift writes it: an enum's case (`.unified`), else the value's literal; nil
    /// when it has none.
    package var defaultLiteral: String? {
        defaultValue.map { value in enumeration?.matching(value).map { "." + $0.name } ?? ValueFormatter.literal(value) }
    }

    /// Whether its argument is a credential: a `Secret`; for a host's parameter, a name that
    /// speaks of a password, token, key or secret; for a document's, what the document says
    /// (`format: password`, a security scheme's name, a password's or secret's name). Such
    /// arguments print as `••••` in `:curl`, `:last`, errors and saved scripts, which read them
    /// from ``environmentVariable``.
    public var carriesSecret: Bool {
        scriptType.unwrapped == .secret || (isSecretByDocument ?? Redaction.isSecretHeader(name))
    }

    /// Where a saved script reads this argument from: `TYPIST_PASSWORD` for `password`.
    public var environmentVariable: String {
        "TYPIST_" + SecretNames.screamingSnakeCase(name)
    }
}
