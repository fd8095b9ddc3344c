import APIScript
import Foundation
import Testing
import TypedAPI
@testable import Typist
@testable import TypistCore

private struct Event: Decodable, Sendable {
    enum Level: String, Decodable, CaseIterable, Sendable { case info, error }
    struct Place: Decodable, Sendable { let city: String; let coordinates: [Double] }
    let id: UUID
    let at: Date
    let link: URL
    let level: Level
    let place: Place?
    let tags: [String: Int]
    let nested: [[Int]]
}

private enum Mood: String, Decodable, Sendable { case happy }
private struct Diary: Decodable, Sendable { let mood: Mood }
private struct Colourful: Decodable, Sendable { let colour: String; let count: Int }

private enum Colour: String, CaseIterable, ScriptArgument { case red, green }

@Suite("Registering endpoints")
struct RegistryTests {
    @Test("Shapes come from the Swift types before any call: nested, optional, enums, dates, dictionaries")
    func shapes() throws {
        let registry = try EndpointRegistry {
            Register("event", summary: "", Parameter<Int>("id")) { id in Endpoint<Public, Event>(path: "/events/\(id)") }
        }
        guard case .record(let event) = registry.endpoints[0].responseType else {
            Issue.record("expected a record")
            return
        }
        #expect(event.name == "Event")
        #expect(event.fields.map(\.name) == ["id", "at", "link", "level", "place", "tags", "nested"])
        #expect(event.field(named: "id")?.type == .string)
        #expect(event.field(named: "at")?.type == .string)
        #expect(event.field(named: "level")?.type == .string)
        #expect(event.field(named: "tags")?.type == .dictionary(.int))
        #expect(event.field(named: "nested")?.type == .array(.array(.int)))
        guard case .optional(.record(let place))? = event.field(named: "place")?.type else {
            Issue.record("expected Place?")
            return
        }
        #expect(place.field(named: "coordinates")?.type == .array(.double))
        #expect(registry.endpoints[0].swiftSignature == "event(id: Int) -> Endpoint<Public, Event>")
    }

    @Test("Duplicate names fail at start-up, naming both registrations")
    func duplicates() {
        do {
            _ = try EndpointRegistry {
                Register("ping") { Endpoint<Public, String>(path: "/a") }
                Group("More") { Register("ping") { Endpoint<Public, String>(path: "/b") } }
            }
            Issue.record("a duplicate name was accepted")
        } catch let RegistryError.duplicateName(name, first, second) {
            #expect(name == "ping")
            #expect(first.contains("RegistryTests.swift") && second.contains("RegistryTests.swift") && first != second)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("A name scripts cannot use fails at start-up with the registration's place and the reason",
          arguments: [("let", "'let' is a keyword of the language"), ("_", "'_' is the prompt's last result"),
                      ("two words", "a name is a letter or '_' followed by letters, digits or '_'")])
    func invalidNames(name: String, reason: String) {
        do {
            _ = try EndpointRegistry { Register(name) { Endpoint<Public, String>(path: "/a") } }
            Issue.record("'\(name)' was accepted")
        } catch let error as RegistryError {
            let text = error.description
            #expect(text.hasPrefix("cannot register '\(name)' (at Typist"), "\(text)")
            #expect(text.contains("RegistryTests.swift:") && text.hasSuffix("): " + reason), "\(text)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("A response type whose shape cannot be read is named with its registration by validate(), by :describe and where it is called")
    func unsupported() async throws {
        let registry = try EndpointRegistry { Register("diary") { Endpoint<Public, Diary>(path: "/diary") } }
        #expect {
            try registry.validate()
        } throws: { error in
            let text = String(describing: error)
            return text.contains("cannot register 'diary'") && text.contains("CaseIterable")
        }
        #expect(registry.endpoints[0].shapeFailure?.description.contains("CaseIterable") == true)
        let output = CapturedOutput()
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: URLSessionTransport(), output: output.shellOutput)
        await shell.handle(":describe diary")
        #expect(output.standard.contains("(its shape cannot be read: cannot register 'diary'"), "\(output.standard)")
        #expect(await shell.handle("diary()") == false)
        #expect(output.error.contains("cannot register 'diary'") && output.error.contains("CaseIterable"), "\(output.error)")
    }

    @Test("Shapes are derived when first asked for, not when the registry is built")
    func lazyShapes() throws {
        let registry = try EndpointRegistry {
            Register("one") { Endpoint<Public, Colourful>(path: "/one") }
        }
        #expect(registry.endpoints[0].shape.isDerived == false, "nothing derived yet")
        #expect(registry.endpoints[0].responseType.description == "Colourful")
        #expect(registry.endpoints[0].shape.isDerived)
    }

    @Test("Raw-value enum and optional parameters convert, with defaults")
    func parameters() async throws {
        let recorded = RecordingTransport()
        let registry = try EndpointRegistry {
            Register("paint", summary: "", Parameter<Colour>("colour"), Parameter<Int?>("size"),
                     Parameter<Bool>("glossy", default: false)) { colour, size, glossy in
                Endpoint<Public, String>(.get(query: [URLQueryItem(name: "c", value: colour.rawValue),
                                                     URLQueryItem(name: "s", value: size.map(String.init)),
                                                     URLQueryItem(name: "g", value: String(glossy))]), path: "/paint")
            }
        }
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: "http://example.test"),
                              transport: recorded, output: CapturedOutput().shellOutput)
        _ = try await shell.evaluate("paint(colour: \"red\")")
        #expect(recorded.paths == ["/paint?c=red&s&g=false"])
        _ = try await shell.evaluate("paint(colour: \"green\", size: 3, glossy: true)")
        #expect(recorded.paths.last == "/paint?c=green&s=3&g=true")
        await #expect(throws: EvaluationError.self) { try await shell.evaluate("paint(colour: \"blue\")") }
    }
}

/// Answers every request with a small text body; for registration tests only.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [String] = []
    var paths: [String] { lock.withLock { sent } }

    func send(_ request: HTTPRequestHead, body: Data?, timeout: Duration) async throws -> (HTTPResponseHead, Data) {
        lock.withLock { sent.append(request.path ?? "") }
        return (HTTPResponseHead(status: .ok, headerFields: [.contentType: "text/plain"]), Data("ok".utf8))
    }
}

import HTTPTypes
typealias HTTPRequestHead = HTTPRequest
typealias HTTPResponseHead = HTTPResponse
