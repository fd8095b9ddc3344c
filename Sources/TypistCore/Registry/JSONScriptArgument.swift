import APIScript
import Foundation

/// A `Codable` type that scripts pass as any JSON value (`body: ["name": "Rex", "tags": ["a"]]`),
/// converted by way of its JSON: what `typist generate` declares `JSONValue`, a document's
/// free-form body, conforms to, so that its `Register` lines can take it.
///
/// Conform with an empty extension: `extension JSONValue: JSONScriptArgument {}`.
public protocol JSONScriptArgument: ScriptArgument, Codable {}

extension JSONScriptArgument {
    /// Any JSON value.
    public static var scriptType: ScriptType { .any }

    /// The value written as JSON, decoded as `Self`; a value JSON cannot hold (a function, bytes)
    /// or JSON `Self` does not read is an error that says so.
    public static func fromScript(_ value: Value) throws(ArgumentConversionError) -> Self {
        let data: Data
        do {
            data = try JSONWriter.data(value)
        } catch {
            throw ArgumentConversionError("\(ValueFormatter.literal(value)) cannot be written as JSON: \(error)")
        }
        do {
            return try JSONDecoder().decode(Self.self, from: data)
        } catch {
            throw ArgumentConversionError("\(ValueFormatter.literal(value)) is not JSON \(Self.self) reads")
        }
    }

    /// The value's JSON, as a script value (`nil` for one that does not encode).
    public var scriptValue: Value {
        guard let data = try? JSONEncoder().encode(self), let value = try? JSONReader.parse(data) else { return .null }
        return value
    }
}
