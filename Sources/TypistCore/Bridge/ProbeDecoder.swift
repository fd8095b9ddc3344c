import Foundation

/// Builds a sample value of any `Decodable` type without data, so that its shape (field names,
/// field types) can be read before any call: every key is present, every array has one element,
/// every number is zero.
struct ProbeDecoder: Decoder {
    static let maximumDepth = 48
    let depth: Int
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyedContainer<Key>(depth: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { ProbeUnkeyedContainer(depth: depth) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { ProbeSingleValueContainer(depth: depth) }

    /// A sample value of `type`.
    static func sample<T: Decodable>(_ type: T.Type, depth: Int) throws -> T {
        guard depth < maximumDepth else { throw ProbeError.tooDeep(String(describing: type)) }
        if let known = knownSample(type) { return known }
        // Decoding first: most types are records, and asking a type for a conformance costs a scan
        // of every conformance in the process the first time.
        do {
            return try T(from: ProbeDecoder(depth: depth + 1))
        } catch {
            // An enum whose raw values the probe's zeros and empty strings do not match.
            if let caseIterable = type as? any CaseIterable.Type, let first = firstCase(caseIterable) as? T {
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
}

/// Why a type's shape cannot be read.
enum ProbeError: Error, CustomStringConvertible {
    case tooDeep(String)
    case failed(String, String)

    var description: String {
        switch self {
        case .tooDeep(let type):
            "'\(type)' nests too deeply to describe (a recursive model whose recursion is not optional?)"
        case .failed(let type, let reason):
            "'\(type)' cannot be described from its Decodable conformance: \(reason). Make enums CaseIterable; give models plain stored properties"
        }
    }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let depth: Int
    var codingPath: [any CodingKey] = []
    var allKeys: [Key] { [Key(stringValue: "key")].compactMap { $0 } }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { depth >= ProbeDecoder.maximumDepth / 2 }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { false }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { "" }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { 0 }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { 0 }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { 0 }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { 0 }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { 0 }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { 0 }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { 0 }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { 0 }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { 0 }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { 0 }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { 0 }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { 0 }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ProbeDecoder.sample(type, depth: depth)
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(depth: depth + 1))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        ProbeUnkeyedContainer(depth: depth + 1)
    }
    func superDecoder() throws -> any Decoder { ProbeDecoder(depth: depth + 1) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ProbeDecoder(depth: depth + 1) }
}

private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let depth: Int
    var codingPath: [any CodingKey] = []
    var currentIndex = 0
    var count: Int? { depth >= ProbeDecoder.maximumDepth / 2 ? 0 : 1 }
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
        return try ProbeDecoder.sample(type, depth: depth)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        currentIndex += 1
        return KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(depth: depth + 1))
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return ProbeUnkeyedContainer(depth: depth + 1)
    }
    mutating func superDecoder() throws -> any Decoder { ProbeDecoder(depth: depth + 1) }

    private mutating func advance<T>(_ value: T) -> T {
        currentIndex += 1
        return value
    }
}

private struct ProbeSingleValueContainer: SingleValueDecodingContainer {
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
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try ProbeDecoder.sample(type, depth: depth) }
}
