import APIScript
import Synchronization

/// A small host for language tests: a few functions over in-memory records.
enum TestHost {
    static let user = RecordType(name: "User", fields: [
        .init("id", .int), .init("name", .string), .init("email", .optional(.string)), .init("tags", .array(.string)),
    ])
    static let page = RecordType(name: "Page")

    static func user(_ id: Int) -> Value {
        .record(Record(type: user, values: [
            .int(id), .string("User \(id)"), id % 2 == 0 ? .string("u\(id)@example.org") : .null,
            .array(id % 3 == 0 ? [] : [.string("t\(id)"), .string("common")]),
        ]))
    }

    /// An interpreter with the test host's functions and a `token` global; output collected.
    static func interpreter(output: OutputBuffer) throws -> Interpreter {
        page.define([.init("total", .int), .init("users", .array(.record(user))), .init("next", .optional(.record(page)))])
        let interpreter = Interpreter(output: { text in output.text += text },
                                      environment: { $0 == "TEST_NAME" ? "golden" : nil })
        interpreter.register(user)
        interpreter.register(page)
        try interpreter.register(HostFunction(
            name: "fetchUser", parameters: [.init(label: "id", type: .int)], returnType: .record(user),
            summary: "one user") { arguments in
            guard case .int(let id) = arguments[0] else { return .null }
            guard id > 0 else { throw ArgumentError(index: 0, message: "'\(id)' is not a valid user id") }
            if id == 404 { throw TestFailure(message: "GET http://test/users/404: 404 Not Found\n{\"error\":\"no such user\"}") }
            return TestHost.user(id)
        })
        try interpreter.register(HostFunction(
            name: "fetchUsers", parameters: [.init(label: "count", type: .int, defaultValue: .int(3))],
            returnType: .record(page), summary: "a page of users") { arguments in
            guard case .int(let count) = arguments[0] else { return .null }
            return .record(Record(type: page, values: [.int(count), .array((1...max(1, count)).map(TestHost.user)), .null]))
        })
        try interpreter.register(HostFunction(
            name: "echo", parameters: [.init(label: nil, name: "text", type: .string)], returnType: .string) { arguments in
            arguments[0]
        })
        try interpreter.register(HostFunction(
            name: "rawJSON", parameters: [], returnType: .string) { _ in
            .string(#"{"name": "typist", "version": 1.5, "tags": ["swift", "api"], "nested": {"ok": true, "count": 3}}"#)
        })
        let token = Mutex<Value>(.null)
        try interpreter.register(HostGlobal(name: "token", type: .optional(.secret), get: { token.withLock { $0 } },
                                            set: { value in
                                                if case .string(let text) = value { token.withLock { $0 = .secret(text) } }
                                                else { token.withLock { $0 = value } }
                                            }))
        try interpreter.register(HostGlobal(name: "version", type: .string, get: { .string("1.0") }))
        return interpreter
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Collects what a script prints.
final class OutputBuffer {
    var text = ""
}
