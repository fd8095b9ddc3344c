import APIScript
import Foundation
import TypedAPI

/// The unusual parameter values used to find where each argument lands in a path or query.
enum ProbeValues {
    static func value(for type: ScriptType, index: Int) -> Value {
        switch type.unwrapped {
        case .int: .int(900_001 + index)
        case .double: .double(900_001.5 + Double(index))
        case .bool: .bool(true)
        default: .string("__probe\(index)__")
        }
    }
}
