import APIScript
import DemoBindings
import Foundation
import Testing
import TypistTesting
@testable import Typist
@testable import TypistCore
@testable import TypistWorkshop

/// The workshop: five lessons, one per write-up, each walked at the prompt and checked in Swift and
/// in a script — on the reference solutions (which pass) and on the "before" stage (which must not).
@Suite("The workshop")
struct WorkshopTests {
    static let lessons = (try? Lesson.load(from: DemoBindings.workshopDirectory)) ?? []

    @Test("Five lessons, in the write-ups' order, each with steps, a misuse diagnostic and its exercise files")
    func layout() throws {
        #expect(Self.lessons.map(\.number) == [0, 1, 2, 3, 4])
        for lesson in Self.lessons {
            #expect(lesson.steps.count >= 5, "\(lesson.title)")
            #expect(lesson.settings["misuse"] != nil, "\(lesson.title)")
            #expect(lesson.reading?.hasPrefix("write-up \(lesson.number), ") == true, "\(lesson.title): which write-up, and its idea")
            #expect(lesson.steps.allSatisfy { $0.input != nil }, "\(lesson.title): every step has a line to type")
            for file in ["before.swift", "reference.swift", "usage.swift", "misuse.swift", "exercise.api", "reference.api", "hidden.api"] {
                #expect(FileManager.default.fileExists(atPath: lesson.directory.appendingPathComponent(file).path), "\(lesson.title): \(file)")
            }
        }
    }

    @Test("Every lesson's walk runs by itself, each step's check holding", arguments: 0..<5)
    func walk(number: Int) async throws {
        let lesson = try #require(Self.lessons.first { $0.number == number })
        try await withDemoShell { shell, output, _ in
            shell.useLessons(Self.lessons)
            let status = await shell.runLesson(lesson, markdown: false)
            #expect(status == 0, "\(output.all)")
            #expect(output.standard.contains("✓ every step held"), "\(output.standard)")
        }
    }

    @Test("The checker passes every reference solution and refuses every before stage", arguments: 0..<5)
    func checker(number: Int) async throws {
        let lesson = try #require(Self.lessons.first { $0.number == number })
        for (design, script, passes) in [("reference.swift", "reference.api", true), ("before.swift", "exercise.api", false)] {
            try await withTemporaryFolder("typist-lesson") { folder in
                try FileManager.default.copyItem(at: lesson.directory.appendingPathComponent(design), to: folder.appendingPathComponent("design.swift"))
                try FileManager.default.copyItem(at: lesson.directory.appendingPathComponent(script), to: folder.appendingPathComponent("exercise.api"))
                try await withDemoShell { shell, output, _ in
                    let status = await shell.checkExercises(lesson, in: folder.path)
                    #expect((status == 0) == passes, "\(lesson.title) with \(design): \(output.all)")
                    if passes {
                        #expect(output.standard.contains("✓ swift misuse: the compiler refuses the misuse"), "\(output.standard)")
                    } else {
                        // The before stage lets the misuse compile: that is what the lesson fixes.
                        #expect(output.standard.contains("✗ swift misuse: the misuse compiles"), "\(output.standard)")
                        #expect(output.standard.contains("✗ api exercise"), "\(output.standard)")
                    }
                }
            }
        }
    }

    /// Designs written from a write-up alone, in its own spelling (`WriteupDesigns/lesson-N.swift`).
    static var writeupDesigns: [Int] {
        let folder = Built.packageRoot.appendingPathComponent("Tests/TypistTests/WriteupDesigns")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name in
            name.hasPrefix("lesson-") && name.hasSuffix(".swift") ? Int(name.dropFirst(7).dropLast(6)) : nil
        }.sorted()
    }

    @Test("A design written from the lesson's write-up alone passes its checks: the usage compiles, the misuse is refused for the lesson's reason",
          arguments: WorkshopTests.writeupDesigns)
    func writeupDesign(number: Int) async throws {
        let lesson = try #require(Self.lessons.first { $0.number == number })
        let design = Built.packageRoot.appendingPathComponent("Tests/TypistTests/WriteupDesigns/lesson-\(number).swift")
        try await withTemporaryFolder("typist-writeup") { folder in
            try FileManager.default.copyItem(at: design, to: folder.appendingPathComponent("design.swift"))
            try FileManager.default.copyItem(at: lesson.directory.appendingPathComponent("reference.api"), to: folder.appendingPathComponent("exercise.api"))
            try await withDemoShell { shell, output, _ in
                let status = await shell.checkExercises(lesson, in: folder.path)
                #expect(output.standard.contains("✓ swift usage"), "\(output.all)")
                #expect(output.standard.contains("✓ swift misuse: the compiler refuses the misuse"), "\(output.all)")
                #expect(status == 0, "\(output.all)")
            }
        }
    }

    @Test("lesson --check reads the lesson's own usage and misuse, and says so when the folder's copy was edited")
    func editedCopies() async throws {
        try await withTemporaryFolder("typist-edited") { folder in
            let exercises = folder.appendingPathComponent("lesson-0").path
            _ = try await Built.run("typist", ["lesson", "0", "--start", exercises])
            let untouched = try await Built.run("typist", ["lesson", "0", "--check", exercises])
            #expect(!untouched.error.contains("differs from the lesson's"), "\(untouched.error)")
            let usage = URL(fileURLWithPath: exercises).appendingPathComponent("usage.swift")
            try Data("// emptied\n".utf8).write(to: usage)
            let edited = try await Built.run("typist", ["lesson", "0", "--check", exercises])
            #expect(edited.error.contains("usage.swift in \(exercises) differs from the lesson's: the check reads the lesson's own"), "\(edited.error)")
        }
    }

    @Test("At the prompt: :lesson shows a step, doing it is noticed, :next and :back move, checks change nothing")
    func prompt() async throws {
        try await withDemoShell { shell, output, _ in
            shell.useLessons(Self.lessons)
            await shell.handle(":lesson")
            #expect(output.standard.contains(":lesson 3  Lesson 3 — Endpoint kinds"), "\(output.standard)")
            output.clear()
            await shell.handle(":lesson 0")
            #expect(output.standard.contains("Step 1 of 9: The catalogue of routes"), "\(output.standard)")
            #expect(output.standard.contains("type: :endpoints"), "\(output.standard)")
            output.clear()
            await shell.handle(":endpoints")
            #expect(output.standard.contains("✓ step done — :next for the next step"), "\(output.standard)")
            await shell.handle(":next")
            await shell.handle(":next")
            output.clear()
            await shell.handle("breeds().message.count - 1")
            #expect(!output.standard.contains("✓ step done"), "the check (last == 13) does not hold for 12")
            await shell.handle("breeds().message.count")
            #expect(output.standard.contains("✓ step done"), "\(output.standard)")
            let last = try await shell.evaluate("last")
            #expect(last == .int(13), "the check left `last` as it was")
            output.clear()
            await shell.handle(":back")
            #expect(output.standard.contains("Step 2 of 9"), "\(output.standard)")
            #expect(await shell.handle(":lesson 9") == false)
        }
    }

    @Test("A wrong answer says what the step looks for, without the answer; a step meant to fail is done when refused for its reason")
    func stepFeedback() async throws {
        try await withDemoShell { shell, output, _ in
            shell.useLessons(Self.lessons)
            await shell.handle(":lesson 0")
            await shell.handle(":next")
            await shell.handle(":next")
            output.clear()
            await shell.handle("breeds().message.keys.count - 1")
            #expect(output.standard.contains("✗ not yet: this step looks for a count — how many breeds the catalogue lists"),
                    "\(output.standard)")
            #expect(!output.standard.contains("13"), "the answer is not given away")
            output.clear()
            await shell.handle("post(id: 1).title")
            #expect(!output.standard.contains("not yet"), "exploring something else is not an attempt: \(output.standard)")
            // The last step: a line the checker must refuse.
            for _ in 0..<6 { await shell.handle(":next") }
            output.clear()
            #expect(output.standard.isEmpty)
            await shell.handle(":type breeds().message")
            #expect(output.standard.contains("✗ not yet: this step's line is meant to be refused, and it ran"), "\(output.standard)")
            await shell.handle(":type breeds().message[\"hound\"]?.uppercased()")
            #expect(output.standard.contains("✓ step done, refused as it should be — :next ends the lesson"), "\(output.all)")
            #expect(output.error.contains("has no member 'uppercased'"), "the error is still shown")
            // Past the end: where the exercises start, no path into the checkout; :back returns.
            output.clear()
            await shell.handle(":next")
            #expect(output.standard.contains("The exercises: typist lesson 0 --start ~/lesson-0"), "\(output.standard)")
            #expect(!output.standard.contains("/Workshop/"), "\(output.standard)")
            await shell.handle(":next")
            #expect(output.standard.contains("has ended: :back shows its last step"), "\(output.standard)")
            output.clear()
            await shell.handle(":back")
            #expect(output.standard.contains("Step 9 of 9"), "\(output.all)")
        }
        // Every step meant to fail, in every lesson, is refused for its reason when walked by itself.
        let refusing = Self.lessons.flatMap { lesson in lesson.steps.filter { $0.refused != nil }.map { (lesson, $0) } }
        #expect(refusing.count >= 5)
        for (lesson, step) in refusing {
            try await withDemoShell { shell, output, _ in
                shell.useLessons(Self.lessons)
                await shell.handle(":lesson \(lesson.number)")
                let index = try #require(lesson.steps.firstIndex { $0.title == step.title })
                for _ in 0..<index { await shell.handle(":next") }
                // Earlier steps' state (a login) is what lesson 3's refusal needs absent: a fresh session has none.
                output.clear()
                for line in (step.input ?? "").split(separator: "\n") { await shell.handle(String(line)) }
                #expect(output.standard.contains("✓ step done, refused as it should be"), "\(lesson.title), \(step.title): \(output.all)")
            }
        }
    }

    @Test("A handout is Markdown with every step's input and output; results come as JSON for the instructor")
    func handoutAndResults() async throws {
        let lesson = try #require(Self.lessons.first { $0.number == 3 })
        try await withDemoShell { shell, output, _ in
            _ = await shell.runLesson(lesson, markdown: true)
            #expect(output.standard.hasPrefix("# Lesson 3"), "\(output.standard.prefix(200))")
            #expect(output.standard.contains("## 2. Without a token, nothing is sent\n"), "\(output.standard)")
            #expect(output.standard.contains("```\ntypist> search(query: \"mug\")\n<input>:1:1: error: search(query:) needs an access token"),
                    "\(output.standard)")
        }
        // The built-in service's port changes every run: a handout shows PORT.
        let two = try #require(Self.lessons.first { $0.number == 2 })
        try await withDemoShell { shell, output, server in
            _ = await shell.runLesson(two, markdown: true)
            let port = try #require(server.baseURL.split(separator: ":").last)
            #expect(output.standard.contains("GET http://127.0.0.1:PORT/posts/999: 404 Not Found"), "\(output.standard)")
            #expect(!output.standard.contains("127.0.0.1:\(port)"))
        }
        try await withTemporaryFolder("typist-results") { base in
            let folder = base.appendingPathComponent("exercises")
            try await withDemoShell { shell, output, _ in
                #expect(shell.startExercises(lesson, in: folder.path) == 0)
                await shell.handle(":format json")
                output.clear()
                _ = await shell.checkExercises(lesson, in: folder.path)
                let line = try #require(output.standard.split(separator: "\n").last)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(object["lesson"] as? Int == 3)
                #expect(object["passed"] as? Bool == false)
                #expect((object["checks"] as? [[String: Any]])?.count == 3)
            }
        }
    }

    @Test("typist swift-check: the compiler's verdict, a reading of the diagnostic, and the exit status")
    func swiftCheck() async throws {
        let lesson = try #require(Self.lessons.first { $0.number == 3 })
        let design = lesson.directory.appendingPathComponent("reference.swift").path
        let misuse = lesson.directory.appendingPathComponent("misuse.swift").path
        let refused = try await Built.run("typist", ["swift-check", design, misuse, "--expect-failure"])
        #expect(refused.status == 0, "\(refused.standard)\(refused.error)")
        #expect(refused.standard.contains("'nil' is not compatible with expected argument type 'AccessToken'"), "\(refused.standard)")
        #expect(refused.standard.contains("The endpoint's kind needs request data"), "\(refused.standard)")
        #expect(refused.standard.contains("✓ refused by the compiler for the misuse's reason: \"'nil' is not compatible with expected argument type 'AccessToken'\" on misuse.swift:8"),
                "\(refused.standard)")
        let usage = lesson.directory.appendingPathComponent("usage.swift").path
        let compiles = try await Built.run("typist", ["swift-check", design, usage])
        #expect(compiles.status == 0 && compiles.standard.contains("✓ type-checks"), "\(compiles.standard)\(compiles.error)")
        let wrong = try await Built.run("typist", ["swift-check", design, misuse])
        #expect(wrong.status == 1 && wrong.standard.contains("✗ does not type-check"))
    }

    @Test("A refusal counts only for the misuse's reason: the design compiles, the usage beside it compiles, the marked line fails as marked")
    func refusalForItsReason() async throws {
        let lesson = try #require(Self.lessons.first { $0.number == 0 })
        let misuse = lesson.directory.appendingPathComponent("misuse.swift").path
        try await withTemporaryFolder("typist-swift-check") { folder in
            // A design that is only `import TypedAPI`: the misuse fails, but for want of types.
            let empty = folder.appendingPathComponent("empty.swift")
            try "import TypedAPI\n".write(to: empty, atomically: true, encoding: .utf8)
            let hollow = try await Built.run("typist", ["swift-check", empty.path, misuse, "--expect-failure"])
            #expect(hollow.status == 1, "\(hollow.standard)")
            #expect(hollow.standard.contains("✗ usage.swift beside the misuse does not compile against this design"), "\(hollow.standard)")
            // A design that does not compile.
            let broken = folder.appendingPathComponent("broken.swift")
            try "import TypedAPI\nlet x: Int = \"no\"\n".write(to: broken, atomically: true, encoding: .utf8)
            let unbuilt = try await Built.run("typist", ["swift-check", broken.path, misuse, "--expect-failure"])
            #expect(unbuilt.status == 1 && unbuilt.standard.contains("✗ the design does not type-check by itself"), "\(unbuilt.standard)")
            // A misuse of its own, refused for another reason than the one marked.
            let design = folder.appendingPathComponent("design.swift")
            try "import TypedAPI\nstruct Dogs {}\n".write(to: design, atomically: true, encoding: .utf8)
            let other = folder.appendingPathComponent("other.swift")
            try "func f() { let n: Int = Dogs()  // expected-error: cannot convert value of type 'Breeds'\n  _ = n }\n"
                .write(to: other, atomically: true, encoding: .utf8)
            let elsewhere = try await Built.run("typist", ["swift-check", design.path, other.path, "--expect-failure"])
            #expect(elsewhere.status == 1, "\(elsewhere.standard)")
            #expect(elsewhere.standard.contains("✗ refused, but not for the misuse's reason: expected \"cannot convert value of type 'Breeds'\" on other.swift:1"),
                    "\(elsewhere.standard)")
        }
        // Each lesson's marked line names the diagnostic its `misuse:` setting names, and the
        // reading of the refusal cites that lesson's own write-up.
        for lesson in Self.lessons {
            let misuseFile = lesson.directory.appendingPathComponent("misuse.swift")
            let marks = SwiftCheck.expectedErrors(in: [misuseFile])
            #expect(marks.map(\.text) == [lesson.settings["misuse"] ?? "?"], "\(lesson.title)")
            let outcome = try await SwiftCheck.typecheck([lesson.directory.appendingPathComponent("reference.swift"), misuseFile])
            let reading = try #require(outcome.readings.first, "\(lesson.title): \(outcome.diagnostics)")
            #expect(reading.contains("write-up \(lesson.number)"), "\(lesson.title): \(reading)")
        }
        let void = SwiftCheck.readings(of: "x.swift:4:5: error: cannot convert value of type '()' to specified type 'Post'")
        #expect(void.count == 1 && void[0].contains("no content") && !void[0].contains("another model"), "\(void)")
    }

    @Test("swift-check finds the modules from the executable's path, portably; the Linux path is the one in /proc")
    func modulesFromTheExecutable() throws {
        #if os(Linux)
        let proc = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #expect(SwiftCheck.executableFolder()?.standardizedFileURL.path == proc.standardizedFileURL.path)
        #endif
        #expect(SwiftCheck.modulesDirectory() != nil, "the test's own build has the modules")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("typist-modules-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("debug")
        try FileManager.default.createDirectory(at: bin.appendingPathComponent("Modules/TypedAPI.swiftmodule"), withIntermediateDirectories: true)
        #expect(SwiftCheck.modulesDirectory(executableFolder: bin, environment: [:])?.path == bin.appendingPathComponent("Modules").path)
        let elsewhere = root.appendingPathComponent("elsewhere")
        #expect(SwiftCheck.modulesDirectory(executableFolder: elsewhere, environment: [:]) == nil)
        #expect(SwiftCheck.modulesDirectory(executableFolder: nil, environment: ["TYPIST_MODULES": bin.appendingPathComponent("Modules").path]) != nil)
    }
}

extension Shell {
    /// The workshop installed on a test's shell, with these lessons.
    func useLessons(_ lessons: [Lesson]) {
        Workshop.install(on: self, lessons: nil)
        LessonWalk.of(self)?.use(lessons)
    }
}
