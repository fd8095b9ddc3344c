import TypedAPI

/// Typist's version, and the `User-Agent` it sends.
public enum TypistVersion {
    /// The version string.
    public static let current = "0.16.0"

    /// `reading/1.2 typist/0.16.0` for a host named `reading`; `typist/0.16.0` for typist itself.
    package static func userAgent(name: String, version: String) -> String {
        name == "typist" ? "typist/\(version)" : "\(name)/\(version) typist/\(current)"
    }

    /// `headers` with a `User-Agent` for `name` first, unless one is there: the one place it is added.
    package static func headers(_ headers: [HTTPHeader], withUserAgentOf name: String, version: String) -> [HTTPHeader] {
        if headers.contains(where: { $0.isNamed("User-Agent") }) { return headers }
        return [.custom(name: "User-Agent", value: userAgent(name: name, version: version))] + headers
    }
}
