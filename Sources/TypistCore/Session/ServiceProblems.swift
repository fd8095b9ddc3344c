import APIScript
import Foundation
import TypistText

/// What a service said was wrong with a request, read from an error answer's JSON body in the
/// shapes services write it:
///
/// - FastAPI and pydantic: `{"detail": [{"loc": ["query", "limit"], "msg": "…", "input": "0"}]}`;
/// - RFC 9457 problem details: `title`, `detail`, and `errors` (`[{"detail", "pointer"}]`) or
///   RFC 7807's `invalid-params` (`[{"name", "reason"}]`);
/// - JSON:API: `{"errors": [{"source": {"pointer": "/data/attributes/name"}, "detail": "…"}]}`;
/// - GitHub: `{"message": "Validation Failed", "errors": [{"field": "title", "code": "missing_field"}]}`;
/// - Google: `{"error": {"message", "details": [{"fieldViolations": [{"field", "description"}]}]}}`
///   and its older `error.errors: [{"location", "message"}]`;
/// - Rails, ASP.NET (`errors: {"name": ["…"]}`) and Django REST framework (the fields at the top,
///   nested serializers' fields inside theirs);
/// - marshmallow through webargs — flask-smorest (`errors`) and APIFlask (`detail`): the place, then
///   the fields, a list's items by index: `{"json": {"tags": {"0": ["Not a valid string."]}}}`;
/// - Litestar: `{"detail": "Validation failed …", "extra": [{"message", "key", "source"}]}`;
/// - Cornice (Kinto and other Pyramid services): `{"details": [{"location": "body", "name":
///   "permissions.read", "description": "…"}]}`, the place then the dotted name;
/// - a plain message: `detail`, `message`, `error` (a string, or an object with a `message`),
///   OAuth's `error_description`.
///
/// A body in none of these shapes — not JSON, or JSON that says nothing of the kind — reads as
/// nothing: the reading adds to the body shown, it never stands for it.
struct ServiceProblems: Equatable {
    /// One thing the service refused: where (its own path to the input, outermost first), and why.
    struct Problem: Equatable {
        /// The place as the service wrote it: `["query", "limit"]`, `["data", "attributes", "name"]`.
        var location: [String]
        var message: String
        /// The value the service says it got, when it quotes it (FastAPI's `input`) and it is a
        /// plain value (a number, a string), not the object around a missing field.
        var sent: Value?

        static func == (a: Problem, b: Problem) -> Bool {
            a.location == b.location && a.message == b.message && a.sent.map(Self.text) == b.sent.map(Self.text)
        }

        /// The sent value as JSON writes it.
        static func text(_ value: Value) -> String { JSONWriter.render(value, pretty: false) }
    }

    /// The service's summary (a problem's title and detail, a `message`), if it gave one.
    var message: String?
    var problems: [Problem]

    /// The reading of `body`, or nil when it says nothing in a shape above.
    static func read(_ body: Data) -> ServiceProblems? {
        // Not JSON at all (an HTML error page): not worth a parse.
        guard let first = body.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }), first == UInt8(ascii: "{"),
              case .dictionary(let root)? = try? JSONReader.parse(body)
        else { return nil }
        var problems = fastAPIProblems(root) ?? corniceProblems(root["details"]) ?? listedProblems(root["errors"]) ?? fieldProblems(root["errors"], strings: true)
            ?? fieldProblems(root["detail"], strings: true) ?? listedProblems(root["extra"])
            ?? invalidParameters(root["invalid-params"] ?? root["invalidParams"]) ?? googleProblems(root["error"]) ?? []
        let message = message(root)
        if problems.isEmpty, message == nil { problems = fieldProblems(.dictionary(root), strings: false) ?? [] }
        guard message != nil || !problems.isEmpty else { return nil }
        return ServiceProblems(message: message, problems: problems)
    }

    // MARK: Shapes

    /// FastAPI's `detail` list.
    private static func fastAPIProblems(_ root: [String: Value]) -> [Problem]? {
        guard case .array(let items)? = root["detail"] else { return nil }
        let problems = items.compactMap { item -> Problem? in
            guard case .dictionary(let entries) = item, let message = string(entries["msg"]) else { return nil }
            return Problem(location: components(entries["loc"]), message: message, sent: plain(entries["input"]))
        }
        return problems.isEmpty ? nil : problems
    }

    /// Cornice's `details`: each a `location` (`body`, `querystring`, `header`, `path`), a dotted
    /// `name` in it (null for the place as a whole) and a `description`.
    private static func corniceProblems(_ value: Value?) -> [Problem]? {
        guard case .array(let items)? = value else { return nil }
        let problems = items.compactMap { item -> Problem? in
            guard case .dictionary(let entries) = item, let place = string(entries["location"]),
                  let message = string(entries["description"]) else { return nil }
            return Problem(location: [place] + components(entries["name"]), message: message)
        }
        return problems.isEmpty ? nil : problems
    }

    /// A list of error objects (RFC 9457, JSON:API, GitHub, Google's older errors), or of strings.
    private static func listedProblems(_ value: Value?) -> [Problem]? {
        guard case .array(let items)? = value else { return nil }
        let problems = items.compactMap { item -> Problem? in
            if let text = string(item) { return Problem(location: [], message: text) }
            guard case .dictionary(let entries) = item else { return nil }
            var location: [String]
            if let pointer = string(entries["pointer"]) {
                location = pointerComponents(pointer)
            } else if case .dictionary(let source)? = entries["source"] {
                location = string(source["pointer"]).map(pointerComponents) ?? [string(source["parameter"]) ?? string(source["header"])].compactMap { $0 }
            } else {
                location = ["field", "location", "loc", "param", "name", "path", "key"].firstNonNil { entries[$0] }.map(components) ?? []
                // Litestar's `{"key": "limit", "source": "query"}`: the place first, as FastAPI writes it.
                if let place = string(entries["source"]), location.count == 1 { location.insert(place, at: 0) }
            }
            let said = ["detail", "message", "msg", "reason", "description", "title"].firstNonNil { string(entries[$0]) }
            // GitHub's `{"resource": "Issue", "field": "title", "code": "missing_field"}` says it with a code.
            guard let message = said ?? string(entries["code"]) else { return nil }
            return Problem(location: location, message: message)
        }
        return problems.isEmpty ? nil : problems
    }

    /// Fields and their messages, every entry one: `{"name": ["can't be blank"]}`, and with
    /// `strings` also `{"age": "must be a number"}` (not at the top of a body, where any object of
    /// strings would read as one). An object in a field's place holds its fields' messages (a
    /// nested serializer's, or marshmallow's places and list items: `{"json": {"tags": {"0": […]}}}`),
    /// a list of objects its items' (Django REST framework's, `{}` for an item it took). Django
    /// REST framework's `non_field_errors` and marshmallow's `_schema` belong to no field.
    private static func fieldProblems(_ value: Value?, strings: Bool, at location: [String] = []) -> [Problem]? {
        guard case .dictionary(let fields)? = value, !fields.isEmpty else { return nil }
        var problems: [Problem] = []
        for name in fields.keys.sorted() {
            // Flask-RESTX writes a nested field's path as one dotted key (`owner.name`).
            let place = ["non_field_errors", "__all__", "_schema"].contains(name) ? location
                : location + name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            switch fields[name] {
            case .string(let text)? where strings: problems.append(Problem(location: place, message: text))
            case .dictionary?:
                guard let inner = fieldProblems(fields[name], strings: strings, at: place) else { return nil }
                problems += inner
            case .array(let items)? where !items.isEmpty:
                for (index, item) in items.enumerated() {
                    if let text = string(item) {
                        problems.append(Problem(location: place, message: text))
                    } else if case .dictionary(let entries) = item {
                        if entries.isEmpty { continue }
                        guard let inner = fieldProblems(item, strings: strings, at: place + [String(index)]) else { return nil }
                        problems += inner
                    } else {
                        return nil
                    }
                }
            default: return nil
            }
        }
        return problems.isEmpty ? nil : problems
    }

    /// RFC 7807's `invalid-params`: `[{"name": "age", "reason": "must be a positive integer"}]`.
    private static func invalidParameters(_ value: Value?) -> [Problem]? {
        guard case .array(let items)? = value else { return nil }
        let problems = items.compactMap { item -> Problem? in
            guard case .dictionary(let entries) = item, let reason = string(entries["reason"]) else { return nil }
            return Problem(location: string(entries["name"]).map { [$0] } ?? [], message: reason)
        }
        return problems.isEmpty ? nil : problems
    }

    /// Google's `error`: `details[].fieldViolations`, or the older `errors`.
    private static func googleProblems(_ value: Value?) -> [Problem]? {
        guard case .dictionary(let error)? = value else { return nil }
        if case .array(let details)? = error["details"] {
            let problems = details.flatMap { detail -> [Problem] in
                guard case .dictionary(let entries) = detail, case .array(let violations)? = entries["fieldViolations"] else { return [] }
                return violations.compactMap { violation in
                    guard case .dictionary(let fields) = violation, let description = string(fields["description"]) else { return nil }
                    return Problem(location: string(fields["field"]).map { [$0] } ?? [], message: description)
                }
            }
            if !problems.isEmpty { return problems }
        }
        // The older errors all repeat the message when they have no location.
        return listedProblems(error["errors"])?.filter { !$0.location.isEmpty }.nilWhenEmpty
    }

    /// The service's summary: a problem's `title` and `detail`, `message`, `error` and OAuth's
    /// `error_description`, or Google's `error.message`.
    private static func message(_ root: [String: Value]) -> String? {
        let detail = string(root["detail"])
        if let title = string(root["title"]) { return detail.map { "\(title): \($0)" } ?? title }
        if let detail { return detail }
        if let message = string(root["message"]) { return message }
        if let error = string(root["error"]) { return string(root["error_description"]).map { "\(error): \($0)" } ?? error }
        if case .dictionary(let error)? = root["error"] { return string(error["message"]) }
        return nil
    }

    // MARK: Values

    private static func string(_ value: Value?) -> String? {
        guard case .string(let text)? = value, !text.isEmpty else { return nil }
        return text
    }

    /// `["query", "limit"]`, `["body", "tags", 0]`, or a dotted `"book.title"`.
    private static func components(_ value: Value?) -> [String] {
        switch value {
        case .array(let parts)?:
            return parts.compactMap { part in
                switch part {
                case .string(let text): text
                case .int(let number): String(number)
                default: nil
                }
            }
        case .string(let text)?: return text.split(separator: ".").map(String.init)
        default: return []
        }
    }

    /// A JSON pointer's parts (`#/data/attributes/first~1name` → data, attributes, first/name).
    private static func pointerComponents(_ pointer: String) -> [String] {
        let path = pointer.hasPrefix("#") ? pointer.dropFirst() : Substring(pointer)
        return path.split(separator: "/").map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
    }

    /// A value the service quotes, when it is a plain one.
    private static func plain(_ value: Value?) -> Value? {
        switch value {
        case .string?, .int?, .double?, .bool?: value
        default: nil
        }
    }
}

private extension Array {
    var nilWhenEmpty: Self? { isEmpty ? nil : self }
}
