// libFuzzer entry point for the APIScript front end and evaluator. Built by `Scripts/fuzz` together
// with the APIScript sources into one module (so the harness reaches the parser and checker
// directly) with -sanitize=fuzzer,address. Not part of the package.
//
// TYPIST_FUZZ_MODE=frontend (default): lex, parse, check, render, and complete at a cursor the input picks.
// TYPIST_FUZZ_MODE=eval: evaluate (lex, parse, check, compile, run) in a fresh interpreter, within a
// counted step budget (never a wall clock), against a few in-memory host functions; no network.

import Dispatch
import Foundation

private enum Mode { case frontend, eval }

private let mode: Mode = ProcessInfo.processInfo.environment["TYPIST_FUZZ_MODE"] == "eval" ? .eval : .frontend

private let item = RecordType(name: "Item", fields: [
    .init("id", .int), .init("name", .string), .init("tags", .array(.string)), .init("note", .optional(.string)),
])

private func record(_ id: Int) -> Value {
    .record(Record(type: item, values: [.int(id), .string("item \(id)"), .array([.string("a"), .string("b")]),
                                       id % 2 == 0 ? .null : .string("odd")]))
}

private func makeInterpreter() -> Interpreter {
    let interpreter = Interpreter(output: { _ in }, environment: { $0 == "NAME" ? "fuzz" : nil })
    interpreter.register(item)
    interpreter.stepLimit = 20_000
    try? interpreter.register(HostFunction(name: "item", parameters: [.init(label: "id", type: .int)],
                                           returnType: .record(item)) { arguments in
        guard case .int(let id) = arguments.first else { return .null }
        if id < 0 { throw ArgumentError(index: 0, message: "negative id") }
        return record(id)
    })
    try? interpreter.register(HostFunction(name: "items", parameters: [.init(label: "count", type: .int, defaultValue: .int(3))],
                                           returnType: .array(.record(item))) { arguments in
        guard case .int(let count) = arguments.first else { return .null }
        return .array((0..<max(0, min(count, 100))).map(record))
    })
    try? interpreter.register(HostFunction(name: "body", parameters: [], returnType: .string) { _ in
        .string(#"{"a": [1, 2.5, "x", null, true], "b": {"c": "\u001b[31m"}}"#)
    })
    return interpreter
}

/// One interpreter for the whole run, as a prompt session would have: state carries over.
nonisolated(unsafe) private var shared = makeInterpreter()
nonisolated(unsafe) private var runs = 0

/// The heap in use, from AddressSanitizer when it is linked in (`nil` otherwise).
private func currentAllocatedBytes() -> Int? {
    typealias Counter = @convention(c) () -> Int
    // A null handle is RTLD_DEFAULT: every loaded object.
    guard let symbol = dlsym(nil, "__sanitizer_get_current_allocated_bytes") else { return nil }
    return unsafeBitCast(symbol, to: Counter.self)()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    runs += 1
    // A fresh interpreter now and then; the heap in use is reported then, so a leak shows as
    // growth. (LeakSanitizer cannot follow Swift's pointers with tag bits in multi-payload enums,
    // so it reports every live `Value` as leaked: the script turns it off.)
    if runs % 1000 == 0 { shared = makeInterpreter() }
    if runs % 100_000 == 0, let bytes = currentAllocatedBytes() {
        let megabytes = Double(bytes) / 1_048_576
        FileHandle.standardError.write(Data("typist-fuzz: \(runs) runs, \(Int(megabytes.rounded())) MB allocated\n".utf8))
    }
    let source = ScriptSource(name: "fuzz.api", text: text)
    if mode == .eval {
        evaluate(source)
        return 0
    }
    let interpreter = shared
    let diagnostics = interpreter.check(source, isPrompt: true)
    _ = DiagnosticRenderer().render(diagnostics)
    // Completion at a place the input chooses (its first byte), as Tab anywhere on a line would.
    let length = text.utf8.count
    let cursor = size == 0 ? 0 : length * Int(data[0]) / 255
    _ = interpreter.completions(for: text, cursor: cursor)
    if length < 512 { _ = interpreter.needsMoreInput(text) }
    // `:swift`: the input written as Swift (or why it cannot be).
    _ = interpreter.swift(for: text, isPrompt: true, host: SwiftHostWriting.echo)
    return 0
}

/// Evaluates `source` in a fresh interpreter (what one script keeps in its globals, a 2 MiB string
/// say, would otherwise add up across runs), within the step budget. Evaluation lexes, parses and
/// checks first; the front end's other entry points (completion, `:swift`, rendering the checker's
/// diagnostics) are the frontend mode's, so that this mode spends its time evaluating.
private func evaluate(_ source: ScriptSource) {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) let target = makeInterpreter()
    Task {
        let result = await target.evaluate(source, isPrompt: true)
        if let value = result.value { _ = ValueFormatter.description(value) }
        _ = DiagnosticRenderer().render(result.diagnostics)
        done.signal()
    }
    done.wait()
}

extension SwiftHostWriting {
    /// Host calls and globals written plainly, for fuzzing and tests.
    static let echo = SwiftHostWriting(
        call: { function, arguments in
            "client.send(.\(function.name)(\(arguments.compactMap { $0?.text }.joined(separator: ", "))))"
        },
        global: { $0 },
        assignment: { "\($0) = \($1)" })
}
