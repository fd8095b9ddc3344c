import APIScript
import Foundation
import TypedAPI

/// `typist.json`: named environments (base URL and variables) and the default one.
///
/// ```json
/// { "default": "local",
///   "environments": { "local": { "baseURL": "http://127.0.0.1:8080", "variables": { "user": "ada" } } } }
/// ```
///
/// It is read from beside the script (for `run` and `check`) or the current directory (for the
/// prompt), else from `$XDG_CONFIG_HOME/typist/typist.json` (`~/.config/typist/typist.json`).
public struct ShellConfiguration: Sendable, Equatable {
    /// The environments, sorted by name.
    public var environments: [NamedEnvironment]
    /// The environment chosen when none is named.
    public var defaultEnvironment: String?
    /// Where it was read from.
    public var path: String?

    /// An empty configuration.
    public init(environments: [NamedEnvironment] = [], defaultEnvironment: String? = nil, path: String? = nil) {
        self.environments = environments
        self.defaultEnvironment = defaultEnvironment
        self.path = path
    }

    /// Finds and reads the configuration.
    ///
    /// - Parameters:
    ///   - directory: Where to look first (the script's directory, or the current one).
    ///   - environment: The process environment (for `XDG_CONFIG_HOME` and `HOME`).
    /// - Throws: A ``ConfigurationError`` naming the file and what is wrong in it.
    public static func load(near directory: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> ShellConfiguration
    {
        var candidates = [(directory as NSString).appendingPathComponent("typist.json")]
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            candidates.append((xdg as NSString).appendingPathComponent("typist/typist.json"))
        } else if let home = environment["HOME"] {
            candidates.append((home as NSString).appendingPathComponent(".config/typist/typist.json"))
        }
        for path in candidates where FileManager.default.fileExists(atPath: path) {
            return try parse(contentsOf: path)
        }
        return ShellConfiguration()
    }

    static func parse(contentsOf path: String) throws -> ShellConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(path: path, message: "cannot be read")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ConfigurationError(path: path, message: "is not valid JSON (\(error.localizedDescription))")
        }
        guard let root = object as? [String: Any] else {
            throw ConfigurationError(path: path, message: "must hold a JSON object")
        }
        // Variable values read again with their JSON kinds, which JSONSerialization blurs (`true` is 1).
        let typed = try? JSONDecoder().decode(VariableValues.self, from: data)
        var environments: [NamedEnvironment] = []
        if let entries = root["environments"] {
            guard let table = entries as? [String: Any] else {
                throw ConfigurationError(path: path, message: "'environments' must be an object of named environments")
            }
            for (name, entry) in table {
                guard let fields = entry as? [String: Any], let baseURL = fields["baseURL"] as? String else {
                    throw ConfigurationError(path: path, message: "environment '\(name)' needs a \"baseURL\" string")
                }
                var variables: [String: String] = [:]
                var values: [String: Value] = [:]
                if let given = fields["variables"] {
                    guard let table = given as? [String: Any] else {
                        throw ConfigurationError(path: path, message: "environment '\(name)': 'variables' must be an object")
                    }
                    // Every variable that cannot be one is named, not only the first.
                    var refused: [String] = []
                    for key in table.keys.sorted() {
                        guard let value = typed?.environments?[name]?.variables?[key] else {
                            refused.append("'\(key)' cannot be read")
                            continue
                        }
                        guard let text = value.text, let typedValue = value.value else {
                            refused.append("'\(key)' is \(value.kind)")
                            continue
                        }
                        variables[key] = text
                        values[key] = typedValue
                    }
                    if !refused.isEmpty {
                        throw ConfigurationError(path: path, message: "environment '\(name)': variable \(refused.joined(separator: ", variable ")); "
                            + "give each a string, number or true/false")
                    }
                }
                let tls = try fields["tls"].map { try tlsOptions($0, environment: name, path: path) } ?? .system
                var environment = NamedEnvironment(name: name, baseURL: baseURL, variables: variables, tls: tls)
                environment.values = values
                environments.append(environment)
            }
        }
        if let value = root["default"], !(value is String) {
            throw ConfigurationError(path: path, message: "'default' must be the name of an environment, as a string")
        }
        let defaultName = root["default"] as? String
        if let defaultName, !environments.contains(where: { $0.name == defaultName }) {
            throw ConfigurationError(path: path, message: "the default environment '\(defaultName)' is not defined")
        }
        return ShellConfiguration(environments: environments.sorted { $0.name < $1.name },
                                  defaultEnvironment: defaultName, path: path)
    }
}

extension ShellConfiguration {
    /// The keys of an environment's `"tls"` object.
    static let tlsKeys = ["caBundle", "clientCertificate", "clientKey", "insecure"]

    /// An environment's `"tls"`: `{"caBundle": "ca.pem", "clientCertificate": "me.pem",
    /// "clientKey": "me.key", "insecure": false}`, each optional; a relative path is relative to
    /// the file's own directory.
    static func tlsOptions(_ entry: Any, environment name: String, path: String) throws -> TLSOptions {
        guard let table = entry as? [String: Any] else {
            throw ConfigurationError(path: path, message: "environment '\(name)': 'tls' must be an object with \(tlsKeys.joined(separator: ", "))")
        }
        if let unknown = table.keys.sorted().first(where: { !tlsKeys.contains($0) }) {
            throw ConfigurationError(path: path, message: "environment '\(name)': 'tls' has no setting '\(unknown)'; it takes \(tlsKeys.joined(separator: ", "))")
        }
        let folder = (path as NSString).deletingLastPathComponent
        func file(_ key: String) throws -> String? {
            guard let value = table[key] else { return nil }
            guard let text = value as? String, !text.isEmpty else {
                throw ConfigurationError(path: path, message: "environment '\(name)': tls '\(key)' must be the path of a PEM file, as a string")
            }
            let expanded = (text as NSString).expandingTildeInPath
            return expanded.hasPrefix("/") ? expanded : (folder as NSString).appendingPathComponent(expanded)
        }
        var insecure = false
        if table["insecure"] != nil {
            // Read again with JSONDecoder: JSONSerialization reads `1` as true too, and only a
            // JSON boolean counts.
            struct Flag: Decodable { let insecure: Bool }
            guard let data = try? JSONSerialization.data(withJSONObject: table),
                  let flag = try? JSONDecoder().decode(Flag.self, from: data) else {
                throw ConfigurationError(path: path, message: "environment '\(name)': tls 'insecure' must be true or false")
            }
            insecure = flag.insecure
        }
        return TLSOptions(certificateAuthorities: try file("caBundle"), clientCertificate: try file("clientCertificate"),
                          clientKey: try file("clientKey"), verifiesServer: !insecure)
    }
}

/// A configuration file that cannot be used.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong.
    public var message: String

    /// The message with the file.
    public var description: String { "\(path): \(message)" }
}

/// The `variables` of each environment in `typist.json`, with their JSON kinds.
private struct VariableValues: Decodable {
    struct Entry: Decodable { let variables: [String: Scalar]? }
    let environments: [String: Entry]?

    /// A variable's JSON value.
    enum Scalar: Decodable {
        case string(String), bool(Bool), int(Int), double(Double), null, other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let text = try? container.decode(String.self) { self = .string(text) }
            else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
            else if let number = try? container.decode(Int.self) { self = .int(number) }
            else if let number = try? container.decode(Double.self) { self = .double(number) }
            else { self = .other }
        }

        /// The text the variable holds: numbers and `true`/`false` as JSON writes them.
        var text: String? {
            switch self {
            case .string(let text): text
            case .bool(let flag): flag ? "true" : "false"
            case .int(let number): String(number)
            case .double(let number): String(number)
            case .null, .other: nil
            }
        }

        /// The value with its JSON type: a number an `Int` (or a `Double`), `true` a `Bool`.
        var value: Value? {
            switch self {
            case .string(let text): .string(text)
            case .bool(let flag): .bool(flag)
            case .int(let number): .int(number)
            case .double(let number): .double(number)
            case .null, .other: nil
            }
        }

        var kind: String { if case .null = self { "null" } else { "an array or object" } }
    }
}
