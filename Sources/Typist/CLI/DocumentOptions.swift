import ArgumentParser
import Foundation
import TypedAPI
import TypistCore

/// How an OpenAPI document is fetched and what its operations send: the options every command that
/// reads a document takes (the prompt, `run`, `check`, `generate`, `cassette verify`).
package struct DocumentOptions: ParsableArguments {
    package init() {}

    @Option(name: .customLong("openapi-auth"),
            help: ArgumentHelp("Fetch a document URL (--openapi) with a credential from the environment, sent to its origin only: bearer ($TYPIST_TOKEN), basic:USER ($TYPIST_PASSWORD), apikey:header:NAME or apikey:query:NAME ($TYPIST_API_KEY).",
                               valueName: "kind"))
    package var openAPIAuth: String?

    /// What `--openapi-auth` sends, its secret read from the environment (never from the command
    /// line, where `ps` shows it); nil without the option.
    package func documentCredential(environment: [String: String]) throws -> DocumentCredential? {
        guard let kind = openAPIAuth else { return nil }
        let variables = ["token": "TYPIST_TOKEN", "password": "TYPIST_PASSWORD", "apiKey": "TYPIST_API_KEY"]
        do {
            return try DocumentCredential.parse(kind, secret: { variables[$0].flatMap { environment[$0] } }, missing: { name in
                "\(kind) sends $\(variables[name] ?? name), which is not set: export it first"
            })
        } catch {
            throw ValidationError("--openapi-auth: \(error)")
        }
    }

    @Option(name: .customLong("default-auth"),
            help: ArgumentHelp("What a document's operations send when it declares no security: bearer (token), basic (username and password), apikey:header:NAME, apikey:query:NAME or apikey:cookie:NAME (apiKey).",
                               valueName: "kind"))
    package var defaultAuth: String?

    @Option(name: .customLong("server-var"),
            help: ArgumentHelp("A value for a variable of the document's server URLs (https://{hostname}/api/v3): --server-var hostname=github.example.com (repeatable).",
                               valueName: "name=value"))
    package var serverVariables: [String] = []

    /// `--server-var`s as a dictionary; one without `=` is an error that says how to write it.
    package func serverVariableValues() throws -> [String: String] {
        try Self.nameValuePairs(serverVariables, option: "--server-var")
    }

    /// `name=value` words as a dictionary (see ``TypistCore/NameValuePairs``), a malformed one a usage error.
    package static func nameValuePairs(_ words: [String], option: String) throws -> [String: String] {
        do {
            return try NameValuePairs.parse(words, option: option)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Whether none of these options was given.
    package var isEmpty: Bool { openAPIAuth == nil && defaultAuth == nil && serverVariables.isEmpty }
}
