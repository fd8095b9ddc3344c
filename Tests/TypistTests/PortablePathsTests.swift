import Foundation
import Testing

/// A clone must build on macOS's default disk, which ignores case and Unicode normalization in names:
/// no two paths in the package may differ only in those.
@Suite("Paths that survive a case-insensitive disk")
struct PortablePathsTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Build products, virtual environments and version control are not the package's paths.
    private static func skipped(_ name: String) -> Bool {
        name.hasPrefix(".build") || name == ".git" || name == ".swiftpm"
    }

    /// Pairs of names in one folder that a case- and normalization-insensitive disk treats as one.
    static func collisions(under folder: URL, relative: String = "") throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !skipped($0) }.sorted()
        var seen: [String: String] = [:]
        var found: [String] = []
        for name in names {
            let key = name.decomposedStringWithCanonicalMapping.lowercased()
            if let other = seen[key] {
                found.append("\(relative)\(other) and \(relative)\(name)")
            } else {
                seen[key] = name
            }
            var isFolder: ObjCBool = false
            let url = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue,
               (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) == nil {
                found += try collisions(under: url, relative: "\(relative)\(name)/")
            }
        }
        return found
    }

    @Test("no two paths of the package differ only in case")
    func noCaseOnlyDifferences() throws {
        #expect(try Self.collisions(under: Self.root) == [])
    }

    @Test("the check finds a file beside a folder of the same name in another case")
    func findsCollisions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typist-paths-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Scripts/Fuzz"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("Scripts/fuzz"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Sources/Typist"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Sources/typist"), withIntermediateDirectories: true)
        #expect(try Self.collisions(under: folder) == ["Scripts/Fuzz and Scripts/fuzz", "Sources/Typist and Sources/typist"])
    }
}
