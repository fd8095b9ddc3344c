@testable import APIScript
import Foundation
import Testing

/// Random bytes and mutated corpus scripts through lexer, parser and checker: no crash, no hang.
/// `TYPIST_FUZZ_COUNT` sets how many inputs (25,000 by default: about 30 s in a debug build); the seed is fixed, so a run is
/// repeatable, and `TYPIST_FUZZ_SEED` varies it.
@Suite("Fuzzing the front end")
struct FuzzTests {
    static let defaultSeed: UInt64 = 0x7970_6973_7421

    @Test("Random and mutated inputs never crash or hang the lexer, parser or checker", .timeLimit(.minutes(30)))
    func fuzz() async throws {
        // Tens of seconds of CPU on a thread of its own: the concurrency pool stays free for the
        // tests that run beside this one (on two cores it has two threads).
        // (Expectations are checked here, in the test's task, not on that thread.)
        let corpus = GoldenTests.files.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.map { Array($0.utf8) }
        #expect(!corpus.isEmpty)
        let outcome = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Outcome, any Error>) in
            let thread = Thread {
                continuation.resume(with: Result { try Self.run(corpus: corpus) })
            }
            thread.stackSize = 64 << 20
            thread.start()
        }
        // Every input was taken: none crashed or hung the front end. (No clock is read: a hang
        // shows as the run never ending, which the time limit turns into a failure;
        // `Scripts/fuzz` runs the same front end under libFuzzer, with its per-input limit.)
        #expect(outcome.inputs == (ProcessInfo.processInfo.environment["TYPIST_FUZZ_COUNT"].flatMap(Int.init) ?? 25_000),
                "seed \(outcome.seed)")
    }

    struct Outcome: Sendable {
        var seed: UInt64
        var inputs: Int
    }

    static let swiftWriting = SwiftHostWriting(
        call: { function, arguments in
            "client.send(.\(function.name)(\(arguments.compactMap { $0?.text }.joined(separator: ", "))))"
        },
        global: { $0 },
        assignment: { "\($0) = \($1)" })

    private static func run(corpus: [[UInt8]]) throws -> Outcome {
        let count = ProcessInfo.processInfo.environment["TYPIST_FUZZ_COUNT"].flatMap(Int.init) ?? 25_000
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        let seed = ProcessInfo.processInfo.environment["TYPIST_FUZZ_SEED"].flatMap(UInt64.init) ?? defaultSeed
        var generator = Xorshift(seed: seed)
        var inputs = 0
        for iteration in 0..<count {
            let input = Self.input(iteration, corpus: corpus, generator: &generator)
            let text = String(decoding: input, as: UTF8.self)
            _ = interpreter.check(ScriptSource(name: "fuzz.api", text: text))
            if iteration % 8 == 0 { _ = interpreter.completions(for: text, cursor: text.utf8.count / 2) }
            // `:swift` over the same inputs: written, or refused with a reason, never a crash.
            if iteration % 4 == 1 { _ = interpreter.swift(for: text, isPrompt: iteration % 8 == 1, host: Self.swiftWriting) }
            inputs += 1
        }
        return Outcome(seed: seed, inputs: inputs)
    }

    static func input(_ iteration: Int, corpus: [[UInt8]], generator: inout Xorshift) -> [UInt8] {
        let alphabet = Array("{}()[]\"\\$.?!:;,=<>+-*/%&|_ \n\tletvarfuncifelseforinwhile0123456789abcxyz\u{00E9}".utf8)
        switch iteration % 4 {
        case 0:
            return (0..<Int(generator.next() % 96)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        case 1:
            return (0..<Int(generator.next() % 120)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
        default:
            var text = corpus[Int(generator.next() % UInt64(corpus.count))]
            let edits = 1 + Int(generator.next() % 4)
            for _ in 0..<edits where !text.isEmpty {
                let position = Int(generator.next() % UInt64(text.count))
                switch generator.next() % 4 {
                case 0: text = Array(text.prefix(position))
                case 1: text[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                case 2:
                    let other = corpus[Int(generator.next() % UInt64(corpus.count))]
                    let cut = Int(generator.next() % UInt64(max(1, other.count)))
                    text = Array(text.prefix(position)) + Array(other.suffix(from: min(cut, other.count)))
                default:
                    let other = Int(generator.next() % UInt64(text.count))
                    text.swapAt(position, other)
                }
            }
            return text
        }
    }
}

struct Xorshift {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
