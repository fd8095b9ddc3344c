import Foundation
import Testing

/// The README's one install line, which a fresh machine runs before the two commands.
@Suite("The README's install line")
struct InstallLineTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The first line of the README that runs apt-get.
    static func installLine() throws -> String {
        try #require(try read("README.md").split(separator: "\n").first { $0.contains("apt-get install") }.map(String.init))
    }

    @Test("It fetches the package lists first, needs no sudo as root, and names every package .ci/run installs")
    func installLine() throws {
        let line = try Self.installLine()
        let update = try #require(line.range(of: "apt-get update"))
        let install = try #require(line.range(of: "apt-get install -y"))
        #expect(update.upperBound <= install.lowerBound, "a fresh machine has no package lists before apt-get update")
        #expect(!line.hasPrefix("sudo "), "a fresh container as root has no sudo")
        let packages = Set(line[install.upperBound...].split(separator: " ").map(String.init))
        let ci = try Self.read(".ci/run")
        let named = ci.split(separator: "\n").compactMap { row -> String? in
            guard let start = row.range(of: "missing+=("), let end = row[start.upperBound...].firstIndex(of: ")") else { return nil }
            return String(row[start.upperBound..<end])
        }
        #expect(named.count >= 7)
        for package in named { #expect(packages.contains(package), "the README's line lacks \(package), which CI installs") }
    }
}
