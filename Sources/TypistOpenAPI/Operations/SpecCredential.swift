import TypedAPI
import TypistCore

/// A security scheme as an endpoint kind: what a call sends, from the session's credentials.
package enum SpecCredential: Sendable, Equatable {
    /// `security: []`, or no scheme: nothing.
    case none
    /// `http bearer`, `oauth2`, `openIdConnect`: `token` as `Authorization: Bearer`.
    case bearer
    /// `http basic`: `username` and `password`.
    case basic
    /// `apiKey`: `apiKey` in the header, query item or cookie the scheme names.
    case apiKey(name: String, placement: Placement)

    package enum Placement: String, Sendable { case header, query, cookie }

    /// The endpoint kind's name, as `:describe` and `Endpoint<Kind, Response>` show it.
    package var kindName: String {
        switch self {
        case .none: "Public"
        case .bearer: "Bearer"
        case .basic: "Basic"
        case .apiKey: "APIKey"
        }
    }

    /// Whether the session holds what it sends.
    package func isSatisfied(by credentials: SessionCredentials) -> Bool {
        switch self {
        case .none: true
        case .bearer: credentials.token.map { !$0.isEmpty } ?? false
        case .basic: credentials.username.map { !$0.isEmpty } ?? false && credentials.password != nil
        case .apiKey: credentials.apiKey.map { !$0.isEmpty } ?? false
        }
    }

    /// The first alternative the session can satisfy; the first of all when none (whose call then
    /// says what is missing, before anything is sent).
    package static func choose(_ alternatives: [SpecCredential], for credentials: SessionCredentials) -> SpecCredential {
        alternatives.first { $0.isSatisfied(by: credentials) } ?? alternatives.first ?? .none
    }

    /// A scheme from `components.securitySchemes` (or Swagger 2's `securityDefinitions`); nil for
    /// one Typist cannot send (mutual TLS, an unknown type).
    package init?(scheme: SpecNode) {
        switch scheme["type"]?.string?.lowercased() {
        case "http":
            switch scheme["scheme"]?.string?.lowercased() {
            case "bearer": self = .bearer
            case "basic": self = .basic
            default: return nil
            }
        case "basic": self = .basic
        case "oauth2", "openidconnect": self = .bearer
        case "apikey":
            guard let name = scheme["name"]?.string, !name.isEmpty,
                  let placement = Placement(rawValue: scheme["in"]?.string?.lowercased() ?? "header")
            else { return nil }
            self = .apiKey(name: name, placement: placement)
        default: return nil
        }
    }

    /// From `--default-auth`: `bearer`, `basic`, `apikey:header:NAME`, `apikey:query:NAME`,
    /// `apikey:cookie:NAME` (or `none`).
    package init?(option: String) {
        let parts = option.split(separator: ":", maxSplits: 2).map(String.init)
        switch parts.first?.lowercased() {
        case "bearer" where parts.count == 1: self = .bearer
        case "basic" where parts.count == 1: self = .basic
        case "none" where parts.count == 1, "public" where parts.count == 1: self = .none
        case "apikey" where parts.count == 3:
            guard let placement = Placement(rawValue: parts[1].lowercased()), !parts[2].isEmpty else { return nil }
            self = .apiKey(name: parts[2], placement: placement)
        default: return nil
        }
    }
}
