import Foundation
import Synchronization
import APIScript
import TypistProcess

/// Type-checks Swift files against the built TypedAPI (`swift-check`), so a student sees the
/// compiler accept a typed design and refuse its misuse without building a project, and reads
/// what the common diagnostics mean in the pattern's terms.
public enum SwiftCheck {
    /// What `swiftc -typecheck` said.
    public struct Outcome: Sendable {
        /// Whether the files type-check.
        public var passed: Bool
        /// The compiler's diagnostics, as it printed them.
        public var diagnostics: String
        /// A reading of each common diagnostic found, in the pattern's terms.
        public var readings: [String]
    }

    /// Why the check could not run.
    public struct Unavailable: Error, CustomStringConvertible {
        /// What is missing, and what to do.
        public let description: String
    }

    /// The running executable's folder, found the portable way: Foundation's `Bundle.main`
    /// (`_NSGetExecutablePath` on macOS, `/proc/self/exe` on Linux), then `/proc/self/exe`, then
    /// the command's own path.
    static func executableFolder() -> URL? {
        if let url = Bundle.main.executableURL { return url.resolvingSymlinksInPath().deletingLastPathComponent() }
        if FileManager.default.fileExists(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        }
        guard let first = CommandLine.arguments.first, first.contains("/") else { return nil }
        return URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The built modules: `Modules/` beside the running executable (SwiftPM's layout), or the
    /// executable's own folder; `TYPIST_MODULES` overrides.
    public static func modulesDirectory() -> URL? {
        modulesDirectory(executableFolder: executableFolder(), environment: ProcessInfo.processInfo.environment)
    }

    static func modulesDirectory(executableFolder: URL?, environment: [String: String]) -> URL? {
        var candidates: [URL] = []
        if let path = environment["TYPIST_MODULES"], !path.isEmpty {
            candidates.append(URL(fileURLWithPath: path))
        }
        guard let executable = executableFolder else {
            return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("TypedAPI.swiftmodule").path) }
        }
        var folder = executable
        for _ in 0..<4 {
            candidates += [folder.appendingPathComponent("Modules"), folder]
            folder = folder.deletingLastPathComponent()
        }
        return candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("TypedAPI.swiftmodule").path)
        }
    }

    /// Type-checks `files` together, waiting for the compiler on a thread of its own so that the
    /// concurrency pool's threads stay free (a session's demo service and other tasks run there).
    public static func typecheck(_ files: [URL]) async throws -> Outcome {
        // The same files with the same contents type-check the same way against this process's
        // own modules: a second `:compile misuse` (or a lesson's check after its walk) is answered
        // at once, without another compiler run.
        let key = files.map { file in file.path + "\u{0}" + ((try? Data(contentsOf: file)).map { String(decoding: $0, as: UTF8.self) } ?? "") }
            .joined(separator: "\u{1}")
        if let known = outcomes.withLock({ $0[key] }) { return known }
        let outcome = try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try typecheckBlocking(files) }) }.start()
        }
        outcomes.withLock { known in
            // A bounded memory: a long session of edits keeps the latest few.
            if known.count >= 64 { known.removeAll() }
            known[key] = outcome
        }
        return outcome
    }

    /// The outcomes of this process's compiler runs, by their files' paths and contents.
    private static let outcomes = Mutex<[String: Outcome]>([:])

    /// Type-checks `files` together (Swift 6 mode) with the built modules importable; blocks until
    /// the compiler is done.
    public static func typecheckBlocking(_ files: [URL]) throws -> Outcome {
        guard let modules = modulesDirectory() else {
            throw Unavailable(description: "the built TypedAPI module was not found; run `swift build` in the Typist checkout first (or set TYPIST_MODULES)")
        }
        for file in files where !FileManager.default.fileExists(atPath: file.path) {
            throw Unavailable(description: "cannot read '\(file.path)'")
        }
        let maps = clangModuleMaps(beside: modules).flatMap { ["-Xcc", "-fmodule-map-file=" + $0.path] }
        let arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path] + maps + files.map(\.path)
        // Not Foundation's Process: its launch can crash the calling process on Linux (ChildProcess).
        let finished: ChildProcess.Finished
        do {
            finished = try ChildProcess.run(arguments, mergeErrors: true)
        } catch {
            throw Unavailable(description: "\(error); is the Swift toolchain on PATH?")
        }
        let text = String(decoding: finished.output, as: UTF8.self)
        return Outcome(passed: finished.termination == .exited(0), diagnostics: text, readings: readings(of: text))
    }

    /// One paragraph for each common diagnostic of the pattern that `text` contains.
    /// The module maps of the C modules the built Swift modules import (NIO's shims, CCurl …), so
    /// that a file importing `DemoService` or `TypedAPICurl` type-checks too: those the build wrote
    /// beside its products, and those in the package's and its dependencies' `Sources`.
    static func clangModuleMaps(beside modules: URL) -> [URL] {
        let manager = FileManager.default
        var maps: [URL] = []
        func add(_ url: URL) { if manager.fileExists(atPath: url.path) { maps.append(url) } }
        let build = modules.lastPathComponent == "Modules" ? modules.deletingLastPathComponent() : modules
        for name in (try? manager.contentsOfDirectory(atPath: build.path)) ?? [] where name.hasSuffix(".build") {
            add(build.appendingPathComponent(name).appendingPathComponent("module.modulemap"))
        }
        // The package root: the folder above `.build`.
        var root = build
        while root.pathComponents.count > 1, root.lastPathComponent != ".build" { root = root.deletingLastPathComponent() }
        guard root.lastPathComponent == ".build" else { return maps }
        let packages = [root.deletingLastPathComponent()] + ((try? manager.contentsOfDirectory(atPath: root.appendingPathComponent("checkouts").path)) ?? [])
            .map { root.appendingPathComponent("checkouts").appendingPathComponent($0) }
        for package in packages {
            let sources = package.appendingPathComponent("Sources")
            for target in (try? manager.contentsOfDirectory(atPath: sources.path)) ?? [] {
                add(sources.appendingPathComponent(target).appendingPathComponent("module.modulemap"))
                add(sources.appendingPathComponent(target).appendingPathComponent("include/module.modulemap"))
            }
        }
        return maps
    }

    public static func readings(of text: String) -> [String] {
        var found: [String] = []
        // Readings that name the types the compiler named come first; then the general ones,
        // unless a specific one already explains the same diagnostic.
        var explained: Set<String> = []
        for line in text.split(separator: "\n") {
            if let match = line.firstMatch(of: /cannot convert value of type '(.+?)' to specified type '(.+?)'/) {
                let (answered, asked) = (String(match.1), String(match.2))
                let reading = answered == "()"
                    ? "This call answers with no content — its Response is Void, as a 204 No Content is — so there is no '\(asked)' to read. Use the call for its effect (`try await client.send(…)`), and fetch the model with the endpoint that returns it (write-up 4: a request's result type fixes its response's; Void for a body-less answer is TypedAPI's)."
                    : "This call answers with '\(answered)', and the code asks for '\(asked)': the response type is part of the route's (or request's) type, so it cannot be read as another model. Ask for '\(answered)', or use the route that returns '\(asked)' (write-up 0's route coupled with its model; write-up 1's phantom response type)."
                if !found.contains(reading) { found.append(reading) }
                explained.insert("to specified type")
            }
            if line.contains("extra argument 'method'") {
                let reading = "The method is decided where the request is built, with its route: a caller cannot pass one beside it, so a route cannot be sent with the wrong method (write-up 2's facade, which builds each request from its route and method enums)."
                if !found.contains(reading) { found.append(reading) }
                explained.insert("extra argument")
            }
        }
        for (pattern, reading) in commonDiagnostics where text.contains(pattern) && !explained.contains(pattern) && !found.contains(reading) {
            found.append(reading)
        }
        return found
    }

    /// Substrings of swiftc's messages, and what they mean here.
    static let commonDiagnostics: [(String, String)] = [
        ("'AccessToken' and '()' be equivalent",
         "The endpoint's kind needs request data: a Bearer endpoint is sent with an AccessToken (`client.send(endpoint, with: token)`). Sending it without one is exactly what the kind exists to refuse (write-up 3)."),
        ("'nil' is not compatible with expected argument type 'AccessToken'",
         "The endpoint's kind needs request data: a Bearer endpoint is sent with an AccessToken, and no token (nil) is not one. Sending it without one is exactly what the kind exists to refuse (write-up 3)."),
        ("'()' and 'AccessToken' be equivalent",
         "A public endpoint takes no request data: drop `with: token` (write-up 3)."),
        ("missing argument for parameter 'with'",
         "This endpoint's kind needs request data, such as an AccessToken: pass it with `with:` (write-up 3)."),
        ("cannot convert value of type 'Endpoint<",
         "The endpoint's response type is part of its type: this one decodes into another model than the one asked for. Ask for the model the endpoint declares, or use the endpoint that returns the model you want (write-ups 0 and 1)."),
        ("to specified type",
         "The value's type comes from the endpoint: this endpoint decodes into another model than the one the code asks for. Use the endpoint that returns that model, or ask for the model this one declares (write-ups 0 and 1)."),
        ("cannot convert value of type 'Route<",
         "The route's model is part of its type: this route does not return the model asked for (write-up 0)."),
        ("cannot convert value of type 'Request<",
         "The request's response type is part of its type: it cannot be sent for another response (write-up 1)."),
        ("has no member",
         "The factory is declared for another response type (an `extension Endpoint where Response == …`), or not at all: `:endpoints` lists what exists."),
        ("carries no body",
         "The method's case holds the payload it may carry: `.get`, `.head` and `.delete` carry query items only, so a request with a body there cannot be written (write-up 1's methods that carry their payload)."),
        ("extra argument",
         "An argument the method or factory does not take — for example a method passed beside a route that already fixes it (write-up 2)."),
        ("incorrect argument label",
         "A label that does not match the declaration: `.post(body, query:)` takes the body first, then the query."),
        ("does not conform to protocol 'Decodable'",
         "A response type must be Decodable, so the client can decode the body into it."),
    ]
}

extension SwiftCheck {
    /// A line a misuse file marks as one the compiler must refuse, and why:
    /// `let images: BreedImages = …  // expected-error: cannot convert value …`.
    public struct ExpectedError: Sendable, Hashable, CustomStringConvertible {
        /// The file.
        public var file: URL
        /// The line (from 1).
        public var line: Int
        /// Text the compiler's error on that line must contain.
        public var text: String

        public var description: String { "\"\(text)\" on \(file.lastPathComponent):\(line)" }
    }

    static let marker = "// expected-error: "

    /// The marked lines of `files`.
    public static func expectedErrors(in files: [URL]) -> [ExpectedError] {
        files.flatMap { file -> [ExpectedError] in
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
            return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
                guard let mark = line.range(of: marker) else { return nil }
                let expected = line[mark.upperBound...].trimmingCharacters(in: .whitespaces)
                return expected.isEmpty ? nil : ExpectedError(file: file, line: index + 1, text: expected)
            }
        }
    }

    /// The marked lines the compiler's `diagnostics` do not refuse for their reason (an error
    /// on that line containing the text).
    public static func unmet(_ expected: [ExpectedError], in diagnostics: String) -> [ExpectedError] {
        let errors = diagnostics.split(separator: "\n").compactMap { line -> (file: String, line: Int, message: String)? in
            guard let match = line.firstMatch(of: /^(.+?):(\d+):\d+: error: (.*)$/), let number = Int(match.2) else { return nil }
            return (String(match.1), number, String(match.3))
        }
        return expected.filter { mark in
            !errors.contains { error in
                error.line == mark.line && error.message.contains(mark.text)
                    && URL(fileURLWithPath: error.file).standardizedFileURL.path == mark.file.standardizedFileURL.path
            }
        }
    }
}
