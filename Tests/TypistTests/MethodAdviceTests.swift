import Foundation
import Testing
import TypedAPI
@testable import TypistCore

/// A 405 says which methods the service takes at that URL.
@Suite("Methods not allowed")
struct MethodAdviceTests {
    @Test("The Allow header's methods, escaped; without one, that the service did not say")
    func allow() {
        let request = RequestSummary(method: "POST", url: "http://127.0.0.1/get")
        func answer(_ status: Int, _ pairs: [(name: String, value: String)]) -> APIError {
            let headers = pairs.map { HTTPHeader(name: $0.name, value: $0.value) }
            return .unacceptableStatus(request, ResponseSummary(status: status, reason: "", headers: headers, body: Data()))
        }
        #expect(MethodAdvice.note(for: answer(405, [("Allow", "GET, HEAD\u{1B}[2J")]))
                == "the service does not take POST at this URL; it allows GET, HEAD\\u{1B}[2J (Allow)")
        #expect(MethodAdvice.note(for: answer(405, [])) == "the service does not take POST at this URL, and says not what it takes (no Allow header)")
        #expect(MethodAdvice.note(for: answer(404, [("Allow", "GET")])) == nil)
    }
}
