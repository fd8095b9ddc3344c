import Foundation

// The three containers of ``TapeDecoder``. Each answers as `JSONDecoder`'s would, or throws the
// decoder's ``TapeDecoder/Declined`` (marking the whole decoding for `JSONDecoder` to decide):
// wherever `JSONDecoder` throws, and wherever it might answer differently.

/// An object's values by key.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    let object: Int
    let path: CodingPathNode?

    var codingPath: [any CodingKey] { CodingPathNode.keys(to: path) }

    var allKeys: [Key] { decoder.keys(of: object).compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        // A lookup that cannot be sure has marked the decoding declined; `false` is then not used.
        ((try? decoder.find(key, in: object)) ?? nil) != nil
    }

    /// The token of `key`'s value; a missing key is `JSONDecoder`'s `keyNotFound`.
    private func value(_ key: Key) throws -> Int {
        guard let index = try decoder.find(key, in: object) else { throw decoder.decline() }
        return index
    }

    /// The token of `key`'s value unless it is missing or null (`decodeIfPresent`).
    private func presentValue(_ key: Key) throws -> Int? {
        guard let index = try decoder.find(key, in: object), !decoder.isNull(at: index) else { return nil }
        return index
    }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.isNull(at: try value(key)) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(at: value(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string(at: value(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.floatingPoint(type, at: value(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.floatingPoint(type, at: value(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(type, at: value(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(type, at: value(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.integer(type, at: value(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.integer(type, at: value(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.integer(type, at: value(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(type, at: value(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.integer(type, at: value(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.integer(type, at: value(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.integer(type, at: value(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.integer(type, at: value(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(type, at: value(key), key: key, parent: path)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try presentValue(key).map(decoder.bool) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentValue(key).map(decoder.string) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try presentValue(key).map { try decoder.floatingPoint(type, at: $0) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try presentValue(key).map { try decoder.floatingPoint(type, at: $0) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentValue(key).map { try decoder.integer(type, at: $0) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try presentValue(key).map { try decoder.integer(type, at: $0) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try presentValue(key).map { try decoder.unwrap(type, at: $0, key: key, parent: path) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.keyedContainer(at: value(key), path: CodingPathNode(key: key, parent: path))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.unkeyedContainer(at: value(key), path: CodingPathNode(key: key, parent: path))
    }

    // `JSONDecoder` gives a super decoder a null value where the key is missing; rare enough to leave to it.
    func superDecoder() throws -> any Decoder { throw decoder.decline() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw decoder.decline() }
}

/// An array's elements in order.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let array: Int
    let count: Int?
    let path: CodingPathNode?
    private(set) var currentIndex = 0
    /// The token of the current element.
    private var element: Int

    init(decoder: TapeDecoder, array: Int, count: Int, path: CodingPathNode?) {
        self.decoder = decoder
        self.array = array
        self.count = count
        self.path = path
        element = array + 1
    }

    var codingPath: [any CodingKey] { CodingPathNode.keys(to: path) }

    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    /// The current element's token, moving past it; past the end is `JSONDecoder`'s `valueNotFound`.
    private mutating func next() throws -> Int {
        guard !isAtEnd else { throw decoder.decline() }
        let index = element
        element = Int(decoder.token(index).next)
        currentIndex += 1
        return index
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw decoder.decline() }
        guard decoder.isNull(at: element) else { return false }
        _ = try next()
        return true
    }

    // A failed decode leaves the position where it was, as `JSONDecoder`'s does: read, then move on.
    private mutating func read<T>(_ decode: (TapeDecoder, Int) throws -> T) throws -> T {
        guard !isAtEnd else { throw decoder.decline() }
        let value = try decode(decoder, element)
        _ = try next()
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try read { try $0.bool(at: $1) } }
    mutating func decode(_ type: String.Type) throws -> String { try read { try $0.string(at: $1) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try read { try $0.floatingPoint(type, at: $1) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try read { try $0.floatingPoint(type, at: $1) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try read { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try read { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try read { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try read { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try read { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try read { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try read { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try read { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try read { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try read { try $0.integer(type, at: $1) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let key = IndexCodingKey(index: currentIndex)
        let path = path
        return try read { try $0.unwrap(type, at: $1, key: key, parent: path) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let node = CodingPathNode(key: IndexCodingKey(index: currentIndex), parent: path)
        return try read { try $0.keyedContainer(at: $1, path: node) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let node = CodingPathNode(key: IndexCodingKey(index: currentIndex), parent: path)
        return try read { try $0.unkeyedContainer(at: $1, path: node) }
    }

    mutating func superDecoder() throws -> any Decoder { throw decoder.decline() }
}

/// The value itself.
struct TapeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    let value: Int
    let path: CodingPathNode?

    var codingPath: [any CodingKey] { CodingPathNode.keys(to: path) }

    func decodeNil() -> Bool { decoder.isNull(at: value) }

    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool(at: value) }
    func decode(_ type: String.Type) throws -> String { try decoder.string(at: value) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.floatingPoint(type, at: value) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.floatingPoint(type, at: value) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type, at: value) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type, at: value) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type, at: value) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type, at: value) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type, at: value) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type, at: value) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type, at: value) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type, at: value) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type, at: value) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type, at: value) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unwrap(type, at: value, key: nil, parent: path) }
}
