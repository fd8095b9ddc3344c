/// Follows a key path's member names through a value.
enum KeyPathRunner {
    static func navigate(_ value: Value, _ names: [String]) throws -> Value {
        var current = value
        for name in names {
            current = try Members.dynamicMember(current, name, span: nil)
        }
        return current
    }
}
