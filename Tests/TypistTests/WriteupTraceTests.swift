import DemoBindings
import Foundation
import Testing
@testable import TypistCore
@testable import TypistWorkshop

/// What the lessons and the glossary say about the write-ups can be traced to the write-ups: each
/// lesson quotes the lines its claims rest on, and each glossary term is a name its write-up uses.
/// The write-ups themselves are not part of the project (they are public articles); the checks
/// against their text run where they are found (`TYPIST_WRITEUPS`, or `../shared/seeds` beside the
/// checkout).
@Suite("Claims about the write-ups")
struct WriteupTraceTests {
    /// The folder of the five write-ups, if this machine has it.
    static let folder: URL? = {
        let candidates = [ProcessInfo.processInfo.environment["TYPIST_WRITEUPS"].map { URL(fileURLWithPath: $0) },
                          Built.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/seeds")].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("README.md").path) }
    }()

    /// Write-up `number`'s text, with Markdown emphasis dropped and runs of white space made one space.
    static func writeup(_ number: Int) throws -> String {
        let folder = try #require(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let name = try #require(names.first { $0.hasPrefix(String(format: "%03d_", number)) })
        return normalized(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
    }

    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: "*", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("Every lesson quotes the lines of its write-up that its claims rest on, and shows them when it starts")
    func lessonsQuote() async throws {
        for lesson in WorkshopTests.lessons {
            #expect(lesson.quotes.count >= 3, "\(lesson.title)")
        }
        try await withDemoShell { shell, output, _ in
            shell.useLessons(WorkshopTests.lessons)
            await shell.handle(":lesson 4")
            #expect(output.standard.contains("\n  “With generics there is actually no way for client to mess up with types of response data.”\n"),
                    "\(output.standard)")
        }
    }

    @Test("Each quote is in its write-up, as written", .enabled(if: folder != nil, "the write-ups are not on this machine (set TYPIST_WRITEUPS to their folder)"))
    func quotesAreTheWriteups() throws {
        for lesson in WorkshopTests.lessons {
            let text = try Self.writeup(lesson.number)
            for quote in lesson.quotes {
                #expect(text.contains(Self.normalized(quote)), "\(lesson.title): “\(quote)” is not in write-up \(lesson.number)")
            }
        }
    }

    @Test("Each glossary term is a name its write-up uses", .enabled(if: folder != nil, "the write-ups are not on this machine (set TYPIST_WRITEUPS to their folder)"))
    func glossaryTermsAreTheWriteups() throws {
        for entry in Glossary.entries {
            let text = try Self.writeup(entry.seed)
            #expect(text.contains(entry.term), "\(entry.term) is not in write-up \(entry.seed)")
        }
        // Write-up 1's publisher is `publisher(for:)`, which TypedAPICombine has under that name.
        let publisher = try #require(Glossary.entry("publisher"))
        #expect(publisher.typedAPI.contains("publisher(for:)"), "\(publisher.typedAPI)")
        #expect(try Self.writeup(1).contains("publisher(for: request)"))
    }
}
