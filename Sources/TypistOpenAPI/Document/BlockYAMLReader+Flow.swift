/// The block reader's flow collections: `[…]` and `{…}` on one line.
extension BlockYAMLReader {
    /// A flow collection or scalar on one line (a JSON-like `[…]` or `{…}`), from `index`.
    func flow(at index: inout Int, end: Int, depth: Int) throws(Outside) -> SpecNode {
        guard depth < Self.maximumDepth else { throw outside("nesting deeper than \(Self.maximumDepth)", index) }
        index = try skipSpaces(from: index)
        guard index < end else { throw outside("a flow collection over several lines", index) }
        switch bytes[index] {
        case UInt8(ascii: "["):
            var elements: [SpecNode] = []
            try flowEntries(at: &index, end: end, closing: UInt8(ascii: "]")) { (index: inout Int) throws(Outside) in
                elements.append(try flow(at: &index, end: end, depth: depth + 1))
            }
            return .array(elements)
        case UInt8(ascii: "{"):
            var entries: [(key: String, value: SpecNode)] = []
            try flowEntries(at: &index, end: end, closing: UInt8(ascii: "}")) { (index: inout Int) throws(Outside) in
                guard let key = try flowScalar(at: &index, end: end, isKey: true) else { throw outside("a flow mapping key that is not a scalar", index) }
                index = try skipSpaces(from: index)
                guard index < end, bytes[index] == Self.colon, index + 1 < end, bytes[index + 1] == Self.space else {
                    throw outside("a flow mapping key without ': '", index)
                }
                index += 1
                let value = try flow(at: &index, end: end, depth: depth + 1)
                try Self.refuseDuplicate(key.text, in: entries, at: index)
                entries.append((key.text, value))
            }
            return .object(entries)
        default:
            guard let scalar = try flowScalar(at: &index, end: end, isKey: false) else { throw outside("a flow value that is not a scalar", index) }
            return scalar.plain ? SpecNode.scalar(scalar.text, plain: true) : .string(scalar.text)
        }
    }

    /// The entries of a flow collection, from its opening bracket to just after `closing`: `entry`
    /// reads each one; commas between them, a trailing one allowed; all on this line.
    func flowEntries(at index: inout Int, end: Int, closing: UInt8,
                             _ entry: (inout Int) throws(Outside) -> Void) throws(Outside) {
        index += 1
        while true {
            index = try skipSpaces(from: index)
            guard index < end else { throw outside("a flow collection over several lines", index) }
            if bytes[index] == closing {
                index += 1
                return
            }
            try entry(&index)
            index = try skipSpaces(from: index)
            guard index < end else { throw outside("a flow collection over several lines", index) }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] != closing {
                throw outside("a flow collection entry that is not a value", index)
            }
        }
    }

    /// A scalar inside a flow collection: quoted, or plain up to `,`, a bracket or a brace. Plain
    /// ones with a `:` or `#` in them are outside (libyaml's versions read those differently).
    func flowScalar(at index: inout Int, end: Int, isKey: Bool) throws(Outside) -> (text: String, plain: Bool)? {
        let first = bytes[index]
        if first == UInt8(ascii: "'") || first == UInt8(ascii: "\"") {
            guard let quoted = try quotedOnOneLine(at: index, end: end) else { throw outside("a flow collection over several lines", index) }
            index = quoted.after
            return (quoted.text, false)
        }
        // In a flow collection libyaml starts no plain scalar with '?' or ':'.
        guard startsPlain(index), first != UInt8(ascii: "?"), first != Self.colon else { return nil }
        let start = index
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "[")
                || byte == UInt8(ascii: "{") { break }
            if isKey, byte == Self.colon, index + 1 < end, bytes[index + 1] == Self.space { break }
            if byte == Self.colon || byte == Self.hash || byte == Self.tab { throw outside("a ':', '#' or tab in a flow scalar", index) }
            index += 1
        }
        var last = index
        while last > start, bytes[last - 1] == Self.space { last -= 1 }
        return (string(start..<last), true)
    }
}
