import Foundation
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl
@testable import TypistCore

/// A `Content-Length` or `Transfer-Encoding` a script sets is not sent, on any transport: each
/// transport frames the body itself (URLSession sent a script's wrong length, and the service
/// then waited for bytes that never came, until the time limit; curl dropped it).
@Suite("Framing headers a script sets")
struct FramingHeaderTests {
    typealias Transport = ShellTransport

    @Test("A wrong Content-Length is left out: the post is made, and :curl and :last do not show it", arguments: Transport.allCases)
    func contentLength(_ transport: Transport) async throws {
        try await withDemoShell(transport: transport.make()) { shell, output, _ in
            let call = #"httpPost("/posts", headers: ["Content-Length": "500", "Transfer-Encoding": "gzip"], json: ["userId": 1, "title": "Framed", "body": "by the transport"])"#
            let status = try await shell.evaluate(call + ".status")
            #expect(status == .int(201))
            output.clear()
            #expect(await shell.handle(":curl " + call))
            #expect(!output.standard.lowercased().contains("content-length") && !output.standard.lowercased().contains("transfer-encoding"),
                    "\(output.standard)")
            output.clear()
            _ = await shell.handle(":last")
            #expect(!output.standard.lowercased().contains("content-length: 500"), "\(output.standard)")
        }
    }
}
