/// A stream's item as the bytes its framing gave (an event's `data`, a line), not decoded: for a
/// caller that reads items whose type nobody declared (the shell's untyped stream), which may
/// not be JSON at all. ``ItemStream`` hands these over as they are, without a decoder, and an
/// answer of a type that is not a stream's is read as lines (as `curl -N` shows it).
package struct StreamItemBytes: Decodable, Sendable {
    /// The item's bytes.
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) { self.bytes = bytes }

    /// Not decoded from JSON: ``ItemStream`` makes it from the framing's bytes.
    package init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a stream item's bytes are not decoded"))
    }
}

/// An item type of the package's own that stands for "whatever the stream holds" (the shell's
/// untyped items, a document's JSON before it is typed): errors name the stream, never it.
package protocol UndeclaredStreamItem {}

extension StreamItemBytes: UndeclaredStreamItem {}

extension DecodingFailure {
    /// What errors call a stream's item of `type`: its Swift type, or `the stream's item` for the
    /// package's own stand-ins, whose names mean nothing to a user.
    package static func itemName(_ type: Any.Type) -> String {
        type is any UndeclaredStreamItem.Type ? undeclaredItemName : sugared(String(describing: type))
    }

    /// The name errors give an item whose type nobody declared.
    package static let undeclaredItemName = "the stream's item"
}
