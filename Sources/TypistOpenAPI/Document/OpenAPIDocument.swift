import APIScript
import Foundation
import TypedAPI
import TypistCore
import TypistText

/// An OpenAPI document's operations as endpoints: one more source of registrations beside a
/// host's Swift ones.
///
/// ```swift
/// let document = try await OpenAPIDocument.load("petstore.yaml")
/// let registry = try EndpointRegistry {
///     document
///     Register("health", …)
/// }
/// ```
///
/// Each operation becomes a function named from its `operationId`, grouped by its first tag; its
/// path parameters are required arguments, its query and header parameters labelled ones with
/// their defaults, a small JSON body's fields labels too (a larger one `body:`). Its schemas
/// become record types the checker, completion and `:describe` know before any call, and its
/// security schemes the endpoint kinds (`Bearer`, `Basic`, `APIKey`, `Public`), checked before
/// anything is sent. OpenAPI 3.0 and 3.1 are read, and Swagger 2.0; YAML when the package's
/// `YAML` trait is on (the default), JSON always.
public struct OpenAPIDocument: RegistryContent {
    /// The document's `info.title`.
    public let title: String
    /// Where its servers are, first the default: `servers` (variables at their defaults), or
    /// Swagger 2.0's `schemes`, `host` and `basePath`. Relative URLs are resolved against the
    /// document's own URL when it was fetched.
    public let servers: [String]
    /// The servers as named environments for `:env` (named from their `description`, else their
    /// host), the default first.
    public let environments: [NamedEnvironment]
    /// What was read differently from the document or left out, one line each.
    public let warnings: [String]
    /// The record types its schemas make.
    public let recordTypes: [RecordType]
    let operations: [SpecOperation]
    /// What messages call it (its file name).
    let name: String
    /// Its text's FNV-1a 64-bit hash (`fnv1a64:…`): generated code says which document it came from.
    let hash: String

    /// What a document lowers to: all a session needs of it, and all a cache keeps.
    struct Contents: Sendable {
        /// The text's FNV-1a hash (``OpenAPIDocument/hash``), kept so that a cached document does
        /// not hash its text twice.
        var textHash: String
        var title: String
        var servers: [(url: String, description: String?)]
        var warnings: [String]
        var recordTypes: [RecordType]
        var operations: [SpecOperation]
    }

    /// Reads a document from its text.
    ///
    /// - Parameters:
    ///   - text: The document, YAML or JSON.
    ///   - name: What messages call it (its file name).
    ///   - baseURL: Where it came from, to resolve relative server URLs.
    ///   - defaultAuth: What operations send when the document declares no security at all:
    ///     `bearer`, `basic`, `apikey:header:NAME` (`query`, `cookie`); nil for nothing.
    ///   - cacheDirectory: Where lowered documents are kept by their content's hash, to be read
    ///     back in milliseconds the next time; nil for no cache.
    /// - Throws: An error that says why the document cannot be used.
    public init(text: String, name: String = "document", baseURL: URL? = nil, defaultAuth: String? = nil,
                cacheDirectory: URL? = nil) throws {
        try self.init(text: text, name: name, baseURL: baseURL, defaultAuth: defaultAuth, serverVariables: [:],
                      cacheDirectory: cacheDirectory)
    }

    /// Reads a document from its text, with values for its servers' variables.
    ///
    /// - Parameters:
    ///   - text: The document, YAML or JSON.
    ///   - name: What messages call it (its file name).
    ///   - baseURL: Where it came from, to resolve relative server URLs.
    ///   - defaultAuth: What operations send when the document declares no security at all (see
    ///     ``init(text:name:baseURL:defaultAuth:cacheDirectory:)``).
    ///   - serverVariables: Values for the variables of the document's server URLs
    ///     (`https://{hostname}/api/v3`), in place of their defaults; a value outside a variable's
    ///     `enum`, or a name no server has, is an error.
    ///   - cacheDirectory: Where lowered documents are kept by their content's hash; nil for no cache.
    /// - Throws: An error that says why the document cannot be used.
    public init(text: String, name: String = "document", baseURL: URL? = nil, defaultAuth: String? = nil,
                serverVariables: [String: String], cacheDirectory: URL? = nil) throws {
        var auth: SpecCredential?
        if let defaultAuth {
            guard let parsed = SpecCredential(option: defaultAuth) else {
                throw SpecError("--default-auth takes bearer, basic, none or apikey:header|query|cookie:NAME, not '\(TerminalText.sanitized(defaultAuth))'")
            }
            auth = parsed
        }
        let cache = cacheDirectory.map { DocumentCache(directory: $0) }
        // The cache key: SHA-256 of the text and of what else changes the result (a fast
        // non-cryptographic hash let two chosen documents share a key, and the second read back
        // the first's operations).
        let variables = serverVariables.keys.sorted().map { $0 + "=" + (serverVariables[$0] ?? "") }.joined(separator: "\u{0}")
        let key = cache == nil ? "" : SHA256Digest.hex(SHA256Digest.hex(text) + "\u{0}" + (defaultAuth ?? "") + "\u{0}"
                                                      + (baseURL?.absoluteString ?? "") + "\u{0}" + variables)
        let contents: Contents
        if let cached = cache?.read(key) {
            contents = cached
        } else {
            contents = try Self.lower(text, name: name, baseURL: baseURL, auth: auth, serverVariables: serverVariables)
            cache?.write(contents, key: key)
        }
        self.title = contents.title
        self.servers = contents.servers.map(\.url)
        self.environments = Self.environments(contents.servers)
        self.warnings = contents.warnings
        self.recordTypes = contents.recordTypes
        self.operations = contents.operations
        self.name = name
        self.hash = contents.textHash
    }

    /// `fnv1a64:` and the FNV-1a 64-bit hash of `text`, in hexadecimal.
    private static func hash(_ text: String) -> String {
        var fnv: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { fnv = (fnv ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(fnv, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Parses and reads a document.
    private static func lower(_ text: String, name: String, baseURL: URL?, auth: SpecCredential?,
                              serverVariables: [String: String]) throws -> Contents {
        let root = try SpecNode.parse(text, name: name)
        try Task.checkCancellation()
        guard case .object = root else { throw SpecError("not an OpenAPI document (its top level is not an object)") }
        let version = root["openapi"]?.string ?? root["swagger"]?.string
        guard let version else {
            throw SpecError("not an OpenAPI document: it has no 'openapi' or 'swagger' version")
        }
        guard version.hasPrefix("3.") || version.hasPrefix("2.") else {
            throw SpecError("it is OpenAPI \(TerminalText.sanitized(version)); Typist reads 3.0, 3.1 and Swagger 2.0")
        }
        var reader = OperationReader(document: root, defaultAuth: auth)
        var operations = try reader.operations()
        var warnings = reader.warnings + reader.types.warnings
        // A name used twice gets a number, and a warning: never a silent overwrite.
        var taken: [String: Int] = [:]
        for index in operations.indices {
            let base = operations[index].name
            if ScriptNames.problem(withHostName: base) != nil { operations[index].name = base + "Operation" }
            let name = operations[index].name
            if let count = taken[name] {
                var counter = count + 1
                while taken[name + String(counter)] != nil { counter += 1 }
                taken[name] = counter
                operations[index].name = name + String(counter)
                warnings.append("\(operations[index].location): '\(name)' is taken; this one is '\(operations[index].name)'")
            }
            taken[operations[index].name] = taken[operations[index].name] ?? 1
        }
        // A server Typist cannot send to (a variable without a default, not http(s)) is left out, said.
        var servers: [(url: String, description: String?)] = []
        for server in try Self.servers(of: root, baseURL: baseURL, variables: serverVariables) {
            if (try? ServerEnvironment(url: server.url)) != nil {
                servers.append(server)
            } else {
                warnings.append("the server '\(TerminalText.sanitized(server.url))' is not a URL Typist can send to: left out")
            }
        }
        return Contents(textHash: hash(text), title: (root["info"]?["title"]?.string).map(TerminalText.sanitized) ?? name,
                        servers: servers, warnings: Array(Set(warnings)).sorted(),
                        recordTypes: reader.types.records, operations: operations)
    }

    /// Reads a document from a file or an `http(s)` URL.
    ///
    /// - Parameters:
    ///   - location: A file path (`~` expanded) or an `http(s)` URL.
    ///   - defaultAuth: What operations send when the document declares no security (see
    ///     ``init(text:name:baseURL:defaultAuth:cacheDirectory:)``).
    ///   - cacheDirectory: Where lowered documents are kept; by default
    ///     `$XDG_CACHE_HOME/typist/openapi` (`~/.cache/typist/openapi`); nil for none.
    /// - Throws: An error that says why the document cannot be read or used.
    public static func load(_ location: String, defaultAuth: String? = nil,
                            cacheDirectory: URL? = defaultCacheDirectory) async throws -> OpenAPIDocument {
        try await load(location, defaultAuth: defaultAuth, serverVariables: [:], cacheDirectory: cacheDirectory)
    }

    /// Reads a document from a file or an `http(s)` URL, with values for its servers' variables
    /// (see ``init(text:name:baseURL:defaultAuth:serverVariables:cacheDirectory:)``); a URL is
    /// fetched with Foundation's URLSession (``load(_:defaultAuth:serverVariables:cacheDirectory:transport:tls:timeout:credential:)``
    /// takes the session's transport instead).
    public static func load(_ location: String, defaultAuth: String? = nil, serverVariables: [String: String],
                            cacheDirectory: URL? = defaultCacheDirectory) async throws -> OpenAPIDocument {
        try await load(location, defaultAuth: defaultAuth, serverVariables: serverVariables, cacheDirectory: cacheDirectory,
                       transport: URLSessionTransport())
    }

    /// Reads a document from a file or an `http(s)` URL, fetching a URL through `transport` — the
    /// session's, with its TLS options — within `timeout` for the whole exchange, whatever the
    /// server does (refuses, asks for credentials, trickles, sends too much): one error naming
    /// the URL, never a hang.
    ///
    /// - Parameters:
    ///   - location: A file path (`~` expanded) or an `http(s)` URL.
    ///   - defaultAuth: What operations send when the document declares no security.
    ///   - serverVariables: Values for the variables of its servers' URLs.
    ///   - cacheDirectory: Where lowered documents are kept; nil for none.
    ///   - transport: How the document is fetched.
    ///   - tls: The TLS options for its origin (a private CA, a client certificate).
    ///   - timeout: The time limit for fetching it.
    ///   - credential: What a URL is fetched with (its origin's credential), if anything; a
    ///     redirect to another origin goes without it.
    /// - Throws: An error that names the document and says why it cannot be fetched, read or used.
    public static func load(_ location: String, defaultAuth: String? = nil, serverVariables: [String: String] = [:],
                            cacheDirectory: URL? = defaultCacheDirectory, transport: any HTTPTransport, tls: TLSOptions = .system,
                            timeout: Duration = .seconds(60), credential: DocumentCredential? = nil) async throws -> OpenAPIDocument {
        let maximumBytes = 64 << 20
        if let url = URL(string: location), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            // As for every URL the shell is given: credentials in it are not sent (nor shown).
            guard url.user == nil, url.password == nil else {
                throw SpecError("credentials in the document's URL are not sent: send them with --openapi-auth (at the prompt, :openapi … --auth) instead")
            }
            let data = try await DocumentFetch.data(from: url, transport: transport, tls: tls, timeout: timeout, limit: maximumBytes,
                                                     credential: credential)
            guard let text = String(data: data, encoding: .utf8) else { throw SpecError("\(Self.shown(location)) is not UTF-8 text") }
            return try OpenAPIDocument(text: text, name: url.lastPathComponent.isEmpty ? location : url.lastPathComponent,
                                       baseURL: url, defaultAuth: defaultAuth, serverVariables: serverVariables,
                                       cacheDirectory: cacheDirectory)
        }
        let path = (location as NSString).expandingTildeInPath
        let text: String
        do {
            text = try ScriptFile.read(path, limit: maximumBytes, what: "a document")
        } catch {
            throw SpecError(String(describing: error))
        }
        return try OpenAPIDocument(text: text, name: (path as NSString).lastPathComponent, defaultAuth: defaultAuth,
                                   serverVariables: serverVariables, cacheDirectory: cacheDirectory)
    }

    /// Where ``load(_:defaultAuth:cacheDirectory:)`` keeps lowered documents unless told otherwise:
    /// `$XDG_CACHE_HOME/typist/openapi` (`~/.cache/typist/openapi`).
    public static var defaultCacheDirectory: URL? { DocumentCache.defaultDirectory() }

    /// The operations as registrations.
    public var registrations: [PendingRegistration] {
        operations.indices.map { SpecEndpoint.registration(operations[$0], document: self, adoptsRecordTypes: $0 == 0) }
    }

    /// A document's location for a message: control characters escaped, a URL's credentials masked.
    package static func shown(_ location: String) -> String {
        TerminalText.sanitized(URLParts.maskingUserinfo(location))
    }

    /// The number of operations.
    public var operationCount: Int { operations.count }

    /// Names for the servers: their descriptions as words (`Production API` → `production-api`),
    /// else their hosts; each once.
    private static func environments(_ servers: [(url: String, description: String?)]) -> [NamedEnvironment] {
        var taken: Set<String> = []
        return servers.map { server in
            let words = (server.description ?? "").lowercased().split { !($0.isLetter || $0.isNumber) }.prefix(4)
            var name = words.isEmpty ? (URL(string: server.url)?.host ?? "server") : words.joined(separator: "-")
            let base = name
            var counter = 2
            while taken.contains(name) {
                name = "\(base)-\(counter)"
                counter += 1
            }
            taken.insert(name)
            return NamedEnvironment(name: name, baseURL: server.url)
        }
    }

    /// The servers' URLs, their variables replaced by the values given, else their defaults.
    private static func servers(of root: SpecNode, baseURL: URL?, variables given: [String: String]) throws
        -> [(url: String, description: String?)]
    {
        let declared = Set((root["servers"]?.array ?? []).flatMap { ($0["variables"]?.entries ?? []).map(\.0) })
        for name in given.keys.sorted() where !declared.contains(name) {
            let known = declared.sorted().joined(separator: ", ")
            throw SpecError("--server-var \(TerminalText.sanitized(name)): the document's servers have no variable of that name"
                + (known.isEmpty ? " (they have none)" : " (they have: \(known))"))
        }
        var result: [(url: String, description: String?)] = []
        if root["swagger"] != nil {
            if let host = root["host"]?.string {
                let scheme = root["schemes"]?.array?.first?.string ?? baseURL?.scheme ?? "https"
                result.append(("\(scheme)://\(host)\(root["basePath"]?.string ?? "")", nil))
            } else if let baseURL, let origin = Self.origin(of: baseURL) {
                result.append((origin + (root["basePath"]?.string ?? ""), nil))
            }
            return result
        }
        for server in root["servers"]?.array ?? [] {
            guard var url = server["url"]?.string else { continue }
            for (name, variable) in server["variables"]?.entries ?? [] {
                let allowed = (variable["enum"]?.array ?? []).compactMap(\.string)
                if let value = given[name], !allowed.isEmpty, !allowed.contains(value) {
                    throw SpecError("--server-var \(TerminalText.sanitized(name))=\(TerminalText.sanitized(value)): the document allows "
                        + allowed.map(TerminalText.sanitized).joined(separator: ", "))
                }
                url = url.replacingOccurrences(of: "{\(name)}", with: given[name] ?? variable["default"]?.string ?? "")
            }
            // A relative URL is relative to where the document came from (OpenAPI 3's rule); an
            // empty one (Connexion writes `url: ""`) is the folder the document is in, not the
            // document itself as a link would have it.
            if !url.contains("://") {
                guard let baseURL, Self.origin(of: baseURL) != nil,
                      let resolved = URL(string: url.isEmpty ? "." : url, relativeTo: baseURL)?.absoluteString else { continue }
                url = resolved
            }
            if url.hasSuffix("/") { url.removeLast() }
            result.append((url, server["description"]?.string.map(TerminalText.sanitized)))
        }
        // No servers means one at `/`: the service that published the document (FastAPI's have none).
        if (root["servers"]?.array ?? []).isEmpty, let baseURL, let origin = Self.origin(of: baseURL) {
            result.append((origin, nil))
        }
        return result
    }

    private static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}
