import APIScript
import Foundation
#if canImport(Yams)
import Yams
#endif

/// A document's tree — YAML or JSON — with its objects' keys in the order written, so that
/// fields, parameters and operations keep the order their authors gave them.
package indirect enum SpecNode: Sendable {
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
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .bool(let flag): String(flag)
        default: nil
        }
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
        do {
            guard let node = try Yams.compose(yaml: text) else { throw SpecError("it is empty") }
            return try SpecNode(node, depth: 0)
        } catch let error as SpecError {
            throw error
        } catch {
            // A JSON text YAML 1.1 refuses (a tab between tokens, an escaped '/') is still JSON.
            if let json = try? JSONReader.parse(Data(text.utf8)) { return SpecNode(json, depth: 0) }
            throw SpecError("not YAML or JSON: " + Self.firstLines(of: String(describing: error)))
        }
        #else
        do throws(JSONReader.Failure) {
            return SpecNode(try JSONReader.parse(Data(text.utf8)), depth: 0)
        } catch {
            let yaml = text.first.map { $0 != "{" && $0 != "[" } ?? false
            throw SpecError("not JSON (\(error))" + (yaml ? "; this build reads YAML documents only with the YAML trait" : ""))
        }
        #endif
    }

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
    private init(_ node: Node, depth: Int) throws {
        guard depth < Self.maximumDepth else { throw SpecError("the document nests deeper than \(Self.maximumDepth) levels") }
        switch node {
        case .scalar(let scalar):
            switch node.tag.rawValue {
            case Tag.Name.null.rawValue: self = .null
            case Tag.Name.bool.rawValue: self = node.bool.map(SpecNode.bool) ?? .string(scalar.string)
            case Tag.Name.int.rawValue: self = node.int.map { .number(Double($0)) } ?? .string(scalar.string)
            case Tag.Name.float.rawValue: self = node.float.map(SpecNode.number) ?? .string(scalar.string)
            default: self = .string(scalar.string)
            }
        case .mapping(let mapping):
            var entries: [(key: String, value: SpecNode)] = []
            entries.reserveCapacity(mapping.count)
            for (key, value) in mapping {
                entries.append((key.string ?? "", try SpecNode(value, depth: depth + 1)))
            }
            self = .object(entries)
        case .sequence(let sequence):
            self = .array(try sequence.map { try SpecNode($0, depth: depth + 1) })
        case .alias:
            self = .null
        }
    }
    #endif

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
