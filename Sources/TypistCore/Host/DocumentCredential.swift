import TypedAPI

/// A credential sent with the request for an API document (`--openapi-auth`, `:openapi … --auth`),
/// to the document's origin only: a redirect to another origin goes without it.
///
/// Many services (Kinto, most gateways) want the same credential for their document as for their
/// calls. It is sent as the typed client sends every credential: masked wherever it is shown or
/// recorded.
public enum DocumentCredential: Sendable, Hashable, CustomStringConvertible {
    /// `Authorization: Bearer <token>`.
    case bearer(AccessToken)
    /// `Authorization: Basic …` (RFC 7617).
    case basic(BasicCredentials)
    /// An API key in a header or a query item.
    case apiKey(APIKeyCredential)

    /// Which it is, the secret masked: `bearer ••••`, `basic ada:••••`, `apikey header X-API-Key: ••••`.
    public var description: String {
        switch self {
        case .bearer(let token): "bearer \(token)"
        case .basic(let credentials): "basic \(credentials)"
        case .apiKey(let key): "apikey \(key.placement == .header ? "header" : "query") \(key)"
        }
    }

    /// The kinds `--openapi-auth` and `:openapi … --auth` take, for messages.
    package static let spellings = "bearer, basic:USER, apikey:header:NAME or apikey:query:NAME"

    /// Reads a kind (`bearer`, `basic:USER` — `basic` alone where `username` gives the user —,
    /// `apikey:header:NAME`, `apikey:query:NAME`) with its secret from `secrets`: the token, the
    /// password or the API key, each looked up by the name it is known by.
    ///
    /// - Parameters:
    ///   - kind: The kind as written.
    ///   - username: The user name when the kind names none (the session's).
    ///   - secret: The secret by its session name (`token`, `password`, `apiKey`); nil or empty
    ///     when there is none.
    ///   - missing: What to say when the secret is missing, given its session name.
    /// - Throws: A ``DocumentCredentialError`` naming what is wrong.
    package static func parse(_ kind: String, username: String? = nil, secret: (String) -> String?,
                              missing: (String) -> String) throws(DocumentCredentialError) -> DocumentCredential {
        func required(_ name: String) throws(DocumentCredentialError) -> String {
            guard let value = secret(name), !value.isEmpty else { throw DocumentCredentialError(missing(name)) }
            return value
        }
        let parts = kind.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch parts.first?.lowercased() {
        case "bearer" where parts.count == 1:
            return .bearer(AccessToken(try required("token")))
        case "basic":
            let user = parts.count > 1 ? parts.dropFirst().joined(separator: ":") : (username ?? "")
            guard !user.isEmpty else {
                throw DocumentCredentialError("basic needs a user name: basic:USER")
            }
            guard !user.contains(":") else { throw DocumentCredentialError("a user name for Basic authentication cannot contain ':'") }
            return .basic(BasicCredentials(username: user, password: try required("password")))
        case "apikey" where parts.count == 3 && !parts[2].isEmpty && ["header", "query"].contains(parts[1].lowercased()):
            return .apiKey(APIKeyCredential(name: parts[2], value: try required("apiKey"),
                                            placement: parts[1].lowercased() == "header" ? .header : .query))
        default:
            throw DocumentCredentialError("'\(kind)' is not a credential kind: write \(spellings)")
        }
    }
}

/// Why a document credential cannot be made.
package struct DocumentCredentialError: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
