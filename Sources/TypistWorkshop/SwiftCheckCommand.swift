import APIScript
import ArgumentParser
import Foundation
import TypedAPI
import Typist
import TypistCore
import TypistText

struct SwiftCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift-check", abstract: "Type-check Swift files against the built TypedAPI, and explain the common diagnostics.",
        discussion: "Exit status: 0 when the files type-check (with --expect-failure: when they do not), 1 otherwise.")

    @Argument(help: "The Swift files, checked together.")
    var files: [String]

    @Flag(help: "The files are a misuse the compiler must refuse.")
    var expectFailure = false
}

extension SwiftCheckCommand {
    /// `swift-check`: the compiler's diagnostics, a reading of the common ones, and a verdict.
    ///
    /// With `--expect-failure`, a refusal counts only for the misuse's reason: the files without
    /// an `// expected-error:` line (the design) must type-check by themselves, a `usage.swift`
    /// beside the misuse must compile against them, and each marked line must get an error
    /// containing its text.
    static func run(_ files: [String], expectFailure: Bool, output: ShellOutput) -> Int32 {
        let urls = files.map { URL(fileURLWithPath: $0) }
        func show(_ outcome: SwiftCheck.Outcome) {
            if !outcome.diagnostics.isEmpty { output.standard(TerminalText.sanitized(outcome.diagnostics).trimmingCharacters(in: .newlines) + "\n") }
            if !outcome.readings.isEmpty {
                output.standard("\nWhat this means:\n" + outcome.readings.map { "  • " + $0 }.joined(separator: "\n") + "\n")
            }
        }
        do {
            let marked = expectFailure ? SwiftCheck.expectedErrors(in: urls) : []
            if !marked.isEmpty {
                let misuseFiles = Set(marked.map { $0.file.standardizedFileURL })
                let design = urls.filter { !misuseFiles.contains($0.standardizedFileURL) }
                if !design.isEmpty {
                    let alone = try SwiftCheck.typecheckBlocking(design)
                    guard alone.passed else {
                        show(alone)
                        output.standard("✗ the design does not type-check by itself: a misuse's refusal counts only against a design that compiles\n")
                        return ExitStatus.failure
                    }
                }
                let usages = Set(misuseFiles.map { $0.deletingLastPathComponent().appendingPathComponent("usage.swift") })
                    .filter { FileManager.default.fileExists(atPath: $0.path) && !urls.map(\.standardizedFileURL).contains($0) }
                for usage in usages.sorted(by: { $0.path < $1.path }) {
                    let used = try SwiftCheck.typecheckBlocking(design + [usage])
                    guard used.passed else {
                        show(used)
                        output.standard("✗ \(usage.lastPathComponent) beside the misuse does not compile against this design: a refusal counts only when the design can be used\n")
                        return ExitStatus.failure
                    }
                }
            }
            let outcome = try SwiftCheck.typecheckBlocking(urls)
            show(outcome)
            switch (outcome.passed, expectFailure) {
            case (true, false):
                output.standard("✓ type-checks\n")
                return ExitStatus.success
            case (false, true):
                guard !marked.isEmpty else {
                    output.standard("✓ refused by the compiler (no line is marked `// expected-error: …`, so any refusal counts)\n")
                    return ExitStatus.success
                }
                let unmet = SwiftCheck.unmet(marked, in: outcome.diagnostics)
                guard unmet.isEmpty else {
                    output.standard("✗ refused, but not for the misuse's reason: expected " + unmet.map(\.description).joined(separator: "; ") + "\n")
                    return ExitStatus.failure
                }
                output.standard("✓ refused by the compiler for the misuse's reason: " + marked.map(\.description).joined(separator: "; ") + "\n")
                return ExitStatus.success
            case (true, true):
                output.standard("✗ this compiles, but it is a misuse the types should refuse\n")
                return ExitStatus.failure
            case (false, false):
                output.standard("✗ does not type-check\n")
                return ExitStatus.failure
            }
        } catch {
            output.error("swift-check: \(error)\n")
            return ExitStatus.usage
        }
    }
}
