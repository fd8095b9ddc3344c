// Leak probe for the APIScript front end: runs every input of a corpus through the harness's
// front-end steps (check, render, complete at the harness's cursor, needsMoreInput) several
// times, and prints the process's resident memory after each pass, freed memory returned first.
// LeakSanitizer cannot follow Swift's tagged pointers, so this is how a leak shows: resident
// memory that grows from pass to pass over the same inputs. Built by `Scripts/fuzz leaks`.

import Foundation

@main
struct LeakProbe {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            print("usage: leak-probe <corpus folder> [passes] [inputs]")
            exit(64)
        }
        let folder = arguments[1]
        let passes = max(2, arguments.count > 2 ? Int(arguments[2]) ?? 6 : 6)
        let limit = arguments.count > 3 ? Int(arguments[3]) ?? 2000 : 2000
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().prefix(limit)
        // Bytes as the fuzzer hands them over: invalid UTF-8 repaired, as the harness does.
        let inputs = names.compactMap { FileManager.default.contents(atPath: folder + "/" + $0) }
            .map { String(decoding: $0, as: UTF8.self) }
        let interpreter = Interpreter(output: { _ in })
        var resident: [Int] = []
        for pass in 1...passes {
            for text in inputs {
                let source = ScriptSource(name: "fuzz.api", text: text)
                _ = DiagnosticRenderer().render(interpreter.check(source, isPrompt: true))
                let cursor = text.utf8.count * Int(text.utf8.first ?? 0) / 255
                _ = interpreter.completions(for: text, cursor: cursor)
                if text.utf8.count < 512 { _ = interpreter.needsMoreInput(text) }
            }
            typealias Trim = @convention(c) (Int) -> Int32
            if let symbol = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(symbol, to: Trim.self)(0) }
            let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
            resident.append((Int(statm.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 4)
            print("pass \(pass): \(inputs.count) inputs, \(resident.last ?? 0) KB resident")
        }
        // The first pass warms caches up; after it, memory must stay flat (within 1 MB).
        let growth = (resident.last ?? 0) - resident[1]
        print(growth > 1024 ? "leak: \(growth) KB more after pass \(passes) than after pass 2" : "flat: \(growth) KB from pass 2 to \(passes)")
        exit(growth > 1024 ? 1 : 0)
    }
}
