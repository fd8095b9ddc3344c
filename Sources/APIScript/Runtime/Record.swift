/// A record value: its type and its field values in the type's order.
///
/// A record made by a script, or converted from a Swift model, holds its values in an array. A
/// record read from a response body holds them in one allocation, with its string fields left in
/// the body until they are read; changing ``values`` turns such a record into the first kind.
public struct Record: Sendable {
    /// The record's type.
    public let type: RecordType
    private var storage: Storage

    // Invariant (why `@unchecked Sendable`): the standard library keeps ManagedBuffer, and so
    // RecordFields, from being Sendable; RecordFields is immutable once made (its fields are
    // written by the reader before the record exists). Tested by `UncheckedSendableTests` ("A
    // record read from a body is read from many tasks at once, the same").
    private enum Storage: @unchecked Sendable {
        case values([Value])
        case fields(RecordFields)
        /// An open record's fields and the keys it keeps beside them, in one box so that a record
        /// (and so every ``Value``) is no larger for them.
        case open(OpenValues)
    }

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - type: The record's type.
    ///   - values: The field values, in the order of `type.fields`.
    ///   - additionalProperties: What an open record keeps under keys its fields do not name
    ///     (``RecordType/additionalProperties``); ignored for a closed record's type.
    public init(type: RecordType, values: [Value], additionalProperties: [String: Value] = [:]) {
        self.type = type
        storage = additionalProperties.isEmpty || !type.isOpen
            ? .values(values) : .open(OpenValues(values: values, additional: additionalProperties))
    }

    /// Creates a record whose fields were read from a response body.
    package init(type: RecordType, fields: RecordFields) {
        self.type = type
        storage = .fields(fields)
    }

    /// The field values, in the order of `type.fields`.
    ///
    /// Reading this makes every field's value; ``value(at:)`` makes one.
    public var values: [Value] {
        get {
            switch storage {
            case .values(let values): values
            case .fields(let fields): (0..<fields.count).map(fields.value(at:))
            case .open(let open): open.values
            }
        }
        _modify {
            var values = self.values
            let additional = additionalProperties
            // The array is held once while it is changed, so it is changed in place.
            storage = .values([])
            defer { storage = additional.isEmpty ? .values(values) : .open(OpenValues(values: values, additional: additional)) }
            yield &values
        }
    }

    /// What an open record keeps under keys its type's fields do not name, by JSON key: every
    /// other key the service sent. Empty for a closed record.
    public var additionalProperties: [String: Value] {
        if case .open(let open) = storage { open.additional } else { [:] }
    }

    /// The value under a JSON key: a field's (by its key, `last_modified`), else one an open
    /// record keeps; nil when the record has neither.
    public func value(forKey key: String) -> Value? {
        if let index = type.fields.firstIndex(where: { $0.key == key }) { return value(at: index) }
        return additionalProperties[key]
    }

    /// The fields as they are shown, in order — an open record's other keys last, as one
    /// `additionalProperties` dictionary (the stored property a generated Swift model has for
    /// them) when it holds any.
    public var shownFields: [(name: String, value: Value)] {
        var shown = type.fields.enumerated().map { index, field in (field.name, value(at: index) ?? .null) }
        let additional = additionalProperties
        if !additional.isEmpty { shown.append(("additionalProperties", .dictionary(additional))) }
        return shown
    }

    /// Whether the record's fields are still laid out as they were read from a response body.
    package var isReadFromBody: Bool {
        if case .fields = storage { true } else { false }
    }

    /// How many field values the record holds.
    public var fieldCount: Int {
        switch storage {
        case .values(let values): values.count
        case .fields(let fields): fields.count
        case .open(let open): open.values.count
        }
    }

    /// The value of the field at `index` (in the order of `type.fields`), or nil past the last.
    public func value(at index: Int) -> Value? {
        switch storage {
        case .values(let values): return index >= 0 && index < values.count ? values[index] : nil
        case .fields(let fields): return index >= 0 && index < fields.count ? fields.value(at: index) : nil
        case .open(let open): return index >= 0 && index < open.values.count ? open.values[index] : nil
        }
    }

    /// A field's value by name.
    public subscript(name: String) -> Value? {
        guard let index = type.index(of: name) else { return nil }
        return value(at: index)
    }

    /// Whether the field at `index` holds an array, a dictionary or a record (without making a
    /// string field's value to find out).
    public func holdsContainer(at index: Int) -> Bool {
        switch storage {
        case .values(let values): return index < values.count && values[index].isContainer
        case .fields(let fields): return index < fields.count && fields.holdsContainer(at: index)
        case .open(let open): return index < open.values.count && open.values[index].isContainer
        }
    }

    /// The fields that hold an array, a dictionary or a record: what the nesting limit walks,
    /// without making the string fields.
    func containers() -> [Value] {
        switch storage {
        case .values(let values): values.filter(\.isContainer)
        case .fields(let fields): fields.containers()
        case .open(let open): open.values.filter(\.isContainer) + open.additional.values.filter(\.isContainer)
        }
    }
}

/// An open record's field values and the other keys it keeps; immutable once made.
final class OpenValues: Sendable {
    let values: [Value]
    let additional: [String: Value]

    init(values: [Value], additional: [String: Value]) {
        self.values = values
        self.additional = additional
    }
}

extension Record: Equatable {
    /// Records are equal when their types have the same name and their fields are equal.
    public static func == (lhs: Record, rhs: Record) -> Bool {
        guard lhs.type.name == rhs.type.name, lhs.fieldCount == rhs.fieldCount else { return false }
        for index in 0..<lhs.fieldCount where lhs.value(at: index) != rhs.value(at: index) { return false }
        return lhs.additionalProperties == rhs.additionalProperties
    }
}

extension Value {
    /// Whether the value is an array, a dictionary or a record.
    var isContainer: Bool {
        switch self {
        case .array, .dictionary, .record: true
        default: false
        }
    }
}
