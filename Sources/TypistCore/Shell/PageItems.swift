import APIScript

/// One page of `pages { … }`: the items it holds and the `next` field it names, if any.
///
/// A page is an array (its elements), or a record or JSON object with exactly one array field (a
/// search's `items`, a list's `results`); an untyped call's page is its JSON body. The next page's
/// URL may stand in a `next`, `next_url` or `nextUrl` field beside the items.
struct PageItems {
    let items: [Value]
    let nextField: String?

    static let nextFieldKeys = ["next", "next_url", "nextUrl", "nextPageUrl", "next_page_url"]

    static func of(_ value: Value, page: Int) throws -> PageItems {
        switch value {
        case .null:
            return PageItems(items: [], nextField: nil)
        case .array(let elements):
            return PageItems(items: elements, nextField: nil)
        case .record(let record) where record.type.name == Shell.httpResultType.name:
            return try of(record["json"] ?? .null, page: page)
        case .record(let record):
            let fields = record.type.fields.enumerated().map { index, field in
                (names: [field.name, field.key], value: record.value(at: index) ?? .null)
            }
            return try split(fields, page: page, shown: record.type.name)
        case .dictionary(let entries):
            let fields = entries.keys.sorted().map { (names: [$0], value: entries[$0] ?? .null) }
            return try split(fields, page: page, shown: "a JSON object")
        default:
            throw SessionError("pages { … } needs its call to return an array, or a record with one array field; page \(page) is \(ValueFormatter.literal(value).prefix(80))")
        }
    }

    private static func split(_ fields: [(names: [String], value: Value)], page: Int, shown: String) throws
        -> PageItems
    {
        let arrays = fields.compactMap { field -> [Value]? in
            if case .array(let elements) = field.value { elements } else { nil }
        }
        guard arrays.count == 1 else {
            throw SessionError("pages { … } concatenates the one array field of each page; page \(page) (\(shown)) has \(arrays.count)")
        }
        let next = fields.first { field in field.names.contains { nextFieldKeys.contains($0) } }.flatMap { field in
            if case .string(let text) = field.value { text } else { nil }
        }
        return PageItems(items: arrays[0], nextField: next)
    }

    /// The type of one item, for the checker: `[T]` → `T`; a record with one array field `[T]` →
    /// `T`; the untyped result or dynamic JSON → `Any`. `nil` when the type has no items.
    static func itemsType(of type: ScriptType) -> ScriptType? {
        switch type.unwrapped {
        case .array(let element):
            return element
        case .record(let record) where record.name == Shell.httpResultType.name:
            return .any
        case .record(let record):
            let arrays = record.fields.compactMap { field -> ScriptType? in
                if case .array(let element) = field.type.unwrapped { element } else { nil }
            }
            return arrays.count == 1 ? arrays[0] : nil
        case .any, .unknown:
            return .any
        default:
            return nil
        }
    }
}
