import Foundation
import APIScript
import TypedAPI

/// Where an answer says its next page is, in one of the ways real services say it.
///
/// - A URL: a `Link: <…>; rel="next"` header (RFC 8288: GitHub), a `Next-Page` or `X-Next-Page`
///   header (Kinto), or a field beside the items — `next`, `next_url`, `nextUrl`, `nextLink`,
///   `@odata.nextLink`, or `next` under `links`, `_links` (HAL's `href`), `meta`, `paging` or
///   `pagination`.
/// - A cursor for the same request: `next_cursor` or `nextCursor` (sent as `cursor`),
///   `nextPageToken` (as `pageToken`, as Google's APIs page), `next_page_token` (as `page_token`),
///   beside the items or under `meta`, `response_metadata`, `pagination` or `paging`; a page
///   number in `X-Next-Page` (GitLab) is sent as `page`.
enum PageHint: Equatable, Sendable {
    /// A URL, absolute or relative to the request.
    case link(String)
    /// The same request with the query parameter `name` set to `value`.
    case query(name: String, value: String)
    /// A Relay connection's `endCursor`: the same GraphQL operation with the variable its
    /// connection's `after:` takes set to it.
    case cursor(String)

    /// Where a URL field may stand: beside the items, or as `next` under one of ``containers``.
    static let linkKeys = ["next", "next_url", "nextUrl", "nextPageUrl", "next_page_url", "nextLink", "@odata.nextLink"]
    /// Objects that hold a `next` link or a cursor.
    static let containers = ["links", "_links", "meta", "paging", "pagination", "response_metadata"]
    /// A cursor's field, and the query parameter that sends it back.
    static let cursorKeys: [(field: String, parameter: String)] = [
        ("next_cursor", "cursor"), ("nextCursor", "cursor"), ("nextPageToken", "pageToken"), ("next_page_token", "page_token"),
    ]
    /// Flags that say more pages exist, whether or not the answer says where.
    static let moreKeys = ["has_more", "hasMore", "has_next", "hasNext", "hasNextPage", "has_next_page", "more", "moreResults"]

    /// The hint in a page's headers: `Link`'s `rel="next"`, else `Next-Page` or `X-Next-Page`.
    static func inHeaders(_ headers: [HTTPHeader]) -> PageHint? {
        func values(_ name: String) -> [String] { headers.filter { $0.isNamed(name) }.map(\.value) }
        if let next = Self.next(inLinkHeader: values("link").joined(separator: ", ")) { return .link(next) }
        for name in ["next-page", "x-next-page"] {
            guard let value = values(name).last?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { continue }
            // GitLab's `X-Next-Page: 3` is a page number; Kinto's `Next-Page` a URL.
            return Int(value) != nil ? .query(name: "page", value: value) : .link(value)
        }
        return nil
    }

    /// The hint in a page's body, and whether it says more pages exist (`has_more: true`) —
    /// which, without a hint, is a next page `pages { … }` cannot follow.
    static func inBody(_ value: Value) -> (hint: PageHint?, saysMore: String?) {
        var places = [value]
        for container in containers {
            if let inner = member(container, of: value) { places.append(inner) }
        }
        for place in places {
            for key in linkKeys {
                if let link = linkText(member(key, of: place)) { return (.link(link), nil) }
            }
        }
        for place in places {
            for (field, parameter) in cursorKeys {
                // Slack ends with an empty cursor; a null one is the end too.
                if case .string(let cursor)? = member(field, of: place), !cursor.isEmpty { return (.query(name: parameter, value: cursor), nil) }
            }
        }
        for place in places {
            for key in moreKeys {
                if case .bool(true)? = member(key, of: place) { return (nil, "\(key): true") }
            }
        }
        return (nil, nil)
    }

    /// A link's text: a string, or HAL's `{"href": "…"}`.
    private static func linkText(_ value: Value?) -> String? {
        switch value {
        case .string(let text)? where !text.isEmpty: text
        case let inner? where member("href", of: inner) != nil: linkText(member("href", of: inner))
        default: nil
        }
    }

    /// A member of a record (by JSON key or field name) or of a JSON object.
    static func member(_ key: String, of value: Value) -> Value? {
        switch value {
        case .record(let record) where !record.type.isTuple:
            let found = record.value(forKey: key) ?? record[key]
            if case .null? = found { return nil }
            return found
        case .dictionary(let entries):
            if case .null? = entries[key] { return nil }
            return entries[key]
        default:
            return nil
        }
    }

    /// The `rel="next"` target of a `Link` header: `<url>; rel="next"`, several links separated by
    /// commas, `rel` quoted or not and possibly naming several relations (`rel="next last"`).
    static func next(inLinkHeader header: String) -> String? {
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { return nil }
            let target = String(rest[rest.index(after: open)..<close])
            // The parameters run to the next link (a comma outside quotes, before a '<').
            var parameters = rest[rest.index(after: close)...]
            if let following = parameters.firstIndex(of: "<") { parameters = parameters[..<following] }
            rest = rest[parameters.endIndex...]
            for parameter in parameters.split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "rel" else { continue }
                var value = pair[1]
                while value.hasSuffix(",") { value.removeLast() }
                value = value.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
                if value.lowercased().split(separator: " ").contains("next") { return target }
            }
        }
        return nil
    }
}
