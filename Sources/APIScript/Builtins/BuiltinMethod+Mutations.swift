/// The methods that change the array in a variable (`var`): the compiler reads the array, hands it
/// here to change in place, and writes it back.
extension BuiltinMethod {
    static let mutations: [BuiltinMethod] = [
        mutation("append", labels: [nil], "append(_ newElement: Element)", "Adds the element at the end.",
                 example: "ids.append(4)", arguments: { [$0.element] }) { elements, values in
            try ScriptLimits.checkNesting(values[0])
            elements.append(values[0])
            return .void
        },
        mutation("append", labels: ["contentsOf"], "append(contentsOf newElements: [Element])",
                 "Adds the elements at the end, in order.",
                 example: "ids.append(contentsOf: [5, 6])", arguments: { [.array($0.element)] }) { elements, values in
            guard case .array(let more) = values[0] else { throw ScriptFailure("append(contentsOf:) needs an array") }
            elements.append(contentsOf: more)
            return .void
        },
        mutation("insert", labels: [nil, "at"], "insert(_ newElement: Element, at i: Int)",
                 "Puts the element at the position, moving the rest up.",
                 example: "ids.insert(0, at: 0)", arguments: { [$0.element, .int] }) { elements, values in
            guard case .int(let position) = values[1], position >= 0, position <= elements.count else {
                throw ScriptFailure("insert position is out of range for an array of \(elements.count) elements")
            }
            try ScriptLimits.checkNesting(values[0])
            elements.insert(values[0], at: position)
            return .void
        },
        mutation("remove", labels: ["at"], "remove(at i: Int) -> Element", "Takes out the element at the position.",
                 example: "ids.remove(at: 0)", arguments: { _ in [.int] }, result: { $0.element }) { elements, values in
            guard case .int(let position) = values[0], position >= 0, position < elements.count else {
                throw ScriptFailure("remove(at:) index is out of range for an array of \(elements.count) elements")
            }
            return elements.remove(at: position)
        },
        mutation("removeFirst", "removeFirst() -> Element", "Takes out the first element (an error when empty).",
                 example: "queue.removeFirst()", result: { $0.element }) { elements, _ in
            guard !elements.isEmpty else { throw ScriptFailure("cannot remove an element from an empty array") }
            return elements.removeFirst()
        },
        mutation("removeLast", "removeLast() -> Element", "Takes out the last element (an error when empty).",
                 example: "stack.removeLast()", result: { $0.element }) { elements, _ in
            guard !elements.isEmpty else { throw ScriptFailure("cannot remove an element from an empty array") }
            return elements.removeLast()
        },
        mutation("removeAll", "removeAll()", "Takes out every element.", example: "ids.removeAll()") { elements, _ in
            elements.removeAll()
            return .void
        },
    ]

    private static func mutation(_ name: String, labels: [String?] = [], _ declaration: String, _ summary: String,
                                 example: String, arguments: @escaping @Sendable (MethodCall) -> [ScriptType] = { _ in [] },
                                 result: @escaping @Sendable (MethodCall) -> ScriptType = { _ in .void },
                                 _ run: @escaping @Sendable (inout [Value], [Value]) throws -> Value) -> BuiltinMethod {
        BuiltinMethod(
            name, labels: [labels], on: .array, declaration, summary, example: example,
            type: { checker, call in
                checker.requireMutable(call)
                for (index, type) in arguments(call).enumerated() { checker.methodArgument(call, index, type) }
                return result(call)
            },
            .mutating(run))
    }
}
