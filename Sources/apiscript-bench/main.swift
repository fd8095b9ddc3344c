// Times the interpreter on pure programs; Scripts/bench-interpreter runs it beside CPython.
import APIScript
import Foundation

let programs: [(name: String, source: String)] = [
    ("loop-sum-1M", "var s = 0\nfor i in 0..<1_000_000 { s += i }\ns"),
    ("map-filter-reduce-100k", "let xs = (0..<100_000).map { $0 }\nxs.map { $0 * 2 }.filter { $0 % 3 == 0 }.reduce(0, +)"),
]

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 7 : 7
var results: [String] = []
for program in programs {
    var times: [Double] = []
    var value = ""
    for _ in 0..<rounds {
        let interpreter = Interpreter(output: { _ in })
        let source = ScriptSource(name: program.name, text: program.source)
        let start = ContinuousClock.now
        let result = await interpreter.evaluate(source, isPrompt: true)
        let elapsed = ContinuousClock.now - start
        if result.failed {
            FileHandle.standardError.write(Data("\(program.name): \(result.errors)\n".utf8))
            exit(1)
        }
        value = result.value.map(ValueFormatter.literal) ?? ""
        times.append(Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
    }
    times.sort()
    let median = times[times.count / 2]
    results.append(#"{"name": "\#(program.name)", "median_s": \#(median), "value": "\#(value)"}"#)
}
print("[" + results.joined(separator: ", ") + "]")
