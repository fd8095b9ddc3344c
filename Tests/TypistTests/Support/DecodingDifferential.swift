// The one-pass reader against JSONDecoder + the bridge, on generated bodies. Shared by the unit
// test (`DecodingDifferentialTests`, seeded) and the libFuzzer target (`Scripts/fuzz decoding`,
// driven by the fuzzer's bytes), which compiles this file into one module with the bridge.
import Foundation
import APIScript
#if !TYPIST_FUZZ
import TestSupport
@testable import Typist
@testable import TypistCore
#endif

/// Models that declare overlapping subsets of the generated keys, in camelCase, with a leading
/// underscore and with an acronym, so that snake_case conversion, unknown keys and missing keys
/// all occur.
enum DifferentialModels {
    struct Child: Codable { var id: Int; var childName: String? }
    struct Full: Codable {
        var userId: Int
        var displayName: String?
        var score: Double
        var isActive: Bool?
        var tags: [String]?
        var child: Child?
        var children: [Child]?
        var counts: [String: Int]?
        var _private: Int?
    }
    struct Subset: Codable { var userId: Int?; var displayName: String? }
    struct Identified: Codable { var id: Int; var childName: String? }
    struct Acronym: Codable { var userID: Int?; var url: String?; var é: String? }
    struct Nested: Codable { var child: Child; var children: [Child] }
}

/// A source of choices: a seeded generator for tests, the fuzzer's bytes for the fuzz target.
struct ChoiceSource {
    private var random: SplitMix
    private let bytes: [UInt8]
    private var position = 0

    /// Choices from a SplitMix64 generator.
    init(seed: UInt64) {
        random = SplitMix(seed: seed)
        bytes = []
    }

    /// Choices from `bytes`, then zeros.
    init(bytes: [UInt8]) {
        random = SplitMix(seed: 0)
        self.bytes = bytes
    }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        if !bytes.isEmpty {
            guard position < bytes.count else { return 0 }
            defer { position += 1 }
            return Int(bytes[position]) % bound
        }
        return random.below(bound)
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices[next(choices.count)] }
}

/// Generates JSON bodies: objects with keys from a pool of camelCase, snake_case and odd keys, values
/// at the edges of every kind, repeated and missing keys, nesting, whitespace, and now and then a
/// body that is not JSON at all.
struct JSONBodyGenerator {
    static let keys = [
        "userId", "user_id", "displayName", "display_name", "score", "isActive", "is_active", "tags",
        "child", "children", "counts", "_private", "private", "__private", "id", "childName", "child_name",
        "userID", "user__id", "USER_ID", "user_id_", "url", "URL", "extra", "extra_key", "é", "e\u{301}",
        #"user\u005fid"#, #"display\u005Fname"#, "",
    ]
    static let numbers = [
        "0", "1", "-1", "42", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "-9223372036854775809", "-0", "1.0", "1.5", "-2.25", "1e2", "1E-2", "2.5e+3", "-0.0", "01", "1.",
        ".5", "1e", "1e400", "123456789012345678901234567890",
    ]
    static let strings = [
        #""""#, #""a""#, #""é""#, #""\u00e9""#, #""line\nbreak""#, #""tab\t""#, #""\ud83d\ude00""#,
        #""\ud800""#, #""quote\"d""#, #""slash\/""#, "\"bare\u{1}control\"", #""ß""#,
    ]

    var choices: ChoiceSource

    mutating func body() -> String {
        switch choices.next(20) {
        case 0: return value(depth: 0)
        case 1: return "[" + (0..<choices.next(4)).map { _ in object(depth: 1) }.joined(separator: ",") + "]"
        default:
            var text = object(depth: 0)
            if choices.next(25) == 0 { text = String(text.prefix(choices.next(max(1, text.count)))) }
            if choices.next(25) == 0 { text += choices.pick([" x", ",", "}", "\n"]) }
            return text
        }
    }

    mutating func object(depth: Int) -> String {
        let count = choices.next(9)
        var members: [String] = []
        for _ in 0..<count {
            members.append(space() + "\"" + choices.pick(Self.keys) + "\"" + space() + ":" + space() + value(depth: depth + 1))
        }
        return "{" + members.joined(separator: ",") + space() + "}"
    }

    mutating func value(depth: Int) -> String {
        switch choices.next(depth > 3 ? 6 : 9) {
        case 0, 1: return choices.pick(Self.numbers)
        case 2, 3: return choices.pick(Self.strings)
        case 4: return choices.pick(["true", "false", "null"])
        case 5: return "null"
        case 6, 7: return object(depth: depth)
        default:
            return "[" + (0..<choices.next(4)).map { _ in space() + value(depth: depth + 1) }.joined(separator: ",") + "]"
        }
    }

    private mutating func space() -> String { choices.pick(["", "", "", " ", "\n", "\t", "\r\n  "]) }
}

/// One disagreement: the one-pass reader accepted a body and gave another value than the typed way.
struct DecodingMismatch: Error, CustomStringConvertible {
    var model: String
    var strategy: String
    var body: String
    var fast: String
    var typed: String

    var description: String {
        "\(model) under \(strategy): one-pass \(fast), typed \(typed), body \(body.debugDescription)"
    }
}

/// Runs every model under every key strategy on one body.
struct DecodingDifferential {
    let bridge = ValueBridge()
    let decoders: [(String, JSONDecoder)] = {
        let snake = JSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        let custom = JSONDecoder()
        custom.keyDecodingStrategy = .custom { $0.last! }
        let json5 = JSONDecoder()
        json5.allowsJSON5 = true
        return [("default keys", JSONDecoder()), ("convertFromSnakeCase", snake), ("custom keys", custom), ("JSON5", json5)]
    }()

    /// How many (model, strategy) reads the one-pass reader took and gave the typed value.
    private(set) var accepted = 0
    /// How many it handed over.
    private(set) var handedOver = 0

    /// Checks `body`; throws the first disagreement.
    mutating func check(_ body: Data) throws(DecodingMismatch) {
        try check(DifferentialModels.Full.self, body)
        try check(DifferentialModels.Subset.self, body)
        try check(DifferentialModels.Identified.self, body)
        try check(DifferentialModels.Acronym.self, body)
        try check(DifferentialModels.Nested.self, body)
        try check([DifferentialModels.Subset].self, body)
        try check([String: DifferentialModels.Identified].self, body)
    }

    private mutating func check<T: Decodable>(_ type: T.Type, _ body: Data) throws(DecodingMismatch) {
        _ = try? bridge.scriptType(of: type)
        guard let plan = bridge.readingPlan(for: type) else {
            throw DecodingMismatch(model: "\(T.self)", strategy: "-", body: "", fast: "no plan", typed: "")
        }
        for (name, decoder) in decoders {
            guard let fast = JSONReader.value(from: body, plan: plan, decoder: decoder) else {
                handedOver += 1
                continue
            }
            let typed = (try? decoder.decode(T.self, from: body)).map { bridge.value(of: $0) }
            guard typed == fast else {
                throw DecodingMismatch(model: "\(T.self)", strategy: name, body: String(decoding: body, as: UTF8.self),
                                       fast: "\(fast)", typed: typed.map { "\($0)" } ?? "a decoding error")
            }
            accepted += 1
        }
    }
}
