import APIScript
import Foundation
import Testing
import TypistTesting
@testable import Typist
@testable import TypistCore

/// `:model`: Swift models from JSON, that compile and decode the response they came from.
@Suite(":model")
struct ModelCommandTests {
    @Test("Names from keys, optionals where null or missing, array records merged, CodingKeys where keys need them, JSONValue where kinds vary")
    func inference() async throws {
        try await withDemoShell { shell, output, _ in
            let json = #"[{"id": 1, "full_name": "a", "owner": {"login": "x"}, "score": 1, "tags": ["t"], "class": true, "2fa": false, "v": 1},"#
                + #" {"id": 2, "full_name": null, "owner": {"login": "y", "site_admin": true}, "score": 2.5, "tags": [], "class": false, "2fa": true, "v": "one"}]"#
            await shell.handle(":model Repo = json(\(ValueFormatter.quoted(json)))")
            let text = output.standard
            #expect(text.contains("// Decode it as [Repo]: try JSONDecoder().decode([Repo].self, from: data)"), "\(text)")
            #expect(text.contains("    let fullName: String?\n"), "\(text)")
            #expect(text.contains("    let owner: Owner\n"), "\(text)")
            #expect(text.contains("    let siteAdmin: Bool?\n"), "\(text)")
            #expect(text.contains("    let score: Double\n"), "\(text)")
            #expect(text.contains("    let tags: [String]\n"), "\(text)")
            #expect(text.contains("    let `class`: Bool\n"), "\(text)")
            #expect(text.contains("    let _2fa: Bool\n"), "\(text)")
            #expect(text.contains("    let v: JSONValue?\n"), "\(text)")
            #expect(text.contains("        case fullName = \"full_name\"\n"), "\(text)")
            #expect(text.contains("enum JSONValue: Decodable, Sendable {"), "\(text)")
        }
    }

    @Test("What :model prints compiles, and decodes the responses it was made from")
    func compiles() async throws {
        try await withTemporaryFolder("typist-model") { directory in
            let cases = [("Search", #"httpGet("/search/repositories", query: ["q": "swift"])"#, "Search"),
                         ("Users", #"httpGet("/users")"#, "[Users]"),
                         ("Author", #"httpGet("/users/1")"#, "Author"),
                         ("Varied", #"httpPost("/posts", json: ["userId": 1, "title": "t", "body": "b"])"#, "Varied")]
            var source = "import Foundation\n"
            var decodes: [String] = []
            try await withDemoShell { shell, output, _ in
                for (index, (name, call, root)) in cases.enumerated() {
                    let body = try await shell.evaluate("\(call).text!")
                    guard case .string(let text) = body else {
                        Issue.record("no body for \(call)")
                        return
                    }
                    try text.write(to: directory.appendingPathComponent("\(index).json"), atomically: true, encoding: .utf8)
                    output.clear()
                    #expect(await shell.handle(":model \(name) = \(call).json"))
                    source += "enum Case\(index) {\n\(output.standard)}\n"
                    let type = root.hasPrefix("[") ? "[Case\(index).\(root.dropFirst().dropLast())]" : "Case\(index).\(root)"
                    decodes.append("_ = try JSONDecoder().decode(\(type).self, from: Data(contentsOf: URL(fileURLWithPath: directory + \"/\(index).json\")))")
                }
            }
            source += "let directory = CommandLine.arguments[1]\n" + decodes.joined(separator: "\n") + "\nprint(\"decoded \(cases.count)\")\n"
            let file = directory.appendingPathComponent("main.swift")
            try source.write(to: file, atomically: true, encoding: .utf8)
            let binary = directory.appendingPathComponent("models").path
            let built = try await ProcessResult.run(["swiftc", "-swift-version", "6", file.path, "-o", binary])
            #expect(built.status == 0, "\(built.output)\n\(source)")
            guard built.status == 0 else { return }
            let ran = try await ProcessResult.run([binary, directory.path])
            #expect(ran.output.contains("decoded \(cases.count)"), "\(ran.output)\n\(source)")
        }
    }

    @Test("A sample builds the one type model: records named from keys, fields named as Swift would with their JSON keys, merged optionals")
    func sampleModel() {
        let value = Value.dictionary(["empty": .array([]), "items": .array([
            .dictionary(["full_name": .string("a"), "id": .int(1)]),
            .dictionary(["id": .double(2.5), "extra": .null]),
        ])])
        guard case .record(let root) = SampleTypes.infer(value, rootName: "Page") else {
            Issue.record("not a record")
            return
        }
        #expect(root.name == "Page")
        #expect(root.fields.map(\.name) == ["empty", "items"])
        #expect(root.field(named: "empty")?.type == .array(.unknown))
        guard case .array(.record(let item))? = root.field(named: "items")?.type else {
            Issue.record("items: \(root)")
            return
        }
        #expect(item.name == "Item")
        #expect(item.fields.map(\.name) == ["fullName", "id", "extra"])
        #expect(item.fields.map(\.key) == ["full_name", "id", "extra"])
        #expect(item.fields.map(\.type) == [.optional(.string), .double, .nilLiteral])
    }

    @Test("Any model is declared the same way: a recursive record ends, names Swift reserves get a number, keys that differ get CodingKeys")
    func declaresAnyModel() {
        let node = RecordType(name: "String")
        node.define([.init("children", .array(.record(node))), .init("parentID", .optional(.int), key: "parent_id"),
                     .init("extra", .dictionary(.any))])
        let text = SwiftDeclarations.render(.array(.record(node)))
        #expect(text.contains("// Decode it as [String2]:"), "\(text)")
        #expect(text.contains("struct String2: Decodable, Sendable {\n    let children: [String2]\n    let parentID: Int?\n    let extra: [String: JSONValue]\n"), "\(text)")
        #expect(text.contains("        case parentID = \"parent_id\"\n"), "\(text)")
        #expect(text.components(separatedBy: "struct ").count == 2, "\(text)")
        #expect(text.contains("enum JSONValue"), "\(text)")
    }
}
