import APIScript
import Foundation
import TypedAPI
import TypistCore
import TypistText

/// A GraphQL answer read as the operation's result: `data` typed from the selection set, or the
/// service's `errors` — each with its path — as one error that says where the partial data is.
enum GraphQLResponse {
    /// The typed `data` of a body.
    ///
    /// - Parameters:
    ///   - operation: The function's name, for messages.
    static func value(of body: Data, type: ScriptType, operation: String) throws -> Value {
        let json: Value
        do throws(JSONReader.Failure) {
            json = try JSONReader.parse(body)
        } catch {
            let start = TerminalText.sanitized(String(decoding: body.prefix(60), as: UTF8.self))
            throw GraphQLResponseError(operation: operation, message: "the answer is not JSON (\(error)): it starts '\(start)'"
                + (body.count > 60 ? "…" : "") + "; response.body shows all of it", errors: [])
        }
        guard case .dictionary(let entries) = json else {
            throw GraphQLResponseError(operation: operation, message: "the answer is JSON but not a GraphQL response (an object with data or errors); response.body shows it", errors: [])
        }
        if let errors = errorList(entries["errors"]), !errors.isEmpty {
            let hasData = entries["data"].map { $0 != .null } ?? false
            throw GraphQLResponseError(
                operation: operation,
                message: "the service answered with \(errors.count) GraphQL error\(errors.count == 1 ? "" : "s")"
                    + (hasData ? "; the partial data is json(response!.body).data" : " and no data"),
                errors: errors)
        }
        guard let data = entries["data"], data != .null else {
            throw GraphQLResponseError(operation: operation, message: "the answer has neither data nor errors; response.body shows it", errors: [])
        }
        do throws(ModelConformance.Departure) {
            return try ModelConformance.conform(data, to: type)
        } catch {
            let path = error.path.replacingOccurrences(of: "$.", with: "")
            let reason = error.reason.contains("null")
                ? "the service sent null at \(path), where the schema's type is non-null (\(error.reason))"
                : "the data departs from the selection's type at \(path): \(error.reason)"
            throw GraphQLResponseError(operation: operation, message: reason + "; json(response!.body).data shows it as it came", errors: [])
        }
    }

    /// The errors of an answer refused with a 4xx status, when its body is GraphQL's.
    static func errors(inRefusal body: Data) -> [GraphQLResponseError.Item]? {
        guard case .dictionary(let entries)? = try? JSONReader.parse(body) else { return nil }
        return errorList(entries["errors"])
    }

    private static func errorList(_ value: Value?) -> [GraphQLResponseError.Item]? {
        guard case .array(let list)? = value else { return nil }
        return list.map { error in
            guard case .dictionary(let fields) = error else { return .init(path: nil, message: ValueFormatter.literal(error)) }
            let message = if case .string(let text)? = fields["message"] { text } else { ValueFormatter.literal(error) }
            var path: String?
            if case .array(let steps)? = fields["path"] {
                path = steps.reduce(into: "") { text, step in
                    switch step {
                    case .int(let index): text += "[\(index)]"
                    case .string(let key): text += text.isEmpty ? key : "." + key
                    default: text += "." + ValueFormatter.literal(step)
                    }
                }
            }
            return .init(path: path, message: message)
        }
    }
}

/// A GraphQL answer that is not the operation's data: the service's errors, each with its path.
struct GraphQLResponseError: Error, CustomStringConvertible {
    struct Item: Sendable {
        /// `repository.issues.nodes[0].author`, when the error names a path.
        var path: String?
        var message: String
    }

    var operation: String
    var message: String
    var errors: [Item]

    var description: String {
        var text = "\(operation): \(message)"
        for error in errors.prefix(20) {
            text += "\n  " + (error.path.map { "at \($0): " } ?? "") + TerminalText.sanitized(error.message)
        }
        if errors.count > 20 { text += "\n  … and \(errors.count - 20) more (response.body has them all)" }
        return text
    }
}
