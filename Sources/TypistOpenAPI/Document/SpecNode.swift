import APIScript
import Foundation
#if canImport(Yams)
import Yams
import TypistText
#endif

/// A document's tree — YAML or JSON — with its objects' keys in the order written, so that
/// fields, parameters and operations keep the order their authors gave them.
package enum SpecNode: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SpecNode])
    case object([(key: String, value: SpecNode)])

    /// The value under `key`, when this is an object that has it.
    package subscript(key: String) -> SpecNode? {
        guard case .object(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    package var string: String? {
        switch self {
        case .string(let text): text
        case .number(let number): Self.text(of: number)
        case .bool(let flag): String(flag)
        default: nil
        }
    }

    /// A number as a document or a query writes it: `30`, not `30.0`; `2.5` as it is.
    package static func text(of number: Double) -> String {
        // Every integral Double below 2^63 converts to Int exactly: `9007199254740993` reads as a
        // count, not `9.007199254740992e+15`.
        number.rounded() == number && abs(number) < 0x1p63 ? String(Int(number)) : String(number)
    }

    package var bool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    package var array: [SpecNode]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    package var entries: [(key: String, value: SpecNode)]? {
        if case .object(let entries) = self { return entries }
        return nil
    }

    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The node as a script value (objects as dictionaries): a default, an example, an enum case.
    package var value: Value {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number):
            if number.rounded() == number, let whole = Int(exactly: number) { return .int(whole) }
            return .double(number)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.map(\.value))
        case .object(let entries):
            var dictionary: [String: Value] = [:]
            for (key, value) in entries { dictionary[key] = value.value }
            return .dictionary(dictionary)
        }
    }

    /// Reads a document's text: YAML (which JSON is a form of) when YAML is built in, else JSON.
    ///
    /// - Throws: ``SpecError`` saying where the text is not YAML or JSON.
    package static func parse(_ text: String, name: String) throws(SpecError) -> SpecNode {
        #if canImport(Yams)
        // Most documents are block YAML that the block reader takes without Yams' node tree.
        if let node = try? BlockYAMLReader.read(text) { return node }
        return try parsedByYams(text)
        #else
        do throws(JSONReader.Failure) {
            return SpecNode(try JSONReader.parse(Data(text.utf8)), depth: 0)
        } catch {
            let yaml = text.first.map { $0 != "{" && $0 != "[" } ?? false
            throw SpecError("not JSON (\(error))" + (yaml ? "; this build reads YAML documents only with the YAML trait" : ""))
        }
        #endif
    }

    #if canImport(Yams)
    /// Reads a document's text with Yams (YAML, which JSON is a form of).
    package static func parsedByYams(_ text: String) throws(SpecError) -> SpecNode {
        do {
            // The basic resolver leaves every scalar a string (Yams' own resolution runs regular
            // expressions on each, most of the time of a large document); ``scalar(_:plain:)``
            // resolves plain ones by YAML 1.2's core schema.
            guard let node = try Yams.compose(yaml: text, .basic) else { throw SpecError("it is empty") }
            // Aliases are shared in Yams' tree but copied here: a few hundred bytes of aliases
            // of aliases ("billion laughs") would expand to billions of values. A text without
            // aliases has fewer values than bytes, so this bound refuses only expansion.
            var budget = max(text.utf8.count, 1_000_000)
            return try SpecNode(node, depth: 0, budget: &budget)
        } catch let error as SpecError {
            throw error
        } catch {
            // A JSON text YAML 1.1 refuses (a tab between tokens, an escaped '/') is still JSON.
            if let json = try? JSONReader.parse(Data(text.utf8)) { return SpecNode(json, depth: 0) }
            throw SpecError("not YAML or JSON: " + Self.firstLines(of: String(describing: error)))
        }
    }
    #endif

    /// A parser's message in one line: its first two lines (where, and what), at most 240 characters
    /// (the rest quotes the document, which may be one enormous line).
    static func firstLines(of message: String) -> String {
        let lines = message.split(whereSeparator: \.isNewline).prefix(2).map { $0.trimmingCharacters(in: .whitespaces) }
        let joined = TerminalText.sanitized(lines.joined(separator: " "))
        return joined.count > 240 ? String(joined.prefix(240)) + "…" : joined
    }

    /// Nesting a document may have; deeper is refused rather than recursed into.
    static let maximumDepth = 256

    #if canImport(Yams)
    private init(_ node: Node, depth: Int, budget: inout Int) throws {
        guard depth < Self.maximumDepth else { throw SpecError("the document nests deeper than \(Self.maximumDepth) levels") }
        budget -= 1
        guard budget >= 0 else {
            throw SpecError("its aliases expand it beyond any document of its size (a \"billion laughs\"?): refused")
        }
        switch node {
        case .scalar(let scalar):
            self = Self.scalar(scalar.string, plain: scalar.style == .plain || scalar.style == .any)
        case .mapping(let mapping):
            var entries: [(key: String, value: SpecNode)] = []
            entries.reserveCapacity(mapping.count)
            for (key, value) in mapping {
                let name: String = if case .scalar(let scalar) = key { scalar.string } else { "" }
                entries.append((name, try SpecNode(value, depth: depth + 1, budget: &budget)))
            }
            self = .object(entries)
        case .sequence(let sequence):
            var elements: [SpecNode] = []
            elements.reserveCapacity(sequence.count)
            for element in sequence { elements.append(try SpecNode(element, depth: depth + 1, budget: &budget)) }
            self = .array(elements)
        case .alias:
            self = .null
        }
    }
    #endif

    /// A scalar's value by YAML 1.2's core schema: a plain `null`, `~` or nothing is null, `true`
    /// and `false` booleans, decimal, octal (`0o`) and hexadecimal (`0x`) integers and decimal
    /// floats numbers (`.inf`, `.nan` too); everything else, and every quoted scalar, a string.
    static func scalar(_ text: String, plain: Bool) -> SpecNode {
        guard plain else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .number(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .number(-.infinity)
        case ".nan", ".NaN", ".NAN": return .number(.nan)
        default: break
        }
        let utf8 = text.utf8
        guard let first = utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return .string(text) }
        if text.hasPrefix("0x"), let value = Int(text.dropFirst(2), radix: 16) { return .number(Double(value)) }
        if text.hasPrefix("0o"), let value = Int(text.dropFirst(2), radix: 8) { return .number(Double(value)) }
        // `[-+]? ( \.[0-9]+ | [0-9]+ ( \.[0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
        var index = utf8.startIndex
        func digits() -> Int {
            var count = 0
            while index < utf8.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(utf8[index]) {
                utf8.formIndex(after: &index)
                count += 1
            }
            return count
        }
        func take(_ byte: UInt8) -> Bool {
            guard index < utf8.endIndex, utf8[index] == byte else { return false }
            utf8.formIndex(after: &index)
            return true
        }
        _ = take(UInt8(ascii: "-")) || take(UInt8(ascii: "+"))
        let whole = digits()
        var fraction = 0
        if take(UInt8(ascii: ".")) { fraction = digits() } else if whole == 0 { return .string(text) }
        guard whole > 0 || fraction > 0 else { return .string(text) }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            _ = take(UInt8(ascii: "-")) || take(UInt8(ascii: "+"))
            guard digits() > 0 else { return .string(text) }
        }
        guard index == utf8.endIndex, let value = Double(text) else { return .string(text) }
        return .number(value)
    }

    /// A JSON value read without YAML (its objects' keys sorted, as a dictionary has no order).
    private init(_ value: Value, depth: Int) {
        switch value {
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .number(Double(number))
        case .double(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map { SpecNode($0, depth: depth + 1) })
        case .dictionary(let entries):
            self = .object(entries.keys.sorted().map { ($0, SpecNode(entries[$0] ?? .null, depth: depth + 1)) })
        default: self = .null
        }
    }
}

/// A document that cannot be read or used, in words.
package struct SpecError: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
