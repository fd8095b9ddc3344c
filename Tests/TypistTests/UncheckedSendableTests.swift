import APIScript
import DemoService
import Foundation
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl
@testable import TypistCore

/// `@unchecked Sendable` only where the compiler cannot see a safety that holds: at most six, each
/// with its invariant stated beside it, and the invariants not tested elsewhere tested here.
@Suite("Unchecked sendability")
struct UncheckedSendableTests {
    private static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    @Test("At most six @unchecked Sendable in the sources, each with its invariant stated")
    func fewAndStated() throws {
        var found: [String] = []
        let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                let code = line.components(separatedBy: "//").first ?? line
                guard code.contains("@unchecked Sendable") else { continue }
                let place = "\(file.lastPathComponent):\(index + 1)"
                found.append(place)
                // The comment just above the declaration says why it holds.
                let above = lines[max(0, index - 12)..<index].joined(separator: "\n")
                #expect(above.contains("Invariant"), "\(place) does not state its invariant")
            }
        }
        #expect(!found.isEmpty)
        #expect(found.count <= 6, "\(found)")
    }

    struct Item: Codable, Sendable {
        var id: Int
        var name: String
        var note: String?
    }

    @Test("A record read from a body is read from many tasks at once, the same")
    func recordFieldsAreImmutable() async throws {
        let bridge = ValueBridge()
        _ = try? bridge.scriptType(of: [Item].self)
        let json = "[" + (0..<200).map { #"{"id":\#($0),"name":"item \#($0)","note":null}"# }.joined(separator: ",") + "]"
        let plan = try #require(bridge.readingPlan(for: [Item].self))
        let value = try #require(JSONReader.value(from: Data(json.utf8), plan: plan, decoder: JSONDecoder()))
        let expected = bridge.value(of: try JSONDecoder().decode([Item].self, from: Data(json.utf8)))
        let reads = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<32 { group.addTask { value == expected } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(reads.count == 32 && reads.allSatisfy { $0 })
    }

    @Test("A stream's batches are only read once handed over: every event, in order, on each streaming transport")
    func batchesAreOnlyRead() async throws {
        let server = try await DemoServer.start()
        do {
            try await CurlTransport.withOwnEngine { curl, _ in
                for transport in [curl, AsyncHTTPClientTransport()] as [any StreamingHTTPTransport] {
                    let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: transport)
                    var next = 1
                    for try await event in client.stream(Endpoint.events(count: 20_000)) {
                        // A slow reader now and then: the reader goes on filling the next batch meanwhile.
                        if next % 2_000 == 0 { try await Task.sleep(for: .milliseconds(1)) }
                        guard event == .number(next) else {
                            Issue.record("event \(next) read as \(event)")
                            break
                        }
                        next += 1
                    }
                    #expect(next == 20_001)
                }
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
