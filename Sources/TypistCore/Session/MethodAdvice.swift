import TypedAPI
import TypistText

/// A call answered `405 Method Not Allowed`: the methods the service allows at that URL, from its
/// `Allow` header — a document or binding that names the wrong method, or a base URL that puts
/// the path somewhere else, shows as this.
enum MethodAdvice {
    /// The note for `error` when it is a 405; nil otherwise.
    static func note(for error: any Error) -> String? {
        guard case .unacceptableStatus(let request, let response)? = error as? APIError, response.status == 405 else { return nil }
        guard let allow = response.header(named: "allow") else {
            return "the service does not take \(request.method) at this URL, and says not what it takes (no Allow header)"
        }
        let methods = TerminalText.sanitized(allow.value)
        return "the service does not take \(request.method) at this URL; it allows \(methods.isEmpty ? "nothing" : methods) (\(allow.name))"
    }
}
