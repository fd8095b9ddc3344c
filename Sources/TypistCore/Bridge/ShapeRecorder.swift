import APIScript
import Foundation

/// The one decoder that reads a `Decodable` type without data: it decodes the type from nothing,
/// answering every question (every key present, every array one element long), and notes what the
/// type's `init(from:)` asked for.
///
/// One run per type (kept by ``ValueBridge``) gives everything the bridge needs to know about it:
/// - the **sample** value, whose `Mirror` is the type's script shape (field names and types), known
///   before any call;
/// - the **container** the type opened first, which tells a record from a type that decodes itself
///   (`"1.2.3"` into a version, an any-JSON enum);
/// - the **keys** its one keyed container read, in order, each with the marker value it was given,
///   from which ``ValueBridge/readingPlan(for:)`` checks that every stored property holds its key's
///   value unchanged (the one-pass reading plan), and which become the record's JSON keys.
///
/// The top level answers `Int`, `Double` and `String` keys with distinct markers; nested values,
/// single values and arrays get zeros and empty strings (the values raw-value enums most often
/// accept). A type whose `init(from:)` refuses the markers is decoded again with zeros only, and has
/// no keys (no one-pass plan).
final class ShapeRecorder: Decoder {
    /// Nesting past which the recorder gives up (a recursive model without an optional in its cycle).
    static let maximumDepth = 48

    /// The container a type's `init(from:)` opened first.
    enum Container { case keyed, unkeyed, single }

    /// One key the top level's keyed container read.
    struct Key {
        enum Kind {
            case int(Int), double(Double), string(String), bool
            /// Any other `Decodable`: how to find its plan, and the property types that may hold it.
            case nested(plan: (ValueBridge) -> ReadingPlan?, plain: Any.Type, optional: Any.Type)
        }
        let name: String
        var kind: Kind
        var optional = false

        /// The field's plan when `value` (a property of the sample) is what this key produced.
        func check(_ value: Any, bridge: ValueBridge) -> ReadingPlan? {
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
                matches = type(of: value) == (optional ? optionalType : plain)
                plan = matches ? nested(bridge) : nil
            }
            guard matches, let plan else { return nil }
            return optional ? .optional(plan) : plan
        }
    }

    /// What one run found.
    struct Recording {
        /// The container the type opened first; nil when it opened none (a `Date`, a `URL` …).
        let container: Container?
        /// The sample, or why the type cannot be decoded from nothing.
        let sample: Result<Any, ProbeError>
        /// The keys, when the type read exactly one keyed container with plain reads of whole keys
        /// (no nested containers, no `decodeNil` without its read, no narrow numbers).
        let keys: [Key]?
        /// The names of the keys the first keyed container read, in order, whatever came after:
        /// an open model's fields' keys (it reads its other keys through a second container).
        var firstContainerKeys: [String] = []
    }

    let depth: Int
    /// Whether this decoder notes what is asked (the top of a run) and gives markers.
    fileprivate let records: Bool
    fileprivate let markers: Bool
    fileprivate var keys: [Key] = []
    fileprivate var transparent = true
    private(set) var first: Container?
    private var containers = 0
    /// How many keys were read before a second container opened.
    private var keysBeforeSecondContainer: Int?
    private var nilChecked: String?
    private var counter = 0
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    private init(depth: Int, records: Bool, markers: Bool) {
        self.depth = depth
        self.records = records
        self.markers = markers
    }

    /// Decodes `type` from nothing and notes what it asked for.
    static func record<T: Decodable>(_ type: T.Type) -> Recording {
        let recorder = ShapeRecorder(depth: 1, records: true, markers: true)
        do {
            let sample = try recorder.sample(type)
            let plain = recorder.transparent && recorder.containers == 1 && recorder.nilChecked == nil
            var recording = Recording(container: recorder.first, sample: .success(sample), keys: plain ? recorder.keys : nil)
            if recorder.first == .keyed {
                recording.firstContainerKeys = recorder.keys.prefix(recorder.keysBeforeSecondContainer ?? recorder.keys.count).map(\.name)
            }
            return recording
        } catch {
            // Markers a validating `init(from:)` refuses; zeros it may accept.
            let again = ShapeRecorder(depth: 1, records: false, markers: false)
            do {
                return Recording(container: recorder.first, sample: .success(try again.sample(type)), keys: nil)
            } catch {
                return Recording(container: recorder.first, sample: .failure(ProbeError(error, type: type)), keys: nil)
            }
        }
    }

    /// A sample of `type`, for a container at `depth`.
    fileprivate static func sample<T: Decodable>(_ type: T.Type, depth: Int) throws -> T {
        guard depth < maximumDepth else { throw ProbeError.tooDeep(String(describing: type)) }
        return try below(depth).sample(type)
    }

    /// A decoder for what a container at `depth` holds: answers only, nothing noted.
    fileprivate static func below(_ depth: Int) -> ShapeRecorder {
        ShapeRecorder(depth: depth + 1, records: false, markers: false)
    }

    private func sample<T: Decodable>(_ type: T.Type) throws -> T {
        if let known = Self.knownSample(type) { return known }
        // Decoding first: most types are records, and asking a type for a conformance costs a scan
        // of every conformance in the process the first time.
        do {
            return try T(from: self)
        } catch {
            // An enum whose raw values the zeros and empty strings do not match.
            if let caseIterable = type as? any CaseIterable.Type, let first = Self.firstCase(caseIterable) as? T {
                return first
            }
            throw error
        }
    }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { type.allCases.first }

    private static func knownSample<T>(_ type: T.Type) -> T? {
        switch type {
        case is Date.Type: return Date(timeIntervalSince1970: 0) as? T
        case is URL.Type: return URL(string: "https://example.com/") as? T
        case is UUID.Type: return UUID() as? T
        case is Decimal.Type: return Decimal(0) as? T
        case is Data.Type: return Data() as? T
        default: return nil
        }
    }

    // MARK: Decoder

    func container<K: CodingKey>(keyedBy type: K.Type) throws -> KeyedDecodingContainer<K> {
        opened(.keyed)
        return KeyedDecodingContainer(ShapeKeyedContainer<K>(recorder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        opened(.unkeyed)
        return ShapeUnkeyedContainer(depth: depth)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        opened(.single)
        return ShapeSingleValueContainer(depth: depth)
    }

    private func opened(_ container: Container) {
        first = first ?? container
        containers += 1
        if containers == 2 { keysBeforeSecondContainer = keys.count }
        if container != .keyed { transparent = false }
    }

    // MARK: Recording

    fileprivate func nextMarker() -> Int {
        counter += 1
        return 7_340_000 + counter
    }

    /// Notes a key read; it is optional when `decodeIfPresent` asked `decodeNil` for it just before.
    fileprivate func note(_ name: String, _ kind: Key.Kind) {
        if let checked = nilChecked, checked != name { transparent = false }
        var key = Key(name: name, kind: kind)
        key.optional = nilChecked == name
        keys.append(key)
        nilChecked = nil
    }

    /// A `decodeNil` not followed by a read of the same key is not a plain optional property.
    fileprivate func noteNilCheck(_ name: String) {
        if nilChecked != nil { transparent = false }
        nilChecked = name
    }
}

/// Why a type's shape cannot be read.
enum ProbeError: Error, CustomStringConvertible {
    case tooDeep(String)
    case failed(String, String)

    init<T>(_ error: any Error, type: T.Type) {
        self = error as? ProbeError ?? .failed(String(describing: type), String(describing: error))
    }

    var description: String {
        switch self {
        case .tooDeep(let type):
            "'\(type)' nests too deeply to describe (a recursive model whose recursion is not optional?)"
        case .failed(let type, let reason):
            "'\(type)' cannot be described from its Decodable conformance: \(reason). Make enums CaseIterable; give models plain stored properties"
        }
    }
}

private struct ShapeKeyedContainer<K: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: ShapeRecorder
    var codingPath: [any CodingKey] = []
    /// One key, so that a dictionary (or a type that walks its keys) has one entry.
    var allKeys: [K] { [K(stringValue: "key")].compactMap { $0 } }
    private var depth: Int { recorder.depth }

    init(recorder: ShapeRecorder) { self.recorder = recorder }

    func contains(_ key: K) -> Bool { true }
    func decodeNil(forKey key: K) throws -> Bool {
        if recorder.records {
            recorder.noteNilCheck(key.stringValue)
            return false
        }
        // Deep down, optionals are absent: a recursive model ends.
        return depth >= ShapeRecorder.maximumDepth / 2
    }
    func decode(_ type: Bool.Type, forKey key: K) throws -> Bool {
        guard recorder.records else { return false }
        recorder.note(key.stringValue, .bool)
        return true
    }
    func decode(_ type: String.Type, forKey key: K) throws -> String {
        guard recorder.records else { return "" }
        let marker = recorder.markers ? "\u{1F}probe-\(recorder.nextMarker())" : ""
        recorder.note(key.stringValue, .string(marker))
        return marker
    }
    func decode(_ type: Double.Type, forKey key: K) throws -> Double {
        guard recorder.records else { return 0 }
        let marker = recorder.markers ? Double(recorder.nextMarker()) + 0.5 : 0
        recorder.note(key.stringValue, .double(marker))
        return marker
    }
    func decode(_ type: Int.Type, forKey key: K) throws -> Int {
        guard recorder.records else { return 0 }
        let marker = recorder.markers ? recorder.nextMarker() : 0
        recorder.note(key.stringValue, .int(marker))
        return marker
    }
    // Other widths are shown as numbers by the bridge but need range checks: the typed way.
    func decode(_ type: Float.Type, forKey key: K) throws -> Float { narrow(0) }
    func decode(_ type: Int8.Type, forKey key: K) throws -> Int8 { narrow(0) }
    func decode(_ type: Int16.Type, forKey key: K) throws -> Int16 { narrow(0) }
    func decode(_ type: Int32.Type, forKey key: K) throws -> Int32 { narrow(0) }
    func decode(_ type: Int64.Type, forKey key: K) throws -> Int64 { narrow(0) }
    func decode(_ type: UInt.Type, forKey key: K) throws -> UInt { narrow(0) }
    func decode(_ type: UInt8.Type, forKey key: K) throws -> UInt8 { narrow(0) }
    func decode(_ type: UInt16.Type, forKey key: K) throws -> UInt16 { narrow(0) }
    func decode(_ type: UInt32.Type, forKey key: K) throws -> UInt32 { narrow(0) }
    func decode(_ type: UInt64.Type, forKey key: K) throws -> UInt64 { narrow(0) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: K) throws -> T {
        if recorder.records {
            recorder.note(key.stringValue, .nested(plan: { $0.readingPlan(for: T.self) }, plain: T.self, optional: T?.self))
        }
        return try ShapeRecorder.sample(type, depth: depth)
    }
    func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: K) throws -> KeyedDecodingContainer<N> {
        notPlain()
        return try ShapeRecorder.below(depth).container(keyedBy: N.self)
    }
    func nestedUnkeyedContainer(forKey key: K) throws -> any UnkeyedDecodingContainer {
        notPlain()
        return ShapeUnkeyedContainer(depth: depth + 1)
    }
    func superDecoder() throws -> any Decoder {
        notPlain()
        return ShapeRecorder.below(depth)
    }
    func superDecoder(forKey key: K) throws -> any Decoder { try superDecoder() }

    private func narrow<N>(_ zero: N) -> N {
        notPlain()
        return zero
    }

    private func notPlain() {
        if recorder.records { recorder.transparent = false }
    }
}

private struct ShapeUnkeyedContainer: UnkeyedDecodingContainer {
    let depth: Int
    var codingPath: [any CodingKey] = []
    var currentIndex = 0
    var count: Int? { depth >= ShapeRecorder.maximumDepth / 2 ? 0 : 1 }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    init(depth: Int) { self.depth = depth }

    mutating func decodeNil() throws -> Bool { false }
    mutating func decode(_ type: Bool.Type) throws -> Bool { advance(false) }
    mutating func decode(_ type: String.Type) throws -> String { advance("") }
    mutating func decode(_ type: Double.Type) throws -> Double { advance(0) }
    mutating func decode(_ type: Float.Type) throws -> Float { advance(0) }
    mutating func decode(_ type: Int.Type) throws -> Int { advance(0) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { advance(0) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { advance(0) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { advance(0) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { advance(0) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { advance(0) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { advance(0) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { advance(0) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { advance(0) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { advance(0) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try ShapeRecorder.sample(type, depth: depth)
    }
    mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> {
        currentIndex += 1
        return try ShapeRecorder.below(depth).container(keyedBy: N.self)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return ShapeUnkeyedContainer(depth: depth + 1)
    }
    mutating func superDecoder() throws -> any Decoder { ShapeRecorder.below(depth) }

    private mutating func advance<T>(_ value: T) -> T {
        currentIndex += 1
        return value
    }
}

private struct ShapeSingleValueContainer: SingleValueDecodingContainer {
    let depth: Int
    var codingPath: [any CodingKey] = []

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { false }
    func decode(_ type: String.Type) throws -> String { "" }
    func decode(_ type: Double.Type) throws -> Double { 0 }
    func decode(_ type: Float.Type) throws -> Float { 0 }
    func decode(_ type: Int.Type) throws -> Int { 0 }
    func decode(_ type: Int8.Type) throws -> Int8 { 0 }
    func decode(_ type: Int16.Type) throws -> Int16 { 0 }
    func decode(_ type: Int32.Type) throws -> Int32 { 0 }
    func decode(_ type: Int64.Type) throws -> Int64 { 0 }
    func decode(_ type: UInt.Type) throws -> UInt { 0 }
    func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
    func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
    func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
    func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try ShapeRecorder.sample(type, depth: depth) }
}
