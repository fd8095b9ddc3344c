import Foundation
import Testing

/// Folders inside a module depend one way: a folder names no type declared in a folder above it.
/// (Module-level direction is SwiftPM's to enforce; inside a module only a reading can.)
@Suite("Layering inside the modules")
struct LayeringTests {
    private static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// For each folder of `module`, the folders above it whose types it must not name.
    private static func violations(in module: String, above: [String: [String]]) throws -> [String] {
        let root = sources.appendingPathComponent(module)
        func files(_ folder: String) throws -> [URL] {
            try FileManager.default.contentsOfDirectory(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "swift" }
        }
        func code(_ file: URL) throws -> String {
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        }
        // Top-level declarations only (nested names such as `Binding.Kind` are reached through theirs).
        let declaration = /^(?:(?:public|package|final|private|fileprivate|indirect)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9]*)/
            .anchorsMatchLineEndings()
        var declared: [String: String] = [:]
        for folder in Set(above.values.joined()) {
            for file in try files(folder) {
                for match in try code(file).matches(of: declaration) { declared[String(match.1)] = folder }
            }
        }
        var found: [String] = []
        for (folder, upper) in above.sorted(by: { $0.key < $1.key }) {
            for file in try files(folder) {
                let words = Set(try code(file).split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
                for (name, home) in declared where upper.contains(home) && words.contains(name) {
                    found.append("\(module)/\(folder)/\(file.lastPathComponent) names \(home)'s '\(name)'")
                }
            }
        }
        return found.sorted()
    }

    @Test("The language's front end: Source ← Syntax ← Check ← Runtime, no arrow back")
    func language() throws {
        let upper = ["Check", "Types", "Runtime", "Builtins", "Embedding"]
        #expect(try Self.violations(in: "APIScript", above: ["Source": upper + ["Syntax"], "Syntax": upper]) == [])
    }

    @Test("The core: Host → Shell → Calls → Session → Registry → Bridge, no arrow back")
    func core() throws {
        let front = ["Host", "Shell", "Commands", "Prompt"]
        let found = try Self.violations(in: "TypistCore", above: [
            "Calls": front,
            "Session": front + ["Calls"],
            "Registry": front + ["Calls", "Session"],
            "Bridge": front + ["Calls", "Session", "Registry", "Output"],
            "Output": front + ["Calls", "Session", "Registry"],
        ])
        #expect(found == [])
    }

    @Test("The check finds an arrow back (a folder naming a type above it)")
    func checkFindsAnArrowBack() throws {
        // Registry names Bridge's ValueBridge: read the other way round, that is an arrow back.
        let found = try Self.violations(in: "TypistCore", above: ["Registry": ["Bridge"]])
        #expect(found.contains { $0.contains("names Bridge's 'ValueBridge'") }, "\(found)")
    }
}
