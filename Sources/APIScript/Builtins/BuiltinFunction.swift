/// The built-in global functions.
enum BuiltinFunction: String, CaseIterable {
    case print, expect, env, int = "Int", double = "Double", string = "String", json, typeOf = "type", abs, min, max

    var summary: String {
        switch self {
        case .print: "print(_ items: Any..., separator: String = \" \", terminator: String = \"\\n\") — write values, as in Swift"
        case .expect: "expect(_ condition: Bool, _ message: String = \"\") — stop the script (exit status 1) when the condition is false, showing both sides"
        case .env: "env(_ name: String) -> String? — an environment variable"
        case .int: "Int(_ value) -> Int? — from a String (nil when not a number) or a Double"
        case .double: "Double(_ value) -> Double? — from a String or an Int"
        case .string: "String(_ value) -> String — any value as text"
        case .json: "json(_ text: String) -> Any — parse JSON into dynamic values"
        case .typeOf: "type(of: value) -> String — the value's type name"
        case .abs: "abs(_ x) -> the same type"
        case .min: "min(_ a, _ b, …) -> the smallest"
        case .max: "max(_ a, _ b, …) -> the largest"
        }
    }
}
