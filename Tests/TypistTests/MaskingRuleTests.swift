import Foundation
import Testing
@testable import Typist
@testable import TypistCore
@testable import TypedAPI

/// Secrets are masked where they are, and nowhere else: what the server said is never changed.
@Suite("Masking never changes what the server said")
struct MaskingRuleTests {
    @Test("After logging in as ada/lovelace, names and logins that share letters with the password print as sent")
    func sharedLettersStay() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(#"login(user: "ada", password: "lovelace")"#)
            await shell.handle(#"users().map(\.name)"#)
            await shell.handle(#"users().map(\.gitHubUsername)"#)
            #expect(output.standard.contains("Ada Lovelace"), "\(output.standard)")
            #expect(output.standard.contains("ada-lovelace"), "\(output.standard)")
        }
    }

    @Test("A short password does not mask a type name or a path that contains it")
    func shortSecretOnlyWhereItIsACredential() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(#"password = "post""#)
            await shell.handle("post(id: 1)")
            await shell.handle(":describe post")
            await shell.handle("password")
            #expect(output.standard.contains("Post"), "\(output.standard)")
            #expect(output.all.contains("/posts/"), "\(output.all)")
            // Where it is a credential, it is still masked.
            #expect(output.standard.contains("••••"))
        }
    }

    @Test("A secret is masked where its whole value stands, in its own letter case")
    func wholeValueRule() {
        let secret = "s3cr3t-t0ken"
        #expect(Redaction.masking(whole: secret, in: "Bearer s3cr3t-t0ken.") == "Bearer ••••.")
        #expect(Redaction.masking(whole: secret, in: #"{"token":"s3cr3t-t0ken"}"#) == #"{"token":"••••"}"#)
        #expect(Redaction.masking(whole: secret, in: "?t=s3cr3t-t0ken&x=1") == "?t=••••&x=1")
        #expect(Redaction.masking(whole: secret, in: "S3CR3T-T0KEN") == "S3CR3T-T0KEN")
        #expect(Redaction.masking(whole: secret, in: "my-s3cr3t-t0ken-2") == "my-s3cr3t-t0ken-2")
        #expect(Redaction.masking(whole: secret, in: "s3cr3t-t0ken s3cr3t-t0ken") == "•••• ••••")
    }

    @Test("A known secret of eight characters or more is masked in a server's body; shorter ones are not")
    func freeTextMinimum() {
        let session = Session()
        session.remember(secret: "lovelace", as: "TYPIST_PASSWORD")
        session.remember(secret: "post", as: "TYPIST_TOKEN")
        #expect(session.scrub(#"{"password":"lovelace","type":"post"}"#) == #"{"password":"••••","type":"post"}"#)
    }

    @Test("One rule for the shell and the cassette: a short secret is masked where it is a field's credential value, and URLs' user information everywhere")
    func oneRule() throws {
        let session = Session()
        session.remember(secret: "pass5", as: "TYPIST_PASSWORD")
        let body = #"{"password": "pass5", "note": "pass5 is short", "api_key":"pass5"} user=ada&password=pass5"#
        let masked = #"{"password": "••••", "note": "pass5 is short", "api_key":"••••"} user=ada&password=••••"#
        #expect(session.scrub(body) == masked)
        #expect(Redaction.masking(["pass5"], in: body) == masked)
        // A URL's user information, as the command line, the shell and a cassette show it.
        for (url, shown) in [("https://ada:pass5@example.com/x", "https://ada:••••@example.com/x"),
                             ("https://ghp_0123456789@example.com/", "https://••••@example.com/"),
                             ("ssh://git@github.com/a/b", "ssh://git@github.com/a/b")] {
            #expect(URLParts.maskingUserinfo(url) == shown)
            #expect(Session().scrub("see " + url + " there") == "see " + shown + " there")
        }
        // A cassette writes what the shell prints.
        var redactor = CassetteRedactor()
        redactor.learn(["pass5"])
        #expect(String(decoding: redactor.maskBytes(Data(body.utf8)), as: UTF8.self) == masked)
    }

    @Test("Lesson text and handouts show what a student types, password included")
    func lessonTextIsNotMasked() async throws {
        let handout = try await Built.run("typist", ["lesson", "3", "--handout"])
        #expect(handout.standard.contains(#"login(user: "ada", password: "lovelace")"#), "\(handout.standard)")
        #expect(!handout.standard.contains(#"password: "••••""#))
        // The token the server issued is still a secret.
        #expect(handout.standard.contains("token: ••••"), "\(handout.standard)")
    }

    @Test(":last shows a Set-Cookie header's name and attributes, its value masked")
    func setCookieInLast() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(#"httpGet("/v1/visits")"#)
            await shell.handle(":last")
            let line = try #require(output.standard.split(separator: "\n").first { $0.lowercased().hasPrefix("set-cookie:") })
            #expect(line.hasSuffix("visits=••••; Path=/v1; HttpOnly") || line.contains("visits=••••;"), "\(line)")
            #expect(!line.contains("visits=1"))
        }
    }
}
