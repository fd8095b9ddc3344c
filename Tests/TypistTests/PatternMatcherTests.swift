import Foundation
import TestSupport
import Testing
@testable import TypistOpenAPI

/// A document's `pattern` is matched in linear time, with the answers a backtracking engine gives.
@Suite("Patterns matched without backtracking")
struct PatternMatcherTests {
    /// Patterns as real documents write them (GitHub's, OpenAI's, Kinto's), and the corners of the syntax.
    static let patterns = [
        "^[a-z]+$", "^[A-Za-z0-9_.-]+$", "^\\d{4}-\\d{2}-\\d{2}$", "^[0-9a-f]{40}$", "^(?:[a-z0-9-]+\\.)*[a-z]{2,}$",
        "^#?[0-9a-fA-F]{6}$", "^\\w+@\\w+\\.\\w+$", "ab|cd", "^(ab|cd)*e?$", "a{2,3}", "^a{2,}$", "^a{0}b", "[^abc]",
        "^[\\w-]+$", "^\\s*$", "\\bcat\\b", "\\Bat", "^[\\d\\s]+$", "^[^\\d]*$", "^[\\D]+$", "^x??y+?$", "^(a|ab)(c|bcd)(d*)$",
        "^[a-c-]+$", "^[-a]+$", "^\\.\\*\\+$", "^\\x41\\u0042$", "^[\\]]$", "^(?<word>[a-z]+)-\\d$", "^$", "",
        "^(a*)*$", "^(a+)+$", "(x+x+)+y", "^[a-z]*[0-9]*[a-z]*$", "^.{1,5}$", "^(?:a|b|)+$", "^[\\s\\S]{2}$", "}", "]",
    ]

    @Test("each pattern answers as Swift's Regex does, on inputs drawn from its own alphabet")
    func agreesWithRegex() throws {
        var random = SplitMix(seed: 49)
        let alphabet = Array("abcdexy-_.@#AB019 \t*+CF}]")
        for pattern in Self.patterns {
            let matcher = try #require(PatternMatcher(pattern), "\(pattern)")
            let regex = try Regex(pattern)
            for _ in 0..<300 {
                let text = String((0..<random.below(9)).map { _ in alphabet[random.below(alphabet.count)] })
                let expected = try regex.firstMatch(in: text) != nil
                #expect(matcher.matches(text) == expected, "\(pattern) on \(text.debugDescription)")
            }
        }
    }

    @Test("what it does not read is refused, so it is not checked rather than checked wrongly")
    func unsupported() {
        for pattern in ["(a)\\1", "^(?=.*[A-Z]).+$", "(?!x)", "(?<=a)b", "(?<!a)b", "[z-a]", "(", "a**", "\\p{L}", "^*", "\\k<x>"] {
            #expect(PatternMatcher(pattern) == nil, "\(pattern)")
        }
        #expect(PatternMatcher("(a{1000}){1000}") == nil)
    }

    @Test("a brace that is no count is itself, as ECMA-262 reads it (Swift's Regex reads `{,3}` as a count)")
    func braces() throws {
        let braces = try #require(PatternMatcher("^a{,3}$"))
        #expect(braces.matches("a{,3}") && !braces.matches("aa"))
        #expect(try #require(PatternMatcher("^x{2}$")).matches("xx"))
    }

    @Test("catastrophic patterns are answered at once, in the check and in a constraint")
    func catastrophic() throws {
        let evil = String(repeating: "a", count: 4096) + "b"
        #expect(try #require(PatternMatcher("^(a+)+$")).matches(evil) == false)
        #expect(try #require(PatternMatcher("^(a|aa)+$")).matches(evil) == false)
        #expect(try #require(PatternMatcher("^(a*)*$")).matches(String(repeating: "a", count: 4096)))
        #expect(try #require(PatternMatcher("(x+x+)+y")).matches(String(repeating: "x", count: 4096)) == false)
        let constraints = try #require(ValueConstraints(schema: try SpecNode.parse("{type: string, pattern: '^(a+)+$'}", name: "s.yaml")))
        #expect(constraints.violation(of: .string(String(repeating: "a", count: 23) + "b"), label: "q", secret: false)
                == #"q must match the document's pattern "^(a+)+$"; "aaaaaaaaaaaaaaaaaaaaaaab" does not"#)
    }
}
