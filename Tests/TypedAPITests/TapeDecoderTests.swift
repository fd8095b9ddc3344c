import Foundation
import TestSupport
import Testing
@testable import TypedAPI

/// The tape decoder (the streams' fast path) against `JSONDecoder`, document by document: whatever
/// it returns is what `JSONDecoder` returns; what it cannot be sure of, it declines.
@Suite("The tape decoder answers as JSONDecoder does, or declines")
struct TapeDecoderTests {
    struct Event: Codable, Equatable {
        var n: Int
        var status: String
        var log: String
    }

    enum Level: String, Codable, Equatable { case low, high }

    struct Nested: Codable, Equatable {
        var id: UInt64
        var name: String?
        var score: Double
        var ratio: Float?
        var flags: [Bool]
        var level: Level
        var tags: [String: Int]
        var children: [Nested]?
        var link: URL?
        var small: Int8?
    }

    /// A model that reads its coding path and catches its own errors: a decoder that throws where
    /// `JSONDecoder` would not would change what it holds.
    struct Forgiving: Decodable, Equatable {
        var n: Int
        var path: String
        var keys: [String]

        enum CodingKeys: String, CodingKey { case n, inner }
        struct Inner: Decodable, Equatable {
            var path: String
            init(from decoder: any Decoder) throws {
                path = decoder.codingPath.map(\.stringValue).joined(separator: ".")
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            n = (try? container.decode(Int.self, forKey: .n)) ?? -1
            path = (try? container.decode([Inner].self, forKey: .inner))?.map(\.path).joined(separator: "|") ?? "-"
            keys = container.allKeys.map(\.stringValue).sorted()
        }
    }

    /// The tape decoder's answer, checked against `JSONDecoder`'s: equal when it answers.
    @discardableResult
    private func compare<T: Decodable & Equatable>(_ text: String, as type: T.Type, decoder: JSONDecoder = JSONDecoder(),
                                                   sourceLocation: SourceLocation = #_sourceLocation) -> T? {
        compare(Array(text.utf8), as: type, decoder: decoder, sourceLocation: sourceLocation)
    }

    @discardableResult
    private func compare<T: Decodable & Equatable>(_ bytes: [UInt8], as type: T.Type, decoder: JSONDecoder = JSONDecoder(),
                                                   sourceLocation: SourceLocation = #_sourceLocation) -> T? {
        let tape = TapeDecoder(following: decoder)
        let fast = bytes.withUnsafeBytes { tape.decode(T.self, from: $0) }
        let reference = try? decoder.decode(T.self, from: Data(bytes))
        if let fast {
            #expect(fast == reference, "\(String(decoding: bytes, as: UTF8.self)): \(fast) but JSONDecoder: \(String(describing: reference))",
                    sourceLocation: sourceLocation)
        }
        return fast
    }

    @Test("Plain documents take the fast path and equal JSONDecoder's values")
    func plainDocuments() {
        #expect(compare(#"{"log":"step 1","n":1,"status":"queued"}"#, as: Event.self) == Event(n: 1, status: "queued", log: "step 1"))
        #expect(compare(#" {"n":-9223372036854775808 , "status":"a\"b\\c\/d\b\f\n\r\t","log":"\u00e9\ud83d\ude00 é"} "#, as: Event.self)
            == Event(n: .min, status: "a\"b\\c/d\u{8}\u{c}\n\r\t", log: "é😀 é"))
        let nested = #"""
        {"id": 18446744073709551615, "name": null, "score": -1.5e-3, "ratio": 0.1, "flags": [true, false], "level": "high",
         "tags": {"a": 1, "b": -2}, "children": [{"id": 0, "score": 2, "flags": [], "level": "low", "tags": {}}],
         "link": "https://example.com/a?b=c", "small": -128, "ignored": {"deep": [1, [2, [3]]]}}
        """#
        let value = compare(nested, as: Nested.self)
        #expect(value?.id == .max)
        #expect(value?.children?.first?.score == 2)
        #expect(value?.tags == ["a": 1, "b": -2])
        #expect(compare("[1, 2, 3]", as: [Int].self) == [1, 2, 3])
        #expect(compare(#""top""#, as: String.self) == "top")
        #expect(compare("null", as: Int?.self) == .some(nil))
        #expect(compare(#"{"n": 1, "inner": [{}, {}]}"#, as: Forgiving.self)?.path == "inner.Index 0|inner.Index 1")
    }

    @Test("Dates follow the decoder's strategy as JSONDecoder reads them")
    func dates() {
        struct Stamp: Codable, Equatable { var at: Date }
        let iso = JSONDecoder()
        iso.dateDecodingStrategy = .iso8601
        #expect(compare(#"{"at": "2026-11-26T10:00:00Z"}"#, as: Stamp.self, decoder: iso) != nil)
        compare(#"{"at": "yesterday"}"#, as: Stamp.self, decoder: iso)
        let seconds = JSONDecoder()
        seconds.dateDecodingStrategy = .secondsSince1970
        #expect(compare(#"{"at": 1764151200.5}"#, as: Stamp.self, decoder: seconds)?.at == Date(timeIntervalSince1970: 1764151200.5))
        #expect(compare(#"{"at": 12.25}"#, as: Stamp.self)?.at == Date(timeIntervalSinceReferenceDate: 12.25))
        // A setting it does not follow: declined at once.
        let snake = JSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        #expect(compare(#"{"log":"","n":1,"status":""}"#, as: Event.self, decoder: snake) == nil)
    }

    @Test("What JSONDecoder reads differently, or might, is declined",
          arguments: [
              #"{"n": 1.0, "inner": []}"#,            // an integer written as a fraction: JSONDecoder takes it
              #"{"n": 1e2, "inner": []}"#,            // or with an exponent
              #"{"n": 1, "n": 2, "inner": []}"#,      // a key twice: JSONDecoder keeps the first
              #"{"a": 0, "n": 1, "b": 0, "n": 2}"#,   // the same, apart
              #"{"inner": [], "a": 0, "b": 0, "inner": [1]}"#,
              "{" + (0..<20).map { "\"k\($0)\": 0, " }.joined() + #""n": 1, "k7": 1}"#,   // apart, in a large object
              #"{"n": 99999999999999999999}"#,        // past Int
              #"{"n": "1", "inner": [{}]}"#,          // a mismatch the model catches
              #"{"\u006e": 1}"#,                      // an escaped key
              #"{"n": 1, "é": 2}"#,                   // a key not in ASCII
              #"{"n": 1} x"#,                         // trailing bytes
              #"{"n": 01}"#,                          // a leading zero
              #"{"n": 1, "s": "\ud800"}"#,            // a lone surrogate
              "{\"n\": 1, \"s\": \"a\tb\"}",          // a raw control character
          ])
    func declined(_ text: String) {
        #expect(compare(text, as: Forgiving.self) == nil)
    }

    @Test("Floats at the edges: overflow and underflow are JSONDecoder's to refuse")
    func floatEdges() {
        #expect(compare("1e400", as: Double.self) == nil)
        #expect(compare("1e-400", as: Double.self) == nil)
        // JSONDecoder refuses `0e5` (its underflow check misreads the exponent): declined, not answered.
        #expect(compare("0e5", as: Double.self) == nil)
        #expect(compare("-0.0", as: Double.self) == 0)
        #expect(compare("0", as: Double.self) == 0)
        #expect(compare("1e39", as: Float.self) == nil)
        #expect(compare("3.4028235e38", as: Float.self) == Float.greatestFiniteMagnitude)
        #expect(compare("0.30000000000000004", as: Double.self) == 0.30000000000000004)
    }

    @Test("Every short number, as every number type: the same answer or declined")
    func everyShortNumber() {
        let symbols = Array("0-.eE+19".utf8)
        var texts: [[UInt8]] = [[]]
        var answered = 0
        for _ in 1...4 {
            texts = texts.flatMap { text in symbols.map { text + [$0] } }
            for text in texts {
                let answers = [compare(text, as: Double.self) != nil, compare(text, as: Float.self) != nil,
                               compare(text, as: Int.self) != nil, compare(text, as: UInt8.self) != nil,
                               compare(text, as: Int8.self) != nil]
                answered += answers.filter { $0 }.count
            }
        }
        #expect(answered > 500, "\(answered)")
    }

    @Test("Deep nesting past the tape's limit goes to JSONDecoder")
    func depth() {
        let deep = String(repeating: "[", count: JSONTape.maximumDepth + 1) + String(repeating: "]", count: JSONTape.maximumDepth + 1)
        let tape = TapeDecoder(following: JSONDecoder())
        struct AnyArray: Decodable {}
        #expect(Array(deep.utf8).withUnsafeBytes { tape.decode(AnyArray.self, from: $0) } == nil)
        let shallow = String(repeating: "[", count: 3) + String(repeating: "]", count: 3)
        #expect(compare(shallow, as: [[[Int]]].self) == [[[]]])
    }

    @Test("Thousands of damaged documents: whatever the tape decoder returns, JSONDecoder returns too")
    func damagedDocuments() {
        let seeds = [
            #"{"log":"step 2\nsecond line","n":2,"status":"running"}"#,
            #"{"id": 7, "name": "x\u00e9", "score": 1.25e2, "flags": [true], "level": "low", "tags": {"k": 3}, "small": 5}"#,
        ]
        var random = SplitMix(seed: 2026)
        let alphabet = Array(#"{}[]":,\-+.eE0123456789 truefalsnul"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xFF]
        var fastAnswers = 0
        for round in 0..<4000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0...(random.next() % 3) {
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: position)
                default: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                }
            }
            if round % 2 == 0 {
                if compare(bytes, as: Event.self) != nil { fastAnswers += 1 }
            } else if compare(bytes, as: Nested.self) != nil {
                fastAnswers += 1
            }
        }
        // Some damage leaves a valid document (a digit for a digit): those take the fast path too.
        #expect(fastAnswers > 100, "\(fastAnswers)")
    }
}
