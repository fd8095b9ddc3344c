import Foundation
import TypistText

/// A faster way to the value `JSONDecoder` would decode, for the documents and types it can be
/// sure of, declining the rest to `JSONDecoder` itself.
///
/// `JSONDecoder` pays a fixed price per call and per object (a dictionary of each object's keys, a
/// box per container) that dominates small documents: the items of a fast stream spent half their
/// time there. This decoder reads the document into a flat list of tokens (``JSONTape``), reused
/// from one document to the next, and looks keys up in place, starting after the key it found last.
///
/// It is only ever a shortcut, never a second opinion: whenever anything is not certain — a document
/// the tape declines, a number that is not a plain integer asked for as one, a type mismatch, a
/// missing key, `Data` or `Decimal`, a decoder setting it does not follow, or any error at all,
/// even one the model catches itself — ``decode(_:from:)`` returns `nil` and the caller asks
/// `JSONDecoder`, whose answer (the value, or its error) is the one that counts. What it does
/// return is the value `JSONDecoder` returns for the same bytes, which the tests check against
/// `JSONDecoder` document by document.
final class TapeDecoder: Decoder {
    /// How the decoder it follows reads dates (nil when not in a way this one follows).
    private let dates: JSONDecoder.DateDecodingStrategy?
    let userInfo: [CodingUserInfoKey: Any]
    /// Whether the decoder in force has settings this one follows.
    let isUsable: Bool

    @exclusivity(unchecked) private var tape = JSONTape()
    @exclusivity(unchecked) private var bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 0)
    @exclusivity(unchecked) private var count = 0
    /// Set on anything this decoder cannot be sure of, even when the model catches the error.
    @exclusivity(unchecked) private var declined = false

    /// The value being decoded as a whole (its token), and the path to it.
    @exclusivity(unchecked) private var current = 0
    @exclusivity(unchecked) private(set) var path: CodingPathNode?

    /// A decoder following `decoder`'s settings, when it can (``isUsable``): default keys and data,
    /// no JSON5, no top-level object assumed, non-conforming floats thrown, and dates deferred to
    /// `Date`, or as seconds or milliseconds since 1970, or ISO 8601.
    init(following decoder: JSONDecoder) {
        userInfo = decoder.userInfo
        var usable = !decoder.allowsJSON5 && !decoder.assumesTopLevelDictionary
        if case .useDefaultKeys = decoder.keyDecodingStrategy {} else { usable = false }
        if case .base64 = decoder.dataDecodingStrategy {} else { usable = false }
        if case .throw = decoder.nonConformingFloatDecodingStrategy {} else { usable = false }
        switch decoder.dateDecodingStrategy {
        case .deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601:
            dates = decoder.dateDecodingStrategy
        default:
            dates = nil
            usable = false
        }
        isUsable = usable
    }

    deinit { bytes.deallocate() }

    /// The value of `document` as `T`, or `nil` when `JSONDecoder` must decide (see the type's notes).
    func decode<T: Decodable>(_ type: T.Type, from document: UnsafeRawBufferPointer) -> T? {
        try? decodeOrDecline(type, from: document)
    }

    /// ``decode(_:from:)`` throwing ``Declined`` instead of returning `nil` (no optional of `T` to
    /// make: in unspecialized code each one is a look-up of its type). `isUTF8` says the caller has
    /// checked the bytes already.
    func decodeOrDecline<T: Decodable>(_ type: T.Type, from document: UnsafeRawBufferPointer, isUTF8: Bool = false) throws(Declined) -> T {
        guard isUsable, load(document, isUTF8: isUTF8) else { throw Declined() }
        declined = false
        path = nil
        let value: T
        do {
            value = try unwrap(type, at: 0, key: nil, parent: nil)
        } catch {
            throw Declined()
        }
        if declined { throw Declined() }
        return value
    }

    /// Copies `document` in (so that nothing a model keeps can outlive the bytes) and reads its
    /// tape; `false` for bytes that are not UTF-8 or a document the tape declines.
    private func load(_ document: UnsafeRawBufferPointer, isUTF8: Bool) -> Bool {
        if bytes.count < document.count {
            bytes.deallocate()
            bytes = .allocate(capacity: max(document.count, 2 * bytes.count))
        }
        count = document.count
        guard count > 0, let base = document.baseAddress else { return false }
        bytes.baseAddress?.initialize(from: base.assumingMemoryBound(to: UInt8.self), count: count)
        let input = UnsafeBufferPointer(rebasing: bytes[..<count])
        guard isUTF8 || UTF8Check.isValid(input) else { return false }
        return tape.read(input)
    }

    // MARK: Decoder

    var codingPath: [any CodingKey] { CodingPathNode.keys(to: path) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyedContainer(at: current, path: path)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(at: current, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TapeSingleValueContainer(decoder: self, value: current, path: path)
    }

    func keyedContainer<Key: CodingKey>(at index: Int, path: CodingPathNode?) throws -> KeyedDecodingContainer<Key> {
        guard tape.tokens[index].kind == .object else { throw decline() }
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(decoder: self, object: index, path: path))
    }

    func unkeyedContainer(at index: Int, path: CodingPathNode?) throws -> TapeUnkeyedContainer {
        guard tape.tokens[index].kind == .array else { throw decline() }
        return TapeUnkeyedContainer(decoder: self, array: index, count: Int(tape.tokens[index].end), path: path)
    }

    // MARK: Values

    /// Marks the decoding as declined and returns the error to throw.
    func decline() -> Declined {
        declined = true
        return Declined()
    }

    struct Declined: Error {}

    func token(_ index: Int) -> JSONTape.Token { tape.tokens[index] }

    /// `T` from the value at `index`: the types `JSONDecoder` treats itself as it does, the rest
    /// by their own `init(from:)` with this decoder at the value (`key` added to the path).
    func unwrap<T: Decodable>(_ type: T.Type, at index: Int, key: (any CodingKey)?, parent: CodingPathNode?) throws -> T {
        if T.self == Date.self {
            guard let date = try date(at: index, key: key, parent: parent) as? T else { throw decline() }
            return date
        }
        if T.self == URL.self {
            guard let url = URL(string: try string(at: index)) as? T else { throw decline() }
            return url
        }
        if T.self == Data.self || T.self == Decimal.self { throw decline() }
        let saved = enter(index, key: key, parent: parent)
        defer { (current, path) = saved }
        return try T(from: self)
    }

    /// Puts this decoder at the value at `index` (`key` added to the path); returns where it was,
    /// to go back to. Not a function taking a closure: in code not specialized for the value's
    /// type, the closure's type would be looked up at each value.
    private func enter(_ index: Int, key: (any CodingKey)?, parent: CodingPathNode?) -> (Int, CodingPathNode?) {
        let saved = (current, path)
        current = index
        if let key { path = CodingPathNode(key: key, parent: parent) } else { path = parent }
        return saved
    }

    private func date(at index: Int, key: (any CodingKey)?, parent: CodingPathNode?) throws -> Date {
        switch dates {
        case .secondsSince1970?:
            return Date(timeIntervalSince1970: try floatingPoint(Double.self, at: index))
        case .millisecondsSince1970?:
            return Date(timeIntervalSince1970: try floatingPoint(Double.self, at: index) / 1000.0)
        case .iso8601?:
            guard let date = try? Date.ISO8601FormatStyle().parse(try string(at: index)) else { throw decline() }
            return date
        default:
            // Deferred to `Date`, as `JSONDecoder` does: its own `init(from:)`.
            let saved = enter(index, key: key, parent: parent)
            defer { (current, path) = saved }
            return try Date(from: self)
        }
    }

    func isNull(at index: Int) -> Bool { tape.tokens[index].kind == .null }

    func bool(at index: Int) throws -> Bool {
        switch tape.tokens[index].kind {
        case .true: return true
        case .false: return false
        default: throw decline()
        }
    }

    func string(at index: Int) throws -> String {
        let token = tape.tokens[index]
        guard token.kind == .string else { throw decline() }
        let range = Int(token.start)..<Int(token.end)
        if token.isSimple { return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        return try unescaped(range)
    }

    /// A plain integer (no fraction, no exponent) that fits `T`; anything else is `JSONDecoder`'s.
    func integer<T: FixedWidthInteger>(_ type: T.Type, at index: Int) throws -> T {
        let token = tape.tokens[index]
        guard token.kind == .number, token.isSimple else { throw decline() }
        var position = Int(token.start)
        let end = Int(token.end)
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        var magnitude: UInt64 = 0
        while position < end {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(bytes[position] &- UInt8(ascii: "0")))
            guard !overflow, !carry else { throw decline() }
            magnitude = sum
            position += 1
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw decline() }
            let value = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
            guard let result = T(exactly: value) else { throw decline() }
            return result
        }
        guard let result = T(exactly: magnitude) else { throw decline() }
        return result
    }

    /// A number as `T`, read by the same C library call `JSONDecoder` makes; what overflows or
    /// underflows is `JSONDecoder`'s to refuse.
    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type, at index: Int) throws -> T {
        let token = tape.tokens[index]
        guard token.kind == .number else { throw decline() }
        let text = UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.end)])
        guard let value = T(String(decoding: text, as: UTF8.self)), value.isFinite else { throw decline() }
        if value == 0 {
            // Zero only when written with zeros alone (`JSONDecoder` refuses a zero result it takes
            // for an underflow, and its check misreads some exponents, such as `0e5`).
            guard text.allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else {
                throw decline()
            }
        }
        return value
    }

    /// Finds `key` in the object at `object`, starting after the key found last; the token of its value.
    func find(_ key: some CodingKey, in object: Int) throws -> Int? {
        let pairs = Int(tape.tokens[object].end)
        guard pairs > 0 else { return try absent(key) }
        var name = key.stringValue
        let after = Int(tape.tokens[object].next)
        let found: Int? = name.withUTF8 { wanted in
            guard let base = bytes.baseAddress else { return nil }
            var keyIndex = Int(tape.tokens[object].hint)
            for _ in 0..<pairs {
                let token = tape.tokens[keyIndex]
                let valueIndex = keyIndex + 1
                var nextKey = Int(tape.tokens[valueIndex].next)
                if nextKey >= after { nextKey = object + 1 }
                if Int(token.end - token.start) == wanted.count, Self.equal(base + Int(token.start), wanted) {
                    tape.tokens[object].hint = Int32(nextKey)
                    return valueIndex
                }
                keyIndex = nextKey
            }
            return nil
        }
        return try found ?? absent(key)
    }

    /// Whether the bytes at `start` are `wanted`'s: byte by byte, keys being short (a call to
    /// `memcmp` cost more than the comparison).
    @inline(__always)
    private static func equal(_ start: UnsafeMutablePointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<wanted.count where start[index] != wanted[index] { return false }
        return true
    }

    /// A key not among the object's (ASCII) keys is absent for `JSONDecoder` too, unless it is not
    /// ASCII itself: Unicode equality can match it to one that differs in bytes.
    private func absent(_ key: some CodingKey) throws -> Int? {
        var name = key.stringValue
        guard name.withUTF8(UTF8Check.isASCII) else { throw decline() }
        return nil
    }

    /// The keys of the object at `object`, in document order.
    func keys(of object: Int) -> [String] {
        var keys: [String] = []
        keys.reserveCapacity(Int(tape.tokens[object].end))
        var keyIndex = object + 1
        while keyIndex < Int(tape.tokens[object].next) {
            let token = tape.tokens[keyIndex]
            keys.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.end)]), as: UTF8.self))
            keyIndex = Int(tape.tokens[keyIndex + 1].next)
        }
        return keys
    }

    /// The string of the escaped bytes in `range`, read by the one reading of escapes we have (the
    /// tape checked them; a refusal would decline all the same).
    private func unescaped(_ range: Range<Int>) throws -> String {
        var index = range.lowerBound
        do throws(JSONEscape.Refusal) {
            return try JSONEscape.escapedString(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<count])),
                                                from: range.lowerBound, at: &index)
        } catch {
            throw decline()
        }
    }
}

/// The coding path to a value, one node per key, shared by the values under it.
final class CodingPathNode {
    let key: any CodingKey
    let parent: CodingPathNode?

    init(key: any CodingKey, parent: CodingPathNode?) {
        self.key = key
        self.parent = parent
    }

    static func keys(to node: CodingPathNode?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = node
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }
}

/// The key of an array's element in a coding path.
struct IndexCodingKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
