import Foundation
import Testing
import TypistTesting

/// A host pays only for what it uses: with `traits: []`, a package that depends on `Typist` and
/// `TypistCurl` resolves no demo service, SwiftNIO or AsyncHTTPClient — at most five packages.
/// The host is the README's (`swift package resolve` in a package of its own, against this checkout);
/// with the default traits it still resolves no GraphQL package.
@Suite("A host's package resolution")
struct HostResolutionTests {
    @Test("A host with traits: [] resolves only what Typist and TypistCurl need")
    func resolvesFew() async throws {
        let checkouts = try await Self.checkouts { manifest in
            #expect(manifest.contains("traits: []"))
            return manifest
        }
        // The checkout itself is a path dependency: it is not checked out, it counts as one.
        #expect(checkouts.count + 1 <= 5, "\(checkouts.sorted())")
        #expect(!checkouts.contains { ["hummingbird", "swift-nio", "async-http-client", "swift-crypto"].contains($0) }, "\(checkouts.sorted())")
    }

    @Test("A host that takes the default traits resolves no GraphQL package: the GraphQL trait is off by default")
    func defaultTraitsLeaveGraphQLOut() async throws {
        let checkouts = try await Self.checkouts { manifest in
            manifest.replacingOccurrences(of: #".package(path: "../typist", traits: [])"#, with: #".package(path: "../typist")"#)
        }
        // The default traits are on (AsyncHTTPClient's packages resolved); GraphQLSwift is not.
        #expect(checkouts.contains("async-http-client"), "\(checkouts.sorted())")
        #expect(!checkouts.contains { $0.lowercased() == "graphql" }, "\(checkouts.sorted())")
    }

    /// What `swift package resolve` checks out for the README's host manifest, as `edit` changes it.
    private static func checkouts(_ edit: (String) -> String) async throws -> [String] {
        // Beside a "checkout" named typist (a link to this one), as the README has it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typist-host-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = folder.appendingPathComponent("ReadingShell")
        try FileManager.default.createDirectory(at: host.appendingPathComponent("Sources/reading"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("typist"), withDestinationURL: Built.packageRoot)
        let readme = try String(contentsOf: Built.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        // The README's manifest, with its path pointing at this checkout.
        let start = try #require(readme.range(of: "```swift\n// swift-tools-version:6.1\nimport PackageDescription\n\nlet package = Package(\n    name: \"ReadingShell\""))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let manifest = edit(String(readme[start.lowerBound..<end.lowerBound].dropFirst("```swift\n".count)))
        try manifest.write(to: host.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "print(1)\n".write(to: host.appendingPathComponent("Sources/reading/main.swift"), atomically: true, encoding: .utf8)
        let result = try await ProcessResult.run(["swift", "package", "resolve"], directory: host, environment: try Self.ownTemporaryFolder(in: folder))
        #expect(result.status == 0, "\(result.output)")
        return (try? FileManager.default.contentsOfDirectory(atPath: host.appendingPathComponent(".build/checkouts").path)) ?? []
    }

    /// `TMPDIR` inside `folder`: SwiftPM leaves its lock files (`_tmp_typist-host-…_.build.lock`)
    /// and a `TemporaryDirectory.…` folder in the temporary directory, named after the package's
    /// path, which is new each run; there they go when the test removes its folder.
    static func ownTemporaryFolder(in folder: URL) throws -> [String: String] {
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        return ["TMPDIR": temporary.path]
    }
}
