import Foundation
import Testing
import TypistTesting
@testable import TypistOpenAPI

/// The block reader against Yams: wherever it reads a text, it gives Yams' tree; what it leaves
/// outside, Yams reads.
struct BlockYAMLReaderTests {
    /// The first place two trees differ, as a path; `nil` when they are the same.
    static func difference(_ left: SpecNode, _ right: SpecNode, at path: String = "$") -> String? {
        switch (left, right) {
        case (.null, .null): return nil
        case (.bool(let a), .bool(let b)): return a == b ? nil : "\(path): \(a) ≠ \(b)"
        case (.number(let a), .number(let b)): return a == b || a.isNaN && b.isNaN ? nil : "\(path): \(a) ≠ \(b)"
        case (.string(let a), .string(let b)): return a == b ? nil : "\(path): \(a.debugDescription) ≠ \(b.debugDescription)"
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return "\(path): \(a.count) elements ≠ \(b.count)" }
            for (index, (x, y)) in zip(a, b).enumerated() {
                if let found = difference(x, y, at: "\(path)[\(index)]") { return found }
            }
            return nil
        case (.object(let a), .object(let b)):
            guard a.map(\.key) == b.map(\.key) else { return "\(path): keys \(a.map(\.key)) ≠ \(b.map(\.key))" }
            for (x, y) in zip(a, b) {
                if let found = difference(x.value, y.value, at: "\(path).\(x.key)") { return found }
            }
            return nil
        default: return "\(path): \(left) ≠ \(right)"
        }
    }

    /// What the block reader and Yams make of `text`: `nil` when they agree (or the reader leaves it
    /// to Yams), else the difference.
    static func disagreement(_ text: String) -> String? {
        guard let ours = try? BlockYAMLReader.read(text) else { return nil }
        guard let theirs = try? SpecNode.parsedByYams(text) else { return "read a text Yams refuses" }
        return difference(ours, theirs)
    }

    static let corpora: [(repository: String, tag: String)] = [
        ("mattpolzin/OpenAPIKit", "6.4.0"), ("apple/swift-openapi-generator", "1.14.3"), ("jpsim/Yams", "6.2.2"),
        ("apple/swift-nio", "2.101.3"), ("hummingbird-project/hummingbird", "2.28.1"), ("swift-otel/swift-otel", "1.6.0"),
        ("swiftwasm/WasmKit", "0.4.2"), ("ordo-one/package-benchmark", "1.38.1"), ("Quick/Nimble", "14.0.0"),
        ("apple/swift-configuration", "1.4.0"),
    ]

    @Test("Real YAML files (OpenAPI documents, workflows, configurations): the reader gives Yams' tree or leaves the file to Yams",
          .disabled(if: MirroredFile.unavailable != nil, "\(MirroredFile.unavailable ?? "")"))
    func realFiles() async throws {
        var read = 0
        var total = 0
        for corpus in Self.corpora {
            let files = try await MirroredFile.files(repository: "https://github.com/\(corpus.repository)", tag: corpus.tag,
                                                     patterns: [":(glob)**/*.y*ml"])
            for file in files {
                total += 1
                if (try? BlockYAMLReader.read(file.text)) != nil { read += 1 }
                #expect(Self.disagreement(file.text) == nil, "\(corpus.repository)/\(file.path): \(Self.disagreement(file.text) ?? "")")
            }
        }
        // Most real files are inside the subset; the test compares trees for them.
        #expect(total > 250, "\(total)")
        #expect(read * 10 > total * 8, "\(read) of \(total) read by the block reader")
    }

    @Test("The large OpenAPI documents are read by the block reader itself, with no Yams tree",
          .disabled(if: MirroredFile.unavailable != nil, "\(MirroredFile.unavailable ?? "")"),
          arguments: ["ghes-3.0.yaml", "google-books-3.0.yaml", "pet-store-3.0.yaml", "tomtom-3.0.yaml"])
    func documents(_ name: String) async throws {
        let text = try await MirroredFile.text(repository: "https://github.com/mattpolzin/OpenAPIKit", tag: "6.4.0", path: "Tests/inputs/\(name)")
        let ours: SpecNode
        do {
            ours = try BlockYAMLReader.read(text)
        } catch {
            Issue.record("\(name): \(error)")
            return
        }
        #expect(Self.difference(ours, try SpecNode.parsedByYams(text)) == nil)
    }

    @Test("Outside the subset (anchors, tags, several documents, multi-line flow, tabs, CR) Yams reads the document")
    func outside() throws {
        let texts = [
            "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: 1\n---\nb: 2\n", "a: [1,\n  2]\n", "a:\t1\n", "a: 1\r\nb: 2\r\n",
            "? a\n: 1\n", "%YAML 1.1\n---\na: 1\n", "{\"a\": 1}\n",
        ]
        for text in texts {
            #expect(throws: BlockYAMLReader.Outside.self, "\(text.debugDescription)") { try BlockYAMLReader.read(text) }
        }
        let node = try SpecNode.parse("a: &x 1\nb: *x\nc: [1,\n  2]\n", name: "anchors")
        #expect(node["a"]?.string == "1")
        #expect(node["c"]?.array?.count == 2)
    }

    /// A small random YAML text, from pieces chosen to meet every rule the reader follows; now and
    /// then a corner (mostly outside the subset, or refused by YAML).
    struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }

        mutating func pick<T>(_ choices: [T]) -> T { choices[next(choices.count)] }

        /// One of `usual`, or now and then one of `corners`.
        mutating func pick<T>(_ usual: [T], corners: [T]) -> T { next(10) == 0 ? pick(corners) : pick(usual) }

        static let keys = [#"a"#, #"b c"#, #""q k""#, #"'s k'"#, #"200"#, #"x-y"#, #"$ref"#, #""k:#""#, #"-k"#, #"k#x"#,
                           #"'it''s'"#, #""e\tx""#, #"k "#, #"'a' "#, #"?k"#, #":k"#, #"k:x"#, #"é"#]
        static let cornerKeys = [#""a":"#, #"&k"#, #"!k"#, #"[k]"#, "k\t", #"? k"#, #""open"#, #"k #c"#]
        static let scalars = [#"plain"#, #"two words"#, #"3.5"#, #"true"#, #"~"#, #""#, #"a:b"#, #"a #comment"#, #"a#b"#,
                              #"'single'"#, #"'it''s'"#, #""d \u00e9 \x41 \n \" \/ \N \_""#, #"[1, two, 'three']"#,
                              #"{a: 1, b: [x]}"#, #"[]"#, #"{}"#, #"[a, ]"#, #"-1"#, #"http://x/y?z=1#f"#, #""\/""#, "x\ty",
                              #"" spaced ""#, #"'  lead'"#, #"0x1F"#, #"-.inf"#, #".nan"#, #"1e3"#, #"+1"#, #""\U0001F600""#,
                              #"a # b # c"#, #"..."#, #"é ü"#, "\"tab\there\"", #"["x", 'y', z z]"#, #"{"k": "v", 'l': m}"#,
                              #"[-, a]"#, #"a\b"#, #"-x"#, #"?x"#, #":x"#, #"'a''''b'"#, #""\\""#, #"0o17"#, #"1_000"#,
                              #"yes"#, #"Null"#, #"{a: [b, {c: d}]}"#]
        static let cornerScalars = [#""unterminated"#, #"{a: }"#, #"[a: b]"#, #"&anchor v"#, #"*alias"#, #"!tag v"#, #"a: b"#,
                                    #"- x"#, #"? x"#, ##""a"#c"##, #"'x' y"#, #"@at"#, #"`tick"#, #"%pct"#, #""\ud83d""#, #""\0""#,
                                    #""\q""#, #"'"#, #"""#, "a\t#b", #"a:"#, #"--- x"#, #"{a: http://x}"#, #"[?x]"#, #"|x"#,
                                    "[a,\n  b]", #"{a: 1, a: 2}"#]

        /// A multi-line value (its first line's rest and the lines after), in a block at `indent`.
        mutating func multiline(indent: Int) -> String {
            let deeper = String(repeating: " ", count: indent + 1 + next(3))
            let same = String(repeating: " ", count: indent)
            switch next(6) {
            case 0:
                var text = pick(["first", "a b", "x-y"])
                for _ in 0..<(1 + next(3)) {
                    text += "\n" + pick(["", "", " ", deeper + "   "]) + pick(["", "\n"]) + pick([deeper, deeper, same, deeper + " "])
                        + pick(["more", "- item", "[x]", "a:b", "# c", "#c", "'q'", "x #c", "? q", "|", "&a", "x  "],
                               corners: ["a: b", "\tt", "x:"])
                }
                return text
            case 1, 2:
                let quote = pick(["'", "\""])
                var text = quote + pick(["one ", "one", "a''b", #"a\tb "#, #"x\"#, " "])
                for _ in 0..<(1 + next(3)) {
                    text += "\n" + pick(["", "", "\n", " \n"]) + pick([deeper, deeper, same, deeper + "  "])
                        + pick(["two", " three ", #"4\"#, "''", #"\""#, "", #"x \t"#, "t\t"])
                }
                return text + quote + pick(["", "", " ", " # c"], corners: ["x", ": y", "#c"])
            default:
                var text = pick(["|", ">", "|-", ">+", "|2", ">1-", "|+", "|-2", ">-", "| #c"], corners: ["|0", "|#", "|x", ">9"])
                let base = String(repeating: " ", count: indent + pick([1, 2, 2, 3]))
                for _ in 0..<next(5) {
                    text += "\n" + pick(["", base, base, base + "  ", base + " ", String(repeating: " ", count: indent)])
                        + pick(["text", "  more", "", "x y", "# not a comment", "- no item", "z  ", "text"], corners: ["\tt"])
                }
                return text + pick(["", "\n", "\n\n", "\n" + base + "\n"])
            }
        }

        mutating func block(indent: Int, depth: Int) -> String {
            let pad = String(repeating: " ", count: indent)
            var lines: [String] = []
            let sequence = next(3) == 0
            for _ in 0..<(1 + next(3)) {
                if next(8) == 0 { lines.append(pick(["", " ", pad + "# note", "#x", pad + "  # deeper"], corners: ["\t", " \t# c"])) }
                let head = sequence ? pad + pick(["- ", "- ", "-  ", "-"]) : pad + pick(Self.keys, corners: Self.cornerKeys) + pick([": ", ": ", ":", ":  "])
                switch next(depth > 2 ? 3 : 6) {
                case 0, 1:
                    lines.append(head + pick(Self.scalars, corners: Self.cornerScalars))
                case 2:
                    lines.append(head + multiline(indent: indent))
                case 3:
                    lines.append(head + pick(["", " # c"]))
                    let step = pick([1, 2, 2, 4], corners: [0])
                    lines.append(block(indent: indent + (sequence ? step + 1 : step), depth: depth + 1))
                case 4 where sequence:
                    // A compact mapping or sequence in the entry.
                    let inner = block(indent: indent + head.count - indent, depth: depth + 1)
                    lines.append(head + String(inner.drop { $0 == " " }))
                default:
                    lines.append(head)
                    lines.append(block(indent: indent + 2, depth: depth + 1))
                }
            }
            return lines.joined(separator: "\n")
        }

        /// `text` with up to three bytes inserted, removed or replaced by YAML's significant ones.
        mutating func mutate(_ text: String) -> String {
            var bytes = Array(text.utf8)
            let significant = Array(" \n\t:-#'\"|>[]{},&*!?%\\.".utf8)
            for _ in 0..<(1 + next(3)) {
                let position = next(bytes.count + 1)
                switch next(3) {
                case 0: bytes.insert(pick(significant), at: position)
                case 1 where position < bytes.count: bytes.remove(at: position)
                default: if position < bytes.count { bytes[position] = pick(significant) }
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        mutating func document() -> String {
            pick(["", "---\n", "# c\n---\n", "--- # c\n", "\n"]) + block(indent: 0, depth: 0)
                + pick(["\n", "", "\n...\n", "\n\n", "\n# end\n", "\n"], corners: ["\n---\n", "\n...\nx: 1\n"])
        }
    }

    @Test("Generated texts built from YAML's corners: whatever the block reader reads, it reads as Yams does", arguments: 0..<8)
    func generated(_ seed: Int) {
        var generator = Generator(state: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        var valid = 0
        var read = 0
        for _ in 0..<1500 {
            let text = generator.document()
            if (try? SpecNode.parsedByYams(text)) != nil { valid += 1 }
            if (try? BlockYAMLReader.read(text)) != nil { read += 1 }
            if let found = Self.disagreement(text) {
                Issue.record("\(found)\n---- text:\n\(text)\n----")
            }
            // The same text with a few bytes changed: never a crash, never a different tree.
            let mutated = generator.mutate(text)
            if let found = Self.disagreement(mutated) {
                Issue.record("\(found)\n---- mutated text:\n\(mutated)\n----")
            }
        }
        // The generator makes YAML inside the subset often enough for the comparison to mean
        // something: of the texts Yams reads, the reader reads most (the rest have anchors, tags,
        // keys twice, quoted lines libyaml lets run left…).
        #expect(valid > 200 && read * 2 > valid, "\(read) read of \(valid) valid")
    }
}
