import DemoBindings
import Foundation
import Testing
@testable import TypistCore
@testable import TypistWorkshop

/// `:compile`: the compiler's verdict inside a lesson's walk.
@Suite("Compiling in a lesson")
struct LessonCompileTests {
    @Test(":compile names the lesson's files: the untyped stage accepts the misuse, the typed design refuses it, and the step is done")
    func compileInTheWalk() async throws {
        try await withDemoShell { shell, output, _ in
            shell.useLessons(WorkshopTests.lessons)
            await shell.handle(":compile misuse")
            #expect(output.error.contains("no lesson is running to take 'misuse' from"), "\(output.all)")
            await shell.handle(":lesson 0")
            let lesson = try #require(WorkshopTests.lessons.first { $0.number == 0 })
            let index = try #require(lesson.steps.firstIndex { $0.input == ":compile before misuse" })
            for _ in 0..<index { await shell.handle(":next") }
            output.clear()
            #expect(await shell.handle(":compile before misuse"))
            #expect(output.standard.contains("✓ before.swift + misuse.swift: the compiler accepts it"), "\(output.all)")
            #expect(output.standard.contains("✓ step done"), "\(output.all)")
            await shell.handle(":next")
            output.clear()
            #expect(await shell.handle(":compile reference misuse") == false)
            #expect(output.error.contains("reference.swift + misuse.swift: the compiler refuses it"), "\(output.all)")
            // The lesson's files by name, not by the checkout's path.
            #expect(output.error.contains("\nmisuse.swift:4:"), "\(output.all)")
            #expect(!output.error.contains(lesson.directory.path), "\(output.all)")
            #expect(output.standard.contains("What this means:"), "\(output.all)")
            #expect(output.standard.contains("✓ step done, refused as it should be"), "\(output.all)")
            output.clear()
            await shell.handle(":compile nothing")
            #expect(output.error.contains("Lesson 0 — A route that knows its model has no 'nothing.swift'; it has before, misuse, reference, usage"),
                    "\(output.all)")
        }
    }

    @Test(":compile answers again from what the files hold now: an edit between two runs is seen")
    func editedBetweenRuns() async throws {
        try await withTemporaryFolder("typist-compile") { folder in
            let file = folder.appendingPathComponent("design.swift")
            try await withDemoShell { shell, output, _ in
                shell.useLessons(WorkshopTests.lessons)
                try "import TypedAPI\nlet answer: Int = 42\n".write(to: file, atomically: true, encoding: .utf8)
                #expect(await shell.handle(":compile \(file.path)"), "\(output.all)")
                try "import TypedAPI\nlet answer: Int = \"forty-two\"\n".write(to: file, atomically: true, encoding: .utf8)
                output.clear()
                #expect(await shell.handle(":compile \(file.path)") == false)
                #expect(output.error.contains("cannot convert value of type 'String' to specified type 'Int'"), "\(output.all)")
                try "import TypedAPI\nlet answer: Int = 42\n".write(to: file, atomically: true, encoding: .utf8)
                #expect(await shell.handle(":compile \(file.path)"), "\(output.all)")
            }
        }
    }

    @Test("Lesson 1's GET with a body is refused by TypedAPI by name, with the reason the walk's step looks for")
    func getWithBody() async throws {
        try await withDemoShell { shell, output, _ in
            shell.useLessons(WorkshopTests.lessons)
            await shell.handle(":lesson 1")
            #expect(await shell.handle(":compile reference get-body") == false)
            #expect(output.error.contains("a GET carries no body"), "\(output.all)")
            output.clear()
            // The same files by path, with no lesson needed.
            let folder = try #require(WorkshopTests.lessons.first { $0.number == 1 }).directory
            #expect(await shell.handle(":compile \(folder.path)/reference.swift \(folder.path)/usage.swift"))
            #expect(output.standard.contains("✓ reference.swift + usage.swift: the compiler accepts it"), "\(output.all)")
        }
    }
}
