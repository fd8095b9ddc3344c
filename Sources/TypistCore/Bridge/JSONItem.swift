import APIScript
import Foundation

/// Any JSON, decoded as a script value: the item type of a stream whose items have no Swift type
/// (an OpenAPI document's stream), read by the typed client as every stream is. It is never named
/// in an error (`JSONItem+UndeclaredStreamItem.swift`, outside the bridge, which the decoding fuzz
/// harness builds without TypedAPI).
package struct JSONItem: Decodable, Sendable {
    /// The item as JSON parses it (objects as dictionaries).
    package let value: Value

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let flag = try? container.decode(Bool.self) {
            value = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            value = .int(number)
        } else if let number = try? container.decode(Double.self) {
            value = .double(number)
        } else if let text = try? container.decode(String.self) {
            value = .string(text)
        } else if let elements = try? container.decode([JSONItem].self) {
            value = .array(elements.map(\.value))
        } else {
            value = .dictionary(try container.decode([String: JSONItem].self).mapValues(\.value))
        }
    }
}
