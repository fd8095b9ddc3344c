import APIScript

/// One page of `pages { … }`: the items it holds, and where its body says the next page is.
///
/// A page is an array (its elements), or a record or JSON object with exactly one array field (a
/// search's `items`, a list's `results`, Kinto's `data`); an untyped call's page is its JSON body.
/// Its body may name the next page (``PageHint/inBody(_:)``), or only say there is one
/// (`has_more: true`).
struct PageItems {
    let items: [Value]
    /// The next page, as the body names it.
    let next: PageHint?
    /// A flag of the body that says more pages exist (`has_more: true`), when it names none.
    let saysMore: String?

    static func of(_ value: Value, page: Int) throws -> PageItems {
        switch value {
        case .null:
            return PageItems(items: [], next: nil, saysMore: nil)
        case .array(let elements):
            return PageItems(items: elements, next: nil, saysMore: nil)
        case .record(let record) where record.type.name == UntypedRequest.resultType.name:
            return try of(record["json"] ?? .null, page: page)
        case .record(let record):
            let fields = record.type.fields.indices.map { record.value(at: $0) ?? .null }
            return try split(fields, of: value, page: page, shown: record.type.name)
        case .dictionary(let entries):
            return try split(entries.keys.sorted().map { entries[$0] ?? .null }, of: value, page: page, shown: "a JSON object")
        default:
            throw SessionError("pages { … } needs its call to return an array, or a record with one array field; page \(page) is \(ValueFormatter.literal(value).prefix(80))")
        }
    }

    private static func split(_ fields: [Value], of page: Value, page number: Int, shown: String) throws -> PageItems {
        let arrays = fields.compactMap { field -> [Value]? in
            if case .array(let elements) = field { elements } else { nil }
        }
        guard arrays.count == 1 else {
            throw SessionError("pages { … } concatenates the one array field of each page; page \(number) (\(shown)) has \(arrays.count)")
        }
        let (next, saysMore) = PageHint.inBody(page)
        return PageItems(items: arrays[0], next: next, saysMore: saysMore)
    }

    /// The type of one item, for the checker: `[T]` → `T`; a record with one array field `[T]` →
    /// `T`; the untyped result or dynamic JSON → `Any`. `nil` when the type has no items.
    static func itemsType(of type: ScriptType) -> ScriptType? {
        switch type.unwrapped {
        case .array(let element):
            return element
        case .record(let record) where record.name == UntypedRequest.resultType.name:
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
