import APIScript
import Foundation
import Synchronization

/// Turns Swift values into script values and Swift types into script types.
///
/// Records take the Swift property names (`stargazersCount`, not `stargazers_count`) and keep the
/// Swift type name. Shapes come from the sample ``ShapeRecorder`` decodes from nothing, so they are
/// known before any call; its one run per type also gives the record's JSON keys and its one-pass
/// reading plan.
package final class ValueBridge: Sendable {
    private let records = Mutex<[ObjectIdentifier: RecordType]>([:])
    private let names = Mutex<[String: ObjectIdentifier]>([:])
    /// Each record's fields' Swift types as declared (`UUID`, `Date`, `RepositorySort?`), by record name.
    private let declared = Mutex<[String: [String]]>([:])
    /// One-pass plans by type; nil once a type is known to have none (see ``ReadingPlan``).
    let plans = Mutex<[ObjectIdentifier: ReadingPlan?]>([:])
    /// Held while plans are built (recursive: a model's fields plan their own types inside its build).
    let planBuilding = NSRecursiveLock()
    /// The plans of the build under way, by the thread holding ``planBuilding``; published to
    /// ``plans`` when the outermost build ends.
    let plansUnderway = Mutex<(depth: Int, plans: [ObjectIdentifier: ReadingPlan?])>((0, [:]))
    /// ``decodesItself(_:)``'s answers by type.
    private let selfDecoding = Mutex<[ObjectIdentifier: Bool]>([:])
    /// ``ShapeRecorder``'s run of each type, made once; read and written only under
    /// ``recordingLock`` (a recording holds the sample, which is any Swift value, so no `Mutex`).
    nonisolated(unsafe) private var recordings: [ObjectIdentifier: ShapeRecorder.Recording] = [:]
    private let recordingLock = NSLock()

    /// Record types from other sources than Swift types (an OpenAPI document's schemas), and
    /// which they are.
    private let adopted = Mutex<(types: [RecordType], known: Set<ObjectIdentifier>)>(([], []))

    /// Every record type seen, by name.
    var recordTypes: [RecordType] {
        (records.withLock { Array($0.values) } + adopted.withLock { $0.types }).sorted { $0.name < $1.name }
    }

    /// Lists record types another source made (an OpenAPI document's), so that scripts, `:describe`
    /// and completion know them as they know the Swift models'.
    package func adopt(_ types: [RecordType]) {
        adopted.withLock { adopted in
            for type in types where adopted.known.insert(ObjectIdentifier(type)).inserted { adopted.types.append(type) }
        }
    }

    /// The script type of a `Decodable` Swift type.
    func scriptType<T: Decodable>(of type: T.Type) throws -> ScriptType {
        if T.self == String.self { return .string }
        if T.self == Data.self { return .bytes }
        return shape(of: try recording(of: type).sample.get())
    }

    /// What ``ShapeRecorder`` found decoding `type` from nothing: made on first use, then kept.
    func recording<T: Decodable>(of type: T.Type) -> ShapeRecorder.Recording {
        let identifier = ObjectIdentifier(type)
        return recordingLock.withLock {
            if let known = recordings[identifier] { return known }
            // The recorder never calls back into the bridge, so the lock is not taken twice.
            let made = ShapeRecorder.record(type)
            recordings[identifier] = made
            return made
        }
    }

    /// The script type of a sample value.
    func shape(of value: Any) -> ScriptType {
        let mirror = Mirror(reflecting: value)
        // Optionals first: a cast to String would look through them.
        if mirror.displayStyle != .optional, let scalar = Self.scalarType(value) { return scalar }
        switch mirror.displayStyle {
        case .optional:
            guard let child = mirror.children.first else { return .optional(.any) }
            return shape(of: child.value).optional
        case .collection, .set:
            return .array(mirror.children.first.map { shape(of: $0.value) } ?? .any)
        case .dictionary:
            guard let pair = mirror.children.first,
                let element = Mirror(reflecting: pair.value).children.dropFirst().first
            else { return .dictionary(.any) }
            return .dictionary(shape(of: element.value))
        case .enum:
            return decodesItself(type(of: value)) ? .any : .string
        default:
            return decodesItself(type(of: value)) ? .any : .record(recordType(for: value, mirror: mirror))
        }
    }

    /// Whether a type's JSON is something other than a record of its stored properties: an enum
    /// without raw values (an any-JSON `JSONValue`, a result with associated values), or a type
    /// whose `init(from:)` reads one value or an array (a version decoded from `"1.2.3"`). Its
    /// Swift properties say nothing about what the server sent, so scripts see such a value as a
    /// dynamic one, navigable and checked when it runs — the JSON itself.
    func decodesItself(_ type: Any.Type) -> Bool {
        let identifier = ObjectIdentifier(type)
        if let known = selfDecoding.withLock({ $0[identifier] }) { return known }
        let answer = decodesItself(uncached: type)
        selfDecoding.withLock { $0[identifier] = answer }
        return answer
    }

    private func decodesItself(uncached type: Any.Type) -> Bool {
        guard let decodable = type as? any Decodable.Type else { return false }
        let recording = recording(of: decodable)
        switch recording.container {
        // The container first, the protocols after, and only for single values and arrays: each
        // first conformance check of a type scans every conformance in the binary, and models,
        // which read a keyed container, need none of them (start-up went 1–2 ms faster).
        case .single?, .unkeyed?: return !Self.isKnownSingleValue(type)
        case nil: return false
        case .keyed?:
            // Swift's own coding of an enum is keyed too ({"case": {…}}), and no record either.
            guard case .success(let sample) = recording.sample else { return false }
            return Mirror(reflecting: sample).displayStyle == .enum
        }
    }

    /// Types that read one value or an array but are what the language shows them as already:
    /// raw-value enums, collections, numbers, dates, optionals …
    private static func isKnownSingleValue(_ type: Any.Type) -> Bool {
        type is any RawRepresentable.Type || type is any ReadingPlannable.Type || type is any Collection.Type
            || type is any Numeric.Type || type is Bool.Type || type is Date.Type || type is URL.Type
            || type is UUID.Type || type is Data.Type || type is any ExpressibleByNilLiteral.Type
    }

    /// The JSON of a value that decodes itself, as a dynamic script value: encoded again (such
    /// types are nearly always `Codable`), or its description when it cannot be.
    private func dynamicValue(of value: Any) -> Value {
        if let encodable = value as? any Encodable, let data = try? JSONEncoder().encode(encodable),
            let dynamic = try? JSONReader.parse(data)
        {
            return dynamic
        }
        return .string(String(describing: value))
    }

    private func recordType(for value: Any, mirror: Mirror) -> RecordType {
        let identifier = ObjectIdentifier(type(of: value))
        if let known = records.withLock({ $0[identifier] }) { return known }
        let record = RecordType(name: uniqueName(for: type(of: value), identifier),
                                isTuple: mirror.displayStyle == .tuple)
        records.withLock { $0[identifier] = record }
        // Fields after the type exists, so recursive models refer to themselves.
        let open = value as? any AdditionalPropertiesModel
        // An open model's `additionalProperties` is no field: it holds the record's other keys.
        let children = Self.fieldChildren(mirror, open: open != nil)
        // The JSON keys, when the type reads one key per stored property.
        var keys: [String]?
        if let decodable = type(of: value) as? any Decodable.Type {
            let recorded = recording(of: decodable)
            // An open model reads its other keys through a second container: its first holds its fields'.
            keys = (open == nil ? recorded.keys?.map(\.name) : recorded.firstContainerKeys).flatMap { $0.count == children.count ? $0 : nil }
        }
        let fields = children.enumerated().map { index, child in
            RecordType.Field(Self.fieldName(child.label, index), shape(of: child.value), key: keys?[index])
        }
        let additional: ScriptType? = open.map { open in
            let valueType = type(of: open).additionalValueType
            return (try? scriptType(of: valueType)) ?? .any
        }
        record.define(fields, additionalProperties: additional)
        declared.withLock { $0[record.name] = children.map { SwiftTypeName.of(type(of: $0.value)) } }
        return record
    }

    /// The Swift types of a record's fields as its model declares them, in field order.
    func declaredFieldTypes(of record: RecordType) -> [String]? {
        declared.withLock { $0[record.name] }
    }

    private func uniqueName(for type: Any.Type, _ identifier: ObjectIdentifier) -> String {
        let short = SwiftTypeName.of(type)
        return names.withLock { names in
            if let existing = names[short], existing != identifier {
                let qualified = SwiftTypeName.qualified(type).split(separator: ".").dropFirst().joined(separator: ".")
                names[qualified] = identifier
                return qualified
            }
            names[short] = identifier
            return short
        }
    }

    private static func fieldName(_ label: String?, _ index: Int) -> String {
        guard var label, !label.isEmpty else { return String(index) }
        // A property wrapper's storage (`_name`); not a name that needs its `_` (`_1`, for a key "+1").
        if label.hasPrefix("_"), let next = label.dropFirst().first, !next.isNumber { label.removeFirst() }
        if label.hasPrefix("."), label.count > 1 { label.removeFirst() }  // tuple labels
        return label
    }

    private static func scalarType(_ value: Any) -> ScriptType? {
        switch value {
        case is Int, is Int8, is Int16, is Int32, is Int64, is UInt8, is UInt16, is UInt32: return .int
        case is UInt, is UInt64: return .int
        case is Double, is Float, is Decimal: return .double
        case is Bool: return .bool
        case is Data: return .bytes
        case is String, is Substring, is Date, is URL, is UUID, is Character: return .string
        default:
            if let raw = value as? any RawRepresentable { return scalarType(raw.rawValue) ?? .string }
            return nil
        }
    }

    // MARK: Values

    /// The script value of a Swift value.
    func value(of value: Any) -> Value {
        switch value {
        case let number as Int: return .int(number)
        case let text as String: return .string(text)
        case let number as Double: return .double(number)
        case let flag as Bool: return .bool(flag)
        case let date as Date: return .string(Self.dateText(date))
        case let url as URL: return .string(url.absoluteString)
        case let uuid as UUID: return .string(uuid.uuidString)
        case let data as Data: return .bytes(Array(data))
        case let number as Float: return .double(Double(number))
        case let number as Decimal: return .double(NSDecimalNumber(decimal: number).doubleValue)
        case let number as Int64: return .int(Int(number))
        case let number as Int32: return .int(Int(number))
        case let number as UInt64: return number <= UInt64(Int.max) ? .int(Int(number)) : .double(Double(number))
        case let number as UInt: return number <= UInt(Int.max) ? .int(Int(number)) : .double(Double(number))
        case let number as any BinaryInteger: return .int(Int(truncatingIfNeeded: number))
        case let text as Substring: return .string(String(text))
        case let character as Character: return .string(String(character))
        case is Void: return .void
        default: break
        }
        if let raw = value as? any RawRepresentable { return self.value(of: raw.rawValue) }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { self.value(of: $0.value) } ?? .null
        case .collection, .set:
            return .array(mirror.children.map { self.value(of: $0.value) })
        case .dictionary:
            var entries: [String: Value] = [:]
            for pair in mirror.children {
                let parts = Array(Mirror(reflecting: pair.value).children)
                guard parts.count == 2 else { continue }
                entries["\(parts[0].value)"] = self.value(of: parts[1].value)
            }
            return .dictionary(entries)
        case .enum:
            return decodesItself(type(of: value)) ? dynamicValue(of: value) : .string("\(value)")
        default:
            if decodesItself(type(of: value)) { return dynamicValue(of: value) }
            let record = recordType(for: value, mirror: mirror)
            guard let open = value as? any AdditionalPropertiesModel else {
                return .record(Record(type: record, values: mirror.children.map { self.value(of: $0.value) }))
            }
            return .record(Record(type: record, values: Self.fieldChildren(mirror, open: true).map { self.value(of: $0.value) },
                                  additionalProperties: open.additionalPropertyValues.mapValues { self.value(of: $0) }))
        }
    }

    /// A model's stored properties that are its fields: all of them, but an open model's
    /// `additionalProperties`.
    private static func fieldChildren(_ mirror: Mirror, open: Bool) -> [Mirror.Child] {
        open ? mirror.children.filter { $0.label != "additionalProperties" } : Array(mirror.children)
    }

    static func dateText(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

