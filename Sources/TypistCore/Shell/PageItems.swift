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
            if let connection = RelayConnection.find(in: value) { return connection.page }
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
            if let element = RelayConnection.itemsType(in: record) { return element }
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

/// A Relay connection in a GraphQL result (`repository { issues(after: $cursor) { nodes { … }
/// pageInfo { hasNextPage endCursor } } }`): its items are its `nodes` (or `edges`), its next page
/// the same operation with `pageInfo.endCursor` as the cursor. It is found through records of one
/// field each (the operation's root field, the connection's owner).
struct RelayConnection {
    let page: PageItems

    static func find(in value: Value, depth: Int = 0) -> RelayConnection? {
        guard depth < 8, case .record(let record) = value, !record.type.isTuple else { return nil }
        if let pageInfo = PageHint.member("pageInfo", of: value) {
            let list = PageHint.member("nodes", of: value) ?? PageHint.member("edges", of: value)
            guard case .array(let items)? = list else { return nil }
            let more = PageHint.member("hasNextPage", of: pageInfo) == .bool(true)
            guard more else { return RelayConnection(page: PageItems(items: items, next: nil, saysMore: nil)) }
            if case .string(let cursor)? = PageHint.member("endCursor", of: pageInfo), !cursor.isEmpty {
                return RelayConnection(page: PageItems(items: items, next: .cursor(cursor), saysMore: nil))
            }
            return RelayConnection(page: PageItems(items: items, next: nil, saysMore: "pageInfo.hasNextPage: true, with no endCursor selected"))
        }
        let records = record.type.fields.indices.compactMap { index -> Value? in
            if case .record(let inner)? = record.value(at: index), !inner.type.isTuple { return .record(inner) }
            return nil
        }
        // The connection's owner is null (`repository` not found): no items.
        if records.isEmpty, itemsType(in: record.type) != nil { return RelayConnection(page: PageItems(items: [], next: nil, saysMore: nil)) }
        guard records.count == 1 else { return nil }
        return find(in: records[0], depth: depth + 1)
    }

    /// The type of a connection's items below `record`, when it holds one.
    static func itemsType(in record: RecordType, depth: Int = 0) -> ScriptType? {
        guard depth < 8 else { return nil }
        if record.field(named: "pageInfo") != nil {
            for name in ["nodes", "edges"] {
                if case .array(let element)? = record.field(named: name)?.type.unwrapped { return element }
            }
            return nil
        }
        let records = record.fields.compactMap { field -> RecordType? in
            if case .record(let inner) = field.type.unwrapped, !inner.isTuple { inner } else { nil }
        }
        guard records.count == 1 else { return nil }
        return itemsType(in: records[0], depth: depth + 1)
    }
}
