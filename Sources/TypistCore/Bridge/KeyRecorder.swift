import APIScript
import Foundation

/// Decodes one value of a type from nothing, handing every key a marker value and noting what was
/// asked for, so that ``ValueBridge/readingPlan(for:)`` can check that each stored property holds its
/// key's value unchanged. Anything but one keyed container at the top makes it give up.
final class KeyRecorder: Decoder {
    /// One key the type's `init(from:)` read.
    struct Key {
        enum Kind {
            case int(Int), double(Double), string(String), bool
            /// Any other `Decodable`: its plan, and the property types that may hold it.
            case nested(ReadingPlan?, plain: Any.Type, optional: Any.Type)
        }
        let name: String
        var kind: Kind
        var optional = false

        /// The field's plan when `value` (a property of the sample) is what this key produced.
        func check(_ value: Any) -> ReadingPlan? {
            // The property's dynamic type must be exactly the one read (or its optional), and a
            // marker must arrive unchanged.
            let plan: ReadingPlan?
            let matches: Bool
            switch kind {
            case .int(let marker):
                plan = .int
                matches = type(of: value) == (optional ? Int?.self : Int.self) && (value as? Int) == marker
            case .double(let marker):
                plan = .double
                matches = type(of: value) == (optional ? Double?.self : Double.self) && (value as? Double) == marker
            case .string(let marker):
                plan = .string
                matches = type(of: value) == (optional ? String?.self : String.self) && (value as? String) == marker
            case .bool:
                plan = .bool
                matches = type(of: value) == (optional ? Bool?.self : Bool.self)
            case .nested(let nested, let plain, let optionalType):
                plan = nested
                matches = type(of: value) == (optional ? optionalType : plain)
            }
            guard matches, let plan else { return nil }
            return optional ? .optional(plan) : plan
        }
    }

    private let bridge: ValueBridge
    fileprivate var keys: [Key] = []
    fileprivate var failed = false
    private var containers = 0
    private var nilChecked: String?
    private var counter = 0
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    private init(bridge: ValueBridge) { self.bridge = bridge }

    /// A sample of `type` and the keys it read, or nil when its decoding is not a plain keyed one.
    static func record<T: Decodable>(_ type: T.Type, bridge: ValueBridge) -> (T, [Key])? {
        let recorder = KeyRecorder(bridge: bridge)
        guard let sample = try? T(from: recorder), !recorder.failed, recorder.containers == 1,
            recorder.nilChecked == nil
        else { return nil }
        return (sample, recorder.keys)
    }

    func container<K: CodingKey>(keyedBy type: K.Type) throws -> KeyedDecodingContainer<K> {
        containers += 1
        return KeyedDecodingContainer(RecordingContainer<K>(recorder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw refuse() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw refuse() }

    /// Gives up on the type, even if its `init(from:)` catches the error.
    fileprivate func refuse() -> NotTransparent {
        failed = true
        return NotTransparent()
    }

    fileprivate func nextMarker() -> Int {
        counter += 1
        return 7_340_000 + counter
    }

    /// Notes a key read; it is optional when `decodeIfPresent` asked `decodeNil` for it just before.
    fileprivate func note(_ name: String, _ kind: Key.Kind) {
        if let checked = nilChecked, checked != name { failed = true }
        var key = Key(name: name, kind: kind)
        key.optional = nilChecked == name
        keys.append(key)
        nilChecked = nil
    }

    /// A `decodeNil` not followed by a read of the same key is not a plain optional property.
    fileprivate func noteNilCheck(_ name: String) {
        if nilChecked != nil { failed = true }
        nilChecked = name
    }

    fileprivate func nested<T: Decodable>(_ type: T.Type, forKey name: String) throws -> T {
        note(name, .nested(bridge.readingPlan(for: type), plain: T.self, optional: T?.self))
        return try ProbeDecoder.sample(type, depth: 1)
    }
}

private struct NotTransparent: Error {}

private struct RecordingContainer<K: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: KeyRecorder
    var codingPath: [any CodingKey] = []
    var allKeys: [K] { [] }

    func contains(_ key: K) -> Bool { true }
    func decodeNil(forKey key: K) throws -> Bool {
        recorder.noteNilCheck(key.stringValue)
        return false
    }
    func decode(_ type: Bool.Type, forKey key: K) throws -> Bool {
        recorder.note(key.stringValue, .bool)
        return true
    }
    func decode(_ type: String.Type, forKey key: K) throws -> String {
        let marker = "\u{1F}probe-\(recorder.nextMarker())"
        recorder.note(key.stringValue, .string(marker))
        return marker
    }
    func decode(_ type: Double.Type, forKey key: K) throws -> Double {
        let marker = Double(recorder.nextMarker()) + 0.5
        recorder.note(key.stringValue, .double(marker))
        return marker
    }
    func decode(_ type: Int.Type, forKey key: K) throws -> Int {
        let marker = recorder.nextMarker()
        recorder.note(key.stringValue, .int(marker))
        return marker
    }
    // Other widths are shown as numbers by the bridge but need range checks: the typed way.
    func decode(_ type: Float.Type, forKey key: K) throws -> Float { throw recorder.refuse() }
    func decode(_ type: Int8.Type, forKey key: K) throws -> Int8 { throw recorder.refuse() }
    func decode(_ type: Int16.Type, forKey key: K) throws -> Int16 { throw recorder.refuse() }
    func decode(_ type: Int32.Type, forKey key: K) throws -> Int32 { throw recorder.refuse() }
    func decode(_ type: Int64.Type, forKey key: K) throws -> Int64 { throw recorder.refuse() }
    func decode(_ type: UInt.Type, forKey key: K) throws -> UInt { throw recorder.refuse() }
    func decode(_ type: UInt8.Type, forKey key: K) throws -> UInt8 { throw recorder.refuse() }
    func decode(_ type: UInt16.Type, forKey key: K) throws -> UInt16 { throw recorder.refuse() }
    func decode(_ type: UInt32.Type, forKey key: K) throws -> UInt32 { throw recorder.refuse() }
    func decode(_ type: UInt64.Type, forKey key: K) throws -> UInt64 { throw recorder.refuse() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: K) throws -> T {
        try recorder.nested(type, forKey: key.stringValue)
    }
    func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: K) throws -> KeyedDecodingContainer<N> {
        throw recorder.refuse()
    }
    func nestedUnkeyedContainer(forKey key: K) throws -> any UnkeyedDecodingContainer { throw recorder.refuse() }
    func superDecoder() throws -> any Decoder { throw recorder.refuse() }
    func superDecoder(forKey key: K) throws -> any Decoder { throw recorder.refuse() }
}
