// An argument conversion as a host wrote it against Typist 0.7.0 (an httpbin shell's own): it
// quotes the value it refuses with `ValueFormatter.literal`, which 0.8.0 hid and 0.10.0 restored,
// and with `Value`'s own rendering. Keep this file as it is; `CompatibilityHostTests` builds it.
import APIScript
import Foundation
import Typist

/// A UUID a script passes as a string.
struct ScriptUUID: ScriptArgument {
    let uuid: UUID

    static var scriptType: ScriptType { .string }

    static func fromScript(_ value: Value) throws(ArgumentConversionError) -> ScriptUUID {
        guard case .string(let text) = value, let uuid = UUID(uuidString: text) else {
            throw ArgumentConversionError("\(ValueFormatter.literal(value)) is not a UUID (\(value.literal); shown \(value))")
        }
        return ScriptUUID(uuid: uuid)
    }

    var scriptValue: Value { .string(uuid.uuidString) }
}
