import APIScript
import Foundation
import Synchronization
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

    /// Whether its argument is a credential: a `Secret`, or a name that speaks of a password,
    /// token, key or secret. Such arguments print as `••••` in `:curl`, `:last`, errors and saved
    /// scripts, which read them from ``environmentVariable``.
    public var carriesSecret: Bool {
        scriptType.unwrapped == .secret || Redaction.isSecretHeader(name)
    }

    /// Where a saved script reads this argument from: `TYPIST_PASSWORD` for `password`.
    public var environmentVariable: String {
        "TYPIST_" + SecretNames.screamingSnakeCase(name)
    }
}

/// Names for the environment variables a saved session reads its secrets from.
enum SecretNames {
    /// `apiKey` → `API_KEY`, `X-Api-Key` → `X_API_KEY`.
    static func screamingSnakeCase(_ name: String) -> String {
        var result = ""
        var previous: Character?
        for character in name {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { result += "_" }
            result += character.isLetter || character.isNumber ? character.uppercased() : "_"
            previous = character
        }
        return result
    }
}

/// Everything the shell needs to run one call of a registered endpoint.
struct CallPlan: Sendable {
    /// The value a JSON body encodes, such as a `PostDraft` (for `:describe`).
    var body: (any Encodable & Sendable)?
    /// The key the response sits under, when it has an envelope (for `:describe`).
    var envelopeKey: String?
    /// The request the endpoint would send (built, not sent).
    var prepare: @Sendable (APIClient, SessionCredentials) throws -> PreparedRequest
    /// Sends it and returns the script value.
    var send: @Sendable (APIClient, SessionCredentials) async throws -> (value: Value, token: String?)
}

/// A response's shape, derived from its Swift type once, when first asked for: deriving every
/// endpoint's at start-up cost a quarter of `typist run`'s start, most of it the Swift runtime's
/// first conformance checks of each model.
final class ResponseShape: Sendable {
    private let made = Mutex<Result<ScriptType, RegistryError>?>(nil)
    private let derive: @Sendable () throws(RegistryError) -> ScriptType

    init(_ derive: @escaping @Sendable () throws(RegistryError) -> ScriptType) { self.derive = derive }

    /// Whether it has been derived.
    var isDerived: Bool { made.withLock { $0 != nil } }

    var derived: Result<ScriptType, RegistryError> {
        if let made = made.withLock({ $0 }) { return made }
        let result: Result<ScriptType, RegistryError>
        do throws(RegistryError) {
            result = .success(try derive())
        } catch {
            result = .failure(error)
        }
        made.withLock { $0 = result }
        return result
    }
}

/// A typed endpoint registered as a script function, with what help and `:describe` show.
public struct EndpointRegistration: Sendable {
    /// The script function's name.
    public let name: String
    /// A one-line summary.
    public let summary: String
    /// The group it is listed under (`:endpoints`).
    public internal(set) var group: String
    /// Its parameters.
    public let parameters: [ParameterInfo]
    /// The endpoint kind's name, such as `Bearer`.
    public let kindName: String
    /// The response's Swift type, such as `[Post]`.
    public let responseTypeName: String
    /// The response's shape, derived from the Swift type before any call — the first time it is
    /// asked for. `Any` when the type cannot be read (``shapeFailure`` says why).
    public var responseType: ScriptType { (try? shape.derived.get()) ?? .any }
    /// Why the response's shape could not be derived, if it could not.
    public var shapeFailure: RegistryError? {
        if case .failure(let error) = shape.derived { return error }
        return nil
    }
    let shape: ResponseShape
    /// Whether a successful call stores a token in the session.
    public let producesToken: Bool
    /// Where it was registered, for start-up errors.
    let location: String
    /// The registration's file path and line, for `:source`.
    let source: (path: String, line: Int)
    /// The modules its kind and response type come from (not Swift's or Foundation's), for the
    /// imports `:swift` writes.
    var modules: [String] = []
    let plan: @Sendable ([Value]) throws -> CallPlan

    /// `post(id: Int) -> Endpoint<Public, Post>`.
    public var swiftSignature: String {
        let list = parameters.map { parameter in
            let label = parameter.label.map { "\($0): " } ?? "_ \(parameter.name): "
            let defaultText = parameter.defaultValue.map { " = \(ValueFormatter.literal($0))" } ?? ""
            return label + parameter.swiftType + defaultText
        }.joined(separator: ", ")
        return "\(name)(\(list)) -> Endpoint<\(kindName), \(responseTypeName)>"
    }

    /// `post(id:)`.
    public var selector: String { Self.selector(name, labels: parameters.map(\.label)) }

    /// `name(label:_:)`: the one spelling of a function's selector, for messages.
    static func selector(_ name: String, labels: [String?]) -> String {
        "\(name)(\(labels.map { ($0 ?? "_") + ":" }.joined()))"
    }
}

/// The unusual parameter values used to find where each argument lands in a path or query.
enum ProbeValues {
    static func value(for type: ScriptType, index: Int) -> Value {
        switch type.unwrapped {
        case .int: .int(900_001 + index)
        case .double: .double(900_001.5 + Double(index))
        case .bool: .bool(true)
        default: .string("__probe\(index)__")
        }
    }
}

/// Conversions of script arguments in order, each failure pointing at its argument.
final class ArgumentReader {
    private let values: [Value]
    private var index = 0

    init(_ values: [Value]) { self.values = values }

    func next<T: ScriptArgument>(_ parameter: Parameter<T>) throws -> T {
        defer { index += 1 }
        let value = index < values.count ? values[index] : (parameter.defaultValue?.scriptValue ?? .null)
        do {
            return try T.fromScript(value)
        } catch {
            throw ArgumentError(index: index, message: error.message)
        }
    }
}
