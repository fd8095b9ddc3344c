import Foundation
import Testing
import TypedAPI
@testable import TypistCore

/// What a `401` note says, for each thing a call may have sent, with and without the service's
/// challenge.
@Suite("401 notes")
struct ChallengeAdviceTests {
    private static func refused(challenge: String?) -> APIError {
        APIError.unacceptableStatus(RequestSummary(method: "POST", url: "http://127.0.0.1/login"),
                                    ResponseSummary(status: 401, reason: "Unauthorized", headers: challenge.map { [HTTPHeader(name: "WWW-Authenticate", value: $0)] } ?? [],
                                                    body: Data(#"{"error":"wrong user or password"}"#.utf8)))
    }

    @Test("A refused token, with and without a challenge; a Public call that sent none")
    func notes() {
        let token = SessionCredentials(token: "t")
        #expect(ChallengeAdvice.note(for: Self.refused(challenge: nil), kinds: ["Bearer"], credentials: token, fromDocument: false, sendsSecretArguments: false)
            == "the service wants credentials: the token sent was refused (it may have expired, or be another service's): set token = …, or log in again")
        #expect(ChallengeAdvice.note(for: Self.refused(challenge: #"Bearer error="invalid_token""#), kinds: ["Bearer"], credentials: token,
                                     fromDocument: false, sendsSecretArguments: false)?
            .hasPrefix(#"the service asks for credentials (WWW-Authenticate: Bearer error="invalid_token"): the token sent"#) == true)
        #expect(ChallengeAdvice.note(for: Self.refused(challenge: nil), kinds: ["Public"], credentials: SessionCredentials(),
                                     fromDocument: false, sendsSecretArguments: false)
            == "the service wants credentials, and this call sends none (its kind is Public)")
    }

    @Test("A login refused with no challenge gets no note: it sent its credentials as arguments, and its body says why")
    func login() {
        #expect(ChallengeAdvice.note(for: Self.refused(challenge: nil), kinds: ["Public"], credentials: SessionCredentials(),
                                     fromDocument: true, sendsSecretArguments: true) == nil)
        // A challenge is still worth saying: the service wants a scheme, not the arguments.
        #expect(ChallengeAdvice.note(for: Self.refused(challenge: "Basic realm=\"x\""), kinds: ["Public"], credentials: SessionCredentials(),
                                     fromDocument: true, sendsSecretArguments: true)?.contains("--default-auth basic") == true)
    }
}
