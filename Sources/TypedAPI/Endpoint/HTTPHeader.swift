import HTTPTypes

/// One header: its name as spelled and its value.
///
/// The one header record of TypedAPI: an endpoint's headers, a prepared request's, both sides of
/// an ``Exchange`` and a cassette's entries all hold `HTTPHeader`s, in order, duplicates kept.
/// (`HTTPFields` is what a transport speaks; ``HTTPHeader/list(_:)`` and
/// ``HTTPHeader/fields(_:)`` cross that line, in one place.)
///
/// ```swift
/// Endpoint<Public, [Post]>(path: "/posts", headers: [.accept(["application/json"])])
/// Endpoint<Public, Post>(path: "/posts/1").header(.custom(name: "X-Team", value: "blue"))
/// ```
public struct HTTPHeader: Sendable, Hashable {
    /// The field name, as spelled.
    public var name: String
    /// The field value.
    public var value: String

    /// A header by name and value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `Accept` with one or more media types, such as `application/json`.
    public static func accept(_ types: [String]) -> HTTPHeader {
        HTTPHeader(name: "Accept", value: types.joined(separator: ", "))
    }

    /// `Content-Type`, such as `application/json`.
    public static func contentType(_ type: String) -> HTTPHeader { HTTPHeader(name: "Content-Type", value: type) }

    /// `Authorization` with its full value, such as `Bearer abc`. Treated as a credential.
    public static func authorization(_ value: String) -> HTTPHeader { HTTPHeader(name: "Authorization", value: value) }

    /// `Content-Disposition`, such as `attachment; filename="a.txt"`.
    public static func contentDisposition(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Content-Disposition", value: value)
    }

    /// Any other header by name and value.
    public static func custom(name: String, value: String) -> HTTPHeader { HTTPHeader(name: name, value: value) }

    /// Whether this header is named `name` (names compare case-insensitively, as HTTP's ASCII
    /// tokens do; without making lower-cased copies, since requests compare names often).
    public func isNamed(_ name: String) -> Bool {
        guard self.name.utf8.count == name.utf8.count else { return false }
        for (mine, theirs) in zip(self.name.utf8, name.utf8) where mine != theirs {
            let folded = mine | 0x20
            guard folded == theirs | 0x20, folded >= UInt8(ascii: "a"), folded <= UInt8(ascii: "z") else { return false }
        }
        return true
    }

    /// The headers of `fields`, in order, names as spelled on the wire.
    public static func list(_ fields: HTTPFields) -> [HTTPHeader] {
        fields.map { HTTPHeader(name: $0.name.rawName, value: $0.value) }
    }

    /// `headers` as a transport sends them: those whose name is not a valid field name are left
    /// out (they could not be sent).
    public static func fields(_ headers: [HTTPHeader]) -> HTTPFields {
        var fields = HTTPFields()
        for header in headers {
            guard let name = HTTPField.Name(header.name) else { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        return fields
    }
}

extension Array where Element == HTTPHeader {
    /// The value of the last header named `name` (case-insensitively), if any.
    public func value(named name: String) -> String? {
        last { $0.isNamed(name) }?.value
    }
}
