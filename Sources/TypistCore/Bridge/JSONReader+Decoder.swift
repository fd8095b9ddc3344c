import APIScript
import Foundation

extension JSONReader {
    /// The value of `body` under `plan` as `decoder` would key it, or nil when the typed decoding
    /// must decide — also for every setting the reader does not follow (custom key strategies,
    /// JSON5, a top level assumed to be an object).
    static func value(from body: Data, plan: ReadingPlan, decoder: JSONDecoder) -> Value? {
        let snakeCase: Bool
        switch decoder.keyDecodingStrategy {
        case .useDefaultKeys: snakeCase = false
        case .convertFromSnakeCase: snakeCase = true
        default: return nil
        }
        guard !decoder.allowsJSON5, !decoder.assumesTopLevelDictionary else { return nil }
        return value(from: body, plan: plan, snakeCase: snakeCase)
    }
}
