import Synchronization

/// The declared shape of a record: its Swift type name and its fields in order.
///
/// A host describes each model it returns (`Post { userId: Int, id: Int, title: String, body: String }`)
/// so that members are checked and completed before any call. Nested and recursive models are
/// described by creating the types first and defining their fields after.
public final class RecordType: Sendable, Hashable, CustomStringConvertible {
    /// One field.
    public struct Field: Sendable, Hashable {
        /// The field's name, as in the Swift model (`stargazersCount`).
        public var name: String
        /// The field's type.
        public var type: ScriptType
        /// The key that holds it in JSON (`stargazers_count`); the name when they are the same.
        ///
        /// Models built from a JSON sample (`:model`) or a JSON Schema name a field as Swift would
        /// (`fullName`) and keep the key it came from (`full_name`) here, for `CodingKeys`.
        public var key: String

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - name: The field's name, as in the Swift model.
        ///   - type: The field's type.
        ///   - key: The key that holds it in JSON; `nil` for the name.
        public init(_ name: String, _ type: ScriptType, key: String? = nil) {
            self.name = name
            self.type = type
            self.key = key ?? name
        }

        /// What the field holds when its key is absent: a document's `default` (Kinto's lists'
        /// `data`, `default: []`), so the field is never missing and its type is not optional.
        /// `nil` for a field without one.
        public var defaultValue: Value?

        /// Creates a field that holds `defaultValue` when its key is absent.
        ///
        /// - Parameters:
        ///   - name: The field's name, as in the Swift model.
        ///   - type: The field's type (not optional: the default fills an absent key).
        ///   - key: The key that holds it in JSON; `nil` for the name.
        ///   - defaultValue: The value of an absent key.
        public init(_ name: String, _ type: ScriptType, key: String? = nil, default defaultValue: Value) {
            self.init(name, type, key: key)
            self.defaultValue = defaultValue
        }

        public static func == (lhs: Field, rhs: Field) -> Bool {
            lhs.name == rhs.name && lhs.type == rhs.type && lhs.key == rhs.key && lhs.defaultValue == rhs.defaultValue
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(type)
            hasher.combine(key)
        }
    }

    /// The type's name, such as `Post`.
    public var name: String { storedName.withLock { $0 } }
    private let storedName: Mutex<String>
    /// Whether values print as a tuple, `(offset: 0, element: …)`, rather than `Name(…)`.
    public let isTuple: Bool
    private let storage: Mutex<(fields: [Field], index: [String: Int], additionalProperties: ScriptType?)>

    /// Creates a record type.
    ///
    /// - Parameters:
    ///   - name: The Swift type name.
    ///   - fields: The fields in order; may be given later with ``define(_:additionalProperties:)``.
    ///   - isTuple: Whether values print as a tuple, `(offset: 0, element: …)`.
    public init(name: String, fields: [Field] = [], isTuple: Bool = false) {
        self.storedName = Mutex(name)
        self.isTuple = isTuple
        self.storage = Mutex((fields, Self.index(fields), nil))
    }

    /// Sets the fields (for nested and recursive models, after every type exists).
    ///
    /// - Parameters:
    ///   - fields: The fields in order.
    ///   - additionalProperties: The type of the values under keys the fields do not name, for a
    ///     record that keeps them (an *open* record: JSON Schema's `additionalProperties`); `nil`
    ///     for a record that has only its fields.
    public func define(_ fields: [Field], additionalProperties: ScriptType? = nil) {
        storage.withLock { $0 = (fields, Self.index(fields), additionalProperties) }
    }

    /// Gives the type another name: a type model that finds one record under several names (a
    /// document's inline objects of one shape) names it once it has read them all. Not for
    /// tuples, whose name is their shape.
    package func rename(to name: String) {
        guard !isTuple else { return }
        storedName.withLock { $0 = name }
    }

    /// The fields in order.
    public var fields: [Field] { storage.withLock { $0.fields } }

    /// The type of the values a record keeps under keys its fields do not name — `Any` for a
    /// schema's `additionalProperties: {}` or `true` — or `nil` for a closed record, which has
    /// only its fields.
    ///
    /// A value of an open record keeps every such key the service sent
    /// (``Record/additionalProperties``); scripts read one as a member (`data.id`) or by
    /// subscript (`data["last_modified"]`), each an optional.
    public var additionalProperties: ScriptType? { storage.withLock { $0.additionalProperties } }

    /// Whether values of the type keep keys their fields do not name (``additionalProperties``).
    public var isOpen: Bool { additionalProperties != nil }

    /// The position of a field.
    public func index(of name: String) -> Int? { storage.withLock { $0.index[name] } }

    /// A field by name.
    public func field(named name: String) -> Field? {
        storage.withLock { state in state.index[name].map { state.fields[$0] } }
    }

    /// `Name { field: Type, … }`.
    public var description: String {
        let additional = additionalProperties.map { ["additionalProperties: [String: \($0)]"] } ?? []
        return "\(name) { \((fields.map { "\($0.name): \($0.type)" } + additional).joined(separator: ", ")) }"
    }

    private static func index(_ fields: [Field]) -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, field) in fields.enumerated() where index[field.name] == nil { index[field.name] = position }
        return index
    }

    /// A model type is itself; a tuple type is its shape (its name spells its fields and their types).
    public static func == (lhs: RecordType, rhs: RecordType) -> Bool {
        lhs === rhs || (lhs.isTuple && rhs.isTuple && lhs.name == rhs.name)
    }

    public func hash(into hasher: inout Hasher) {
        if isTuple { hasher.combine(name) } else { hasher.combine(ObjectIdentifier(self)) }
    }

    /// A tuple type such as `(offset: Int, element: Post)`, equal to every other of its shape.
    ///
    /// Not cached: a process-wide table of shapes grew with every distinct element type a script
    /// ever wrote (`[String: [[Int]]]`'s pairs, …) and kept the host's record types alive with it.
    static func tuple(_ fields: [Field]) -> RecordType {
        let name = "(" + fields.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
        return RecordType(name: name, fields: fields, isTuple: true)
    }
}
