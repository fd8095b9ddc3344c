/// A model that keeps the keys its fields do not name — as a JSON Schema object with
/// `additionalProperties` allows — in a stored `additionalProperties` dictionary: scripts see its
/// values as open records, its other keys read as members (`data.id`) and by subscript
/// (`data["last_modified"]`), shown and completed as the service sent them.
///
/// `typist generate` declares such models for a document's open objects and conforms them in its
/// registrations with an empty extension: `extension Bucket: AdditionalPropertiesModel {}`.
public protocol AdditionalPropertiesModel {
    /// The type of the values under the other keys (`JSONValue` for any JSON).
    associatedtype AdditionalValue: Decodable
    /// The keys the model's fields do not name, and their values, as decoded.
    var additionalProperties: [String: AdditionalValue] { get }
}

extension AdditionalPropertiesModel {
    /// The other keys' values, for the bridge (which sees the model as `Any`).
    var additionalPropertyValues: [String: Any] { additionalProperties.mapValues { $0 } }

    /// The other values' Swift type, for the bridge.
    static var additionalValueType: any Decodable.Type { AdditionalValue.self }
}
