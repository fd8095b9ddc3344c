import APIScript
import FaultServer
import Foundation
import Testing
import TypedAPI
import TypistTesting
@testable import Typist
@testable import TypistCore

/// `file(_:)`, the value an upload takes, and a host's own upload endpoint.
@Suite("Files to upload")
struct UploadFileTests {
    private struct Saved: Decodable, Sendable { var id: Int }

    /// A host with one upload endpoint, answering from memory (this checks the request it builds).
    private func uploadShell(_ transport: InMemoryTransport, output: CapturedOutput = CapturedOutput()) throws -> Shell {
        let registry = try EndpointRegistry {
            Group("Photos") {
                Register("uploadPhoto", summary: "Uploads a photo", Parameter<Int>("albumId"), Parameter<UploadFile>("photo"),
                         Parameter<String?>("caption")) { albumId, photo, caption in
                    var parts: [MultipartPart] = [.file("photo", photo)]
                    if let caption { parts.append(.text("caption", caption)) }
                    return Endpoint<Public, Saved>(.post(.multipart(parts)), path: "/albums/\(albumId)/photos")
                }
            }
        }
        return try Shell(registry: registry, environment: try ServerEnvironment(url: "http://127.0.0.1:9"), transport: transport,
                         output: output.shellOutput)
    }

    @Test("file(_:) reads a regular file, its type from its name unless given; each way it cannot is one error, and the session goes on")
    func reading() async throws {
        try await withTemporaryFolder("typist-file-function") { folder in
            let notes = folder.appendingPathComponent("notes.md")
            try Data("# Notes\n".utf8).write(to: notes)
            let shell = try uploadShell(InMemoryTransport(json: #"{"id": 1}"#))
            let path = ValueFormatter.quoted(notes.path)
            #expect(try await shell.evaluate("file(\(path))") == UploadFile(filename: "notes.md", contentType: "text/markdown", data: Data("# Notes\n".utf8)).scriptValue)
            #expect(try await shell.evaluate("file(\(path), contentType: \"text/x-notes\").contentType") == .string("text/x-notes"))
            #expect(try await shell.evaluate("file(\(path)).bytes.count") == .int(8))
            #expect(try shell.interpreter.staticType(of: "file(\"a.png\").filename").get() == .string)
            #expect(shell.check(ScriptSource(name: "f.api", text: "file(3)")).contains { $0.message.contains("String") })
            // A sparse file larger than the limit is refused from its size, before any of it is read.
            let huge = folder.appendingPathComponent("huge.bin")
            _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
            let handle = try FileHandle(forWritingTo: huge)
            try handle.truncate(atOffset: UInt64(Shell.largestUpload) + 1)
            try handle.close()
            let refusals: [(call: String, says: String)] = [
                ("file(\(ValueFormatter.quoted(folder.path)))", "is a folder; give a file in it"),
                (#"file("/dev/zero")"#, "is not a regular file (a device, a pipe or a socket)"),
                ("file(\(ValueFormatter.quoted(huge.path)))", "is larger than 512 MB"),
                (#"file("")"#, "file(_:) needs a path"),
                ("file(\(path), contentType: \"\")", "needs a media type"),
                ("file(\(ValueFormatter.quoted(folder.appendingPathComponent("gone.txt").path)))", "there is no file '\(folder.path)/gone.txt'"),
            ]
            _ = try await shell.evaluate("var kept = 41")
            for (call, says) in refusals {
                let error = await #expect(throws: (any Error).self) { try await shell.evaluate(call) }
                #expect(String(describing: error).contains(says), "\(call): \(String(describing: error))")
                // Where a relative path is read from is said only for a relative path.
                #expect(!String(describing: error).contains("a relative path is from"), "\(call): \(String(describing: error))")
            }
            #expect(try await shell.evaluate("kept + 1") == .int(42))
        }
    }

    @Test("A host's endpoint takes an UploadFile (Parameter<UploadFile>): checked as one, sent as its part, :curl sends it from its file")
    func hostEndpoint() async throws {
        try await withTemporaryFolder("typist-host-upload") { folder in
            let picture = folder.appendingPathComponent("cat.png")
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A]).write(to: picture)
            let transport = InMemoryTransport(json: #"{"id": 7}"#)
            let output = CapturedOutput()
            let shell = try uploadShell(transport, output: output)
            #expect(shell.registry.endpoint(named: "uploadPhoto")?.swiftSignature
                == "uploadPhoto(albumId: Int, photo: UploadFile, caption: String? = nil) -> Endpoint<Public, Saved>")
            #expect(shell.check(ScriptSource(name: "u.api", text: #"uploadPhoto(albumId: 1, photo: "cat.png")"#)).contains { $0.message.contains("UploadFile") })
            let call = "uploadPhoto(albumId: 1, photo: file(\(ValueFormatter.quoted(picture.path))), caption: \"Tom; \\\"the\\\" cat\")"
            #expect(try await shell.evaluate(call + ".id") == .int(7))
            let sent = try #require(transport.last)
            let boundary = try #require(sent.header("Content-Type").flatMap(MultipartEncoding.boundary(inContentType:)))
            let parts = try #require(MultipartEncoding.parts(of: sent.body ?? Data(), boundary: boundary))
            #expect(parts == [.file("photo", UploadFile(filename: "cat.png", data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A]))),
                              .text("caption", #"Tom; "the" cat"#)])
            // `:last` shows it part by part: a file's bytes that are not text by their count.
            output.clear()
            _ = await shell.handle(":last")
            #expect(output.standard.contains("Content-Disposition: form-data; name=\"photo\"; filename=\"cat.png\"\nContent-Type: image/png\n\n<6 bytes that are not text>\n--typist-"),
                    "\(output.standard)")
            #expect(output.standard.contains("name=\"caption\"\n\nTom; \"the\" cat\n--typist-"), "\(output.standard)")
            // A file larger than a glance, text or not, is its count: the fields after it still show.
            let large = folder.appendingPathComponent("large.txt")
            try Data(repeating: UInt8(ascii: "a"), count: 5000).write(to: large)
            _ = try await shell.evaluate("uploadPhoto(albumId: 2, photo: file(\(ValueFormatter.quoted(large.path))), caption: \"after\")")
            output.clear()
            _ = await shell.handle(":last")
            #expect(output.standard.contains("<5000 bytes>") && output.standard.contains("name=\"caption\"\n\nafter"), "\(output.standard)")
            output.clear()
            _ = await shell.handle(":curl " + call)
            // curl writes its own multipart Content-Type (with its own boundary); the file comes from where it was read.
            #expect(!output.standard.contains("Content-Type: multipart"), "\(output.standard)")
            #expect(output.standard.contains("-F 'photo=@\"\(picture.path)\";type=image/png'"), "\(output.standard)")
            #expect(output.standard.contains(#"--form-string 'caption=Tom; "the" cat'"#), "\(output.standard)")
        }
    }

    @Test("A host's endpoint named file keeps its name")
    func hostNameWins() async throws {
        let registry = try EndpointRegistry {
            Group("Files") { Register("file", summary: "The host's own", Parameter<Int>("id")) { id in Endpoint<Public, Saved>(path: "/files/\(id)") } }
        }
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: InMemoryTransport(json: #"{"id": 3}"#), output: CapturedOutput().shellOutput)
        #expect(try await shell.evaluate("file(id: 3).id") == .int(3))
    }
}

@Suite("Completing a file's path")
struct FileCompletionTests {
    @Test("Tab inside file(\"… offers paths, as after :load; elsewhere the language's completions")
    func paths() async throws {
        try await withTemporaryFolder("typist-file-completion") { folder in
            try Data().write(to: folder.appendingPathComponent("notes.md"))
            try Data().write(to: folder.appendingPathComponent("nothing.txt"))
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("nested"), withIntermediateDirectories: true)
            try await withDemoShell { shell, _, _ in
                let base = folder.path + "/no"
                // Candidates replace the word after the last break (`/`), as readline splits it.
                #expect(shell.completions(before: "let f = file(\"\(base)").candidates == ["notes.md", "nothing.txt"])
                #expect(shell.completions(before: "file( \"\(folder.path)/ne").candidates == ["nested/"])
                // One file: the string is closed, as a shell closes a quoted name.
                #expect(shell.completions(before: "file(\"\(folder.path)/note").candidates == ["notes.md\""])
                #expect(shell.completions(before: ":curl post(id: 1).title + file(\"\(base)").candidates == ["notes.md", "nothing.txt"])
                // A closed string, another function's string, or `profile("…`: not a path.
                #expect(!shell.completions(before: "file(\"\(base)\") + pos").candidates.contains("notes.md"))
                #expect(!shell.completions(before: "profile(\"\(base)").candidates.contains("notes.md"))
                #expect(Shell.filePathTyped(before: "post(id: 1).file(\"x") == nil)
                #expect(Shell.filePathTyped(before: "[file(\"a b/c") == "a b/c")
            }
        }
    }
}

/// The untyped calls' form and multipart bodies, against httpbin, which echoes what it got.
@Suite("Untyped forms and uploads against httpbin",
       .enabled(if: HttpbinServer.unavailable == nil, Comment(rawValue: HttpbinServer.unavailable ?? "")))
struct UntypedUploadTests {
    @Test("httpPost(form:) and httpPost(multipart:) send what httpbin echoes; one body at a time; :swift writes an endpoint that reads the file")
    func formAndMultipart() async throws {
        let httpbin = try await HttpbinServer.start()
        defer { httpbin.stop() }
        let output = CapturedOutput()
        // Foundation's transport: `:swift`'s program then type-checks with TypedAPI alone.
        let shell = try Shell(registry: try EndpointRegistry {}, environment: try ServerEnvironment(url: httpbin.baseURL),
                              transport: URLSessionTransport(), output: output.shellOutput)
        #expect(try await shell.evaluate(#"httpPost("/post", form: ["a": "1 & 2", "tags": ["x", "y"], "n": 3]).json["form"]"#)
            == .dictionary(["a": .string("1 & 2"), "tags": .array([.string("x"), .string("y")]), "n": .string("3")]))
        try await withTemporaryFolder("typist-untyped-upload") { folder in
            let notes = folder.appendingPathComponent("notes.txt")
            try Data("line one\n".utf8).write(to: notes)
            let call = "httpPost(\"/post\", multipart: [\"note\": \"hi\", \"meta\": [\"k\": 1], \"file\": file(\(ValueFormatter.quoted(notes.path)))])"
            _ = try await shell.evaluate("let echoed = " + call + ".json")
            #expect(try await shell.evaluate(#"echoed["files"]"#) == .dictionary(["file": .string("line one\n")]))
            #expect(try await shell.evaluate(#"echoed["form"]"#) == .dictionary(["note": .string("hi"), "meta": .string(#"{"k":1}"#)]))
            let both = await #expect(throws: (any Error).self) { try await shell.evaluate(#"httpPost("/post", json: 1, form: ["a": "b"])"#) }
            #expect(String(describing: both).contains("give one body: json:, form: or multipart:"), "\(String(describing: both))")
            // :swift: the endpoint reads the file where `file(_:)` read it (so its factory throws).
            output.clear()
            _ = await shell.handle(":swift " + call)
            let code = output.standard
            #expect(code.contains("static func postPost() throws -> Self {"), "\(code)")
            #expect(code.contains(".file(\"file\", try UploadFile(contentsOf: URL(fileURLWithPath: \(ValueFormatter.quoted(notes.path))), contentType: \"text/plain\"))"), "\(code)")
            #expect(code.contains("let data: Data = try await client.send(.postPost())"), "\(code)")
            let checked = try await ReadmeEmbeddingTests.typecheck(code, in: folder)
            #expect(checked.status == 0, "\(checked.output)\n\(code)")
        }
    }
}
