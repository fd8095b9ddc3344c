import DemoService
import FaultServer
import Foundation
import Testing
import TypistTesting
import TypistProcess
@testable import TypistCore
@testable import TypistOpenAPI

/// The Swift `typist generate` wrote for the demo's OpenAPI document (`Tests/GeneratedHost`) is
/// what it writes today, and gives the shell the same functions and types as the document itself.
@Suite("A host from generated Swift")
struct GeneratedHostTests {
    @Test("Tests/GeneratedHost/Generated is current (typist generate --check)")
    func current() async throws {
        try await withTemporaryFolder("typist-generated-host") { folder in
            let document = folder.appendingPathComponent("openapi.yaml")
            try DemoOpenAPI.document.write(to: document, atomically: true, encoding: .utf8)
            let generated = Built.packageRoot.appendingPathComponent("Tests/GeneratedHost/Generated").path
            let checked = try await Built.run("typist", ["generate", "--openapi", document.path, "--output", generated, "--check"],
                                              environment: ["XDG_CACHE_HOME": folder.path])
            #expect(checked.status == 0, "\(checked.error)")
            // The same bytes by URL: the same files (a header names the document by its title,
            // not by how it came).
            let server = try await DemoServer.start()
            let byURL: Built.Result
            do {
                byURL = try await Built.run("typist", ["generate", "--openapi", server.baseURL + "/openapi.yaml", "--output", generated, "--check"],
                                            environment: ["XDG_CACHE_HOME": folder.path])
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
            #expect(byURL.status == 0, "\(byURL.error)")
            #expect(byURL.standard.contains(" files match "), "\(byURL.standard)")
        }
    }

    @Test("Its registry gives scripts the document's functions and types")
    func sameTypes() async throws {
        let document = try OpenAPIDocument(text: DemoOpenAPI.document, name: "openapi.yaml")
        let expected = try EndpointRegistry { document }.typeSummary
        let host = try await Built.run("generated-host", [])
        #expect(host.status == 0, "\(host.error)")
        #expect(host.standard.split(separator: "\n").map(String.init) == expected)
    }

    /// A real document, its folder in Tests/GeneratedDocuments, and the operations generated there.
    struct RealDocument: Sendable, CustomStringConvertible {
        var argument: String
        var input: String
        var savedAs: String
        var folder: String
        var operations: [String]
        var description: String { argument }
    }

    static let realDocuments = [
        RealDocument(argument: "petstore", input: "pet-store-3.0.yaml", savedAs: "petstore.yaml", folder: "Petstore", operations: []),
        RealDocument(argument: "google-books", input: "google-books-3.0.yaml", savedAs: "google-books.yaml", folder: "GoogleBooks",
                     operations: ["books.volumes.list", "books.volumes.get", "books.bookshelves.list", "books.mylibrary.annotations.insert"]),
        RealDocument(argument: "ghes", input: "ghes-3.0.yaml", savedAs: "ghes.yaml", folder: "GHES",
                     operations: ["repos/get", "repos/list-for-org", "issues/list-for-repo", "issues/create", "pulls/list"]),
    ]

    @Test("Generated Swift for real documents (Petstore, Google Books, GitHub Enterprise) is current, compiles, and gives the document's types",
          .disabled(if: MirroredFile.unavailable != nil, "\(MirroredFile.unavailable ?? "")"),
          arguments: realDocuments)
    func realDocument(_ real: RealDocument) async throws {
        let text = try await MirroredFile.text(repository: "https://github.com/mattpolzin/OpenAPIKit", tag: "6.4.0", path: "Tests/inputs/\(real.input)")
        try await withTemporaryFolder("typist-real-document") { folder in
            let file = folder.appendingPathComponent(real.savedAs)
            try text.write(to: file, atomically: true, encoding: .utf8)
            let generated = Built.packageRoot.appendingPathComponent("Tests/GeneratedDocuments/\(real.folder)").path
            let selection = real.operations.flatMap { ["--operation", $0] }
            let checked = try await Built.run("typist", ["generate", "--openapi", file.path, "--output", generated, "--check"] + selection,
                                              environment: ["XDG_CACHE_HOME": folder.path])
            #expect(checked.status == 0, "\(checked.error)")
            let document = try OpenAPIDocument(text: text, name: real.savedAs)
            let chosen = document.operations.filter { real.operations.isEmpty || real.operations.contains($0.operationId ?? "") }
            #expect(chosen.count == (real.operations.isEmpty ? document.operationCount : real.operations.count))
            let expected = try EndpointRegistry { document }.typeSummary(only: Set(chosen.map(\.name)))
            let host = try await Built.run("generated-host", [real.argument])
            #expect(host.status == 0, "\(host.error)")
            #expect(host.standard.split(separator: "\n").map(String.init) == expected)
        }
    }

    @Test("A generated open model (additionalProperties) keeps the keys its fields do not name, decoded and encoded again")
    func openModel() async throws {
        let host = try await Built.run("generated-host", ["ghes-open"])
        #expect(host.status == 0, "\(host.error)")
        #expect(host.standard == """
            issues: read; other keys: [(key: "pages", value: "write")]
            {"checks":"none","issues":"read","pages":"write"}

            """, "\(host.standard)")
    }

    @Test("generate: an --operation or --tag the document does not have is an error; --check names a file it no longer writes")
    func selectionMistakes() async throws {
        try await withTemporaryFolder("typist-generate-selection") { folder in
            let document = folder.appendingPathComponent("openapi.yaml")
            try DemoOpenAPI.document.write(to: document, atomically: true, encoding: .utf8)
            let output = folder.appendingPathComponent("out").path
            let unknown = try await Built.run("typist", ["generate", "--openapi", document.path, "--output", output, "--operation", "psots", "--tag", "Nope"],
                                              environment: ["XDG_CACHE_HOME": folder.path])
            #expect(unknown.status == 64)
            #expect(unknown.error.contains("openapi.yaml has no tag 'Nope', no operation 'psots'"), "\(unknown.error)")
            #expect(!FileManager.default.fileExists(atPath: output))
            let written = try await Built.run("typist", ["generate", "--openapi", document.path, "--output", output, "--operation", "posts"],
                                              environment: ["XDG_CACHE_HOME": folder.path])
            #expect(written.standard.contains("for 1 of the 33 operations of openapi.yaml"), "\(written.standard)")
            // A model generate wrote before and writes no more is stale too.
            let leftOver = "// Generated by typist from openapi.yaml (fnv1a64:0): do not edit; run typist generate again.\n"
            try leftOver.write(toFile: output + "/Models/Gone.swift", atomically: true, encoding: .utf8)
            let checked = try await Built.run("typist", ["generate", "--openapi", document.path, "--output", output, "--operation", "posts", "--check"],
                                              environment: ["XDG_CACHE_HOME": folder.path])
            #expect(checked.status == 1)
            #expect(checked.error.contains("Models/Gone.swift (no longer generated)"), "\(checked.error)")
            // A run removes it; a Swift file of the team's own beside it stays.
            try "struct Ours {}\n".write(toFile: output + "/Models/Ours.swift", atomically: true, encoding: .utf8)
            let again = try await Built.run("typist", ["generate", "--openapi", document.path, "--output", output, "--operation", "posts"],
                                            environment: ["XDG_CACHE_HOME": folder.path])
            #expect(again.standard.contains("; removed 1 it wrote before and writes no more (Models/Gone.swift)"), "\(again.standard)")
            #expect(!FileManager.default.fileExists(atPath: output + "/Models/Gone.swift"))
            #expect(FileManager.default.fileExists(atPath: output + "/Models/Ours.swift"))
            let current = try await Built.run("typist", ["generate", "--openapi", document.path, "--output", output, "--operation", "posts", "--check"],
                                              environment: ["XDG_CACHE_HOME": folder.path])
            #expect(current.status == 0, "\(current.error)")
        }
    }
}

/// A file of a package in the machine's package mirror (git reads github.com from a local copy):
/// read with `git archive`, without the network.
enum MirroredFile {
    /// Why such files cannot be read here: no local mirror stands in for github.com.
    static let unavailable: String? = {
        guard let probe = try? ChildProcess.run(["git", "config", "--get-regexp", #"^url\..*\.insteadof$"#]) else {
            return "git is not installed"
        }
        let text = String(decoding: probe.output, as: UTF8.self)
        let mirrored = text.split(separator: "\n").contains { line in
            line.split(separator: " ").last == "https://github.com/" && !(line.split(separator: " ").first?.contains("://") ?? true)
        }
        return mirrored ? nil : "no local package mirror stands in for https://github.com/ (git config url.<path>.insteadOf), and tests do not reach the network"
    }()

    static func text(repository: String, tag: String, path: String) async throws -> String {
        try await withTemporaryFolder("typist-mirrored") { folder in
            let archive = folder.appendingPathComponent("file.tar").path
            let read = try await ProcessResult.run(["git", "archive", "--remote=\(repository)", "--output=\(archive)", tag, path])
            guard read.status == 0 else { throw ArchiveFailure(description: "git archive \(repository) \(tag) \(path): \(read.output)") }
            let unpacked = try await ProcessResult.run(["tar", "-xf", archive, "-C", folder.path])
            guard unpacked.status == 0 else { throw ArchiveFailure(description: "tar: \(unpacked.output)") }
            return try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
        }
    }

    /// The files of a package whose paths match `patterns` (git pathspecs), with their texts.
    static func files(repository: String, tag: String, patterns: [String]) async throws -> [(path: String, text: String)] {
        try await withTemporaryFolder("typist-mirrored") { folder in
            let archive = folder.appendingPathComponent("files.tar").path
            let read = try await ProcessResult.run(["git", "archive", "--remote=\(repository)", "--output=\(archive)", tag, "--"] + patterns)
            guard read.status == 0 else { throw ArchiveFailure(description: "git archive \(repository) \(tag): \(read.output)") }
            let unpacked = try await ProcessResult.run(["tar", "-xf", archive, "-C", folder.path])
            guard unpacked.status == 0 else { throw ArchiveFailure(description: "tar: \(unpacked.output)") }
            let listed = try await ProcessResult.run(["tar", "-tf", archive])
            return listed.output.split(separator: "\n").filter { !$0.hasSuffix("/") }.sorted().compactMap { path in
                (try? String(contentsOf: folder.appendingPathComponent(String(path)), encoding: .utf8)).map { (String(path), $0) }
            }
        }
    }

    struct ArchiveFailure: Error, CustomStringConvertible {
        var description: String
    }
}
