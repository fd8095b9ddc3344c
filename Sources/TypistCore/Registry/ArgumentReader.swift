import APIScript
import Foundation
import TypedAPI

/// Conversions of script arguments in order, each failure pointing at its argument.
final class ArgumentReader {
    private let values: [Value]
    private var index = 0

    init(_ values: [Value]) { self.values = values }

    func next<T: ScriptArgument>(_ parameter: Parameter<T>) throws -> T {
        defer { index += 1 }
        let value = index < values.count ? values[index] : (parameter.defaultValue?.scriptValue ?? .null)
        do {
            return try T.fromScript(value)
        } catch {
            throw ArgumentError(index: index, message: error.message)
        }
    }
}
