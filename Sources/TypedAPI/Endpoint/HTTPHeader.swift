/// One request header, with typed cases for the common ones.
public enum HTTPHeader: Sendable, Hashable {
    /// `Accept` with one or more media types, such as `application/json`.
    case accept([String])
    /// `Content-Type`, such as `application/json`.
    case contentType(String)
    /// `Authorization` with its full value, such as `Bearer abc`. Treated as a credential.
    case authorization(String)
    /// `Content-Disposition`, such as `attachment; filename="a.txt"`.
    case contentDisposition(String)
    /// Any other header by name and value.
    case custom(name: String, value: String)

    /// The header's field name.
    public var name: String {
        switch self {
        case .accept: "Accept"
        case .contentType: "Content-Type"
        case .authorization: "Authorization"
        case .contentDisposition: "Content-Disposition"
        case .custom(let name, _): name
        }
    }

    /// The header's field value.
    public var value: String {
        switch self {
        case .accept(let types): types.joined(separator: ", ")
        case .contentType(let type): type
        case .authorization(let value): value
        case .contentDisposition(let value): value
        case .custom(_, let value): value
        }
    }
}
