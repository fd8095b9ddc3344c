import TestSupport
import Testing
@testable import TypedAPI

/// Which names carry a secret, read word by word.
@Suite("Secret names")
struct SecretNameTests {
    @Test("Headers and parameters named for a credential are secret; others are not")
    func examples() {
        for name in ["Authorization", "Cookie", "X-Api-Key", "X-Auth-Token", "Private-Token", "X-Session-Id", "apiKey",
                     "api_key", "client_secret", "X-AMZ-Signature", "userPassword", "sid", "Ключ-key"] {
            #expect(Redaction.isSecretHeader(name), "\(name)")
        }
        // Standard headers with a credential's word whose values are none (httpbin sends the first on every answer).
        for name in ["Author", "Accept", "X-Request-ID", "keyboard", "monkey", "page", "perPage", "tokens2", "ключ",
                     "Access-Control-Allow-Credentials", "Idempotency-Key", "Sec-WebSocket-Key", "Public-Key-Pins"] {
            #expect(!Redaction.isSecretHeader(name), "\(name)")
        }
        #expect(Redaction.words(of: "X-Api-Key") == ["x", "api", "key"])
        #expect(Redaction.words(of: "apiKey2FA") == ["api", "key2fa"])
        #expect(Redaction.words(of: "--") == [])
    }

    @Test("An ASCII name is split byte by byte into the words the character reading gives")
    func asciiAgreesWithCharacters() {
        let alphabet = Array("aAzZkKeEyY09-_ .:/~\u{7F}\t".utf8)
        var random = SplitMix(seed: 0x5EC2_E7)
        for _ in 0..<20_000 {
            let name = String(decoding: (0..<random.below(12)).map { _ in alphabet[random.below(alphabet.count)] }, as: UTF8.self)
            #expect(Redaction.asciiWords(of: name) == Redaction.characterWords(of: name), "\(name.debugDescription)")
        }
    }
}
