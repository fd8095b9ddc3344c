import APIScript
import Foundation
import TypedAPI

/// Names for the environment variables a saved session reads its secrets from.
enum SecretNames {
    /// `apiKey` → `API_KEY`, `X-Api-Key` → `X_API_KEY`.
    static func screamingSnakeCase(_ name: String) -> String {
        var result = ""
        var previous: Character?
        for character in name {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { result += "_" }
            result += character.isLetter || character.isNumber ? character.uppercased() : "_"
            previous = character
        }
        return result
    }
}
