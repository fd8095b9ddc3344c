import APIScript
import Foundation

/// `:source name`: the Swift an endpoint and its models are declared with, as written in the host —
/// the registration, the `extension Endpoint where …` factory it calls, the response model — read
/// from the host's sources where they are on this machine (the demo's always are in a checkout), or
/// rendered faithfully from the types where they are not.
struct SourceLocator {
    /// The folder whose Swift files are searched: the `Sources` folder above the registration's
    /// file, or the file's own folder.
    let root: URL?
    private let files: [(path: String, lines: [Substring])]

    init(registrationFile: String) {
        var folder = URL(fileURLWithPath: registrationFile).deletingLastPathComponent()
        var root: URL?
        for _ in 0..<6 where root == nil {
            if folder.lastPathComponent == "Sources" { root = folder }
            folder = folder.deletingLastPathComponent()
        }
        if root == nil, FileManager.default.fileExists(atPath: registrationFile) {
            root = URL(fileURLWithPath: registrationFile).deletingLastPathComponent()
        }
        self.root = root
        var files: [(String, [Substring])] = []
        if let root, let walker = FileManager.default.enumerator(atPath: root.path) {
            for case let relative as String in walker where relative.hasSuffix(".swift") && files.count < 2_000 {
                let path = root.appendingPathComponent(relative).path
                guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.utf8.count < 1 << 20 else { continue }
                files.append((path, text.split(separator: "\n", omittingEmptySubsequences: false)))
            }
        }
        self.files = files.sorted { $0.0 < $1.0 }
    }

    /// The lines from `line` (1-based) of a file through the end of the declaration that starts
    /// there, with the doc comment above it.
    static func declaration(in lines: [Substring], at line: Int) -> [Substring] {
        guard line >= 1, line <= lines.count else { return [] }
        var start = line - 1
        while start > 0, lines[start - 1].trimmingCharacters(in: .whitespaces).hasPrefix("///") { start -= 1 }
        var depth = 0
        var opened = false
        var end = line - 1
        scan: for index in (line - 1)..<min(lines.count, line - 1 + 400) {
            var inString = false
            var previous: Character = " "
            for character in lines[index] {
                if character == "\"" && previous != "\\" { inString.toggle() }
                if !inString {
                    if character == "/" && previous == "/" { break }
                    if character == "{" || character == "(" { depth += 1; opened = true }
                    if character == "}" || character == ")" { depth -= 1 }
                }
                previous = character
            }
            end = index
            if opened && depth <= 0 { break scan }
            if !opened && index > line - 1 + 2 { break scan }
        }
        return Array(lines[start...end])
    }

    /// The registration itself.
    func registration(path: String, line: Int) -> [Substring]? {
        guard let file = files.first(where: { $0.path == path }) ?? (try? String(contentsOfFile: path, encoding: .utf8)).map({
            (path, $0.split(separator: "\n", omittingEmptySubsequences: false))
        }) else { return nil }
        let found = Self.declaration(in: file.lines, at: line)
        return found.isEmpty ? nil : found
    }

    /// A factory `static func name(` or `static var name:` in an `extension Endpoint`, with that
    /// extension's first line.
    func factory(named name: String) -> (path: String, extensionLine: Substring?, lines: [Substring])? {
        let patterns = ["static func \(name)(", "static var \(name):", "static let \(name):", "static var \(name) :"]
        let topLevel = ["extension ", "struct ", "enum ", "class ", "final class ", "public struct ", "public enum ",
                        "public final class ", "public class ", "actor ", "protocol ", "public protocol "]
        for file in files {
            for (index, line) in file.lines.enumerated() where patterns.contains(where: { line.contains($0) }) {
                // Only a factory of an Endpoint extension: the declaration it sits in must be one.
                let enclosing = file.lines[..<index].last { candidate in topLevel.contains { candidate.hasPrefix($0) } }
                guard let enclosing, enclosing.hasPrefix("extension Endpoint") else { continue }
                return (file.path, enclosing, Self.declaration(in: file.lines, at: index + 1))
            }
        }
        return nil
    }

    /// A type's declaration: `struct Name`, `enum Name`, `class Name`.
    func type(named name: String) -> (path: String, lines: [Substring])? {
        let patterns = ["struct \(name):", "struct \(name) ", "struct \(name)<", "enum \(name):", "enum \(name) ",
                        "final class \(name)", "class \(name):", "class \(name) "]
        for file in files {
            for (index, line) in file.lines.enumerated() where patterns.contains(where: { line.contains($0) })
                && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                return (file.path, Self.declaration(in: file.lines, at: index + 1))
            }
        }
        return nil
    }

    /// A path for display: relative to the searched folder's parent (`Sources/DemoService/…`).
    func display(_ path: String) -> String {
        guard let base = root?.deletingLastPathComponent().path, path.hasPrefix(base + "/") else { return path }
        return String(path.dropFirst(base.count + 1))
    }
}

extension Shell {
    /// `:source name`: an endpoint's registration, factory and response model, or a model's declaration.
    func source(_ name: String) -> Bool {
        guard !name.isEmpty else {
            fail("write :source <endpoint or type>, such as :source post")
            return false
        }
        let style = TerminalStyle(enabled: colors)
        if let endpoint = registry.endpoint(named: name) {
            let locator = SourceLocator(registrationFile: endpoint.source.path)
            var lines: [String] = []
            if let registration = locator.registration(path: endpoint.source.path, line: endpoint.source.line) {
                lines.append(style.dim("// registered at \(locator.display(endpoint.source.path)):\(endpoint.source.line)"))
                lines += registration.map(String.init).map(Self.dedented(registration))
            } else {
                lines.append(style.dim("// registered at \(endpoint.location) (its source is not on this machine)"))
            }
            let called = locator.registration(path: endpoint.source.path, line: endpoint.source.line)
                .flatMap { Self.calledFactory(in: $0.joined(separator: "\n")) } ?? endpoint.name
            if let factory = locator.factory(named: called) {
                lines.append("")
                lines.append(style.dim("// \(locator.display(factory.path))"))
                if let header = factory.extensionLine { lines.append(String(header)) }
                lines += factory.lines.map(String.init).map(Self.dedented(factory.lines)).map { (factory.extensionLine == nil ? "" : "    ") + $0 }
                if factory.extensionLine != nil { lines.append("}") }
            }
            let model = endpoint.responseTypeName.trimmingCharacters(in: CharacterSet(charactersIn: "[]?"))
            if let declaration = modelSource(model, locator: locator, style: style) {
                lines.append("")
                lines += declaration
            }
            write(lines.joined(separator: "\n"))
            return true
        }
        let locator = SourceLocator(registrationFile: registry.endpoints.first?.source.path ?? "")
        if let declaration = modelSource(name, locator: locator, style: style) {
            write(declaration.joined(separator: "\n"))
            return true
        }
        fail("no endpoint or type named '\(name)'; :endpoints lists the endpoints")
        return false
    }

    /// A model's declaration from the sources, or rendered from its type.
    private func modelSource(_ name: String, locator: SourceLocator, style: TerminalStyle) -> [String]? {
        if let found = locator.type(named: name) {
            return [style.dim("// \(locator.display(found.path))")] + found.lines.map(String.init).map(Self.dedented(found.lines))
        }
        guard let record = interpreter.recordTypes[name] else { return nil }
        let declared = registry.bridge.declaredFieldTypes(of: record)
        var lines = [style.dim("// rendered from the type: its source is not on this machine"), "struct \(record.name): Decodable {"]
        for (index, field) in record.fields.enumerated() {
            lines.append("    let \(field.name): \(declared.flatMap { index < $0.count ? $0[index] : nil } ?? "\(field.type)")")
        }
        lines.append("}")
        return lines
    }

    /// The factory a registration closure calls: `Endpoint.post(id: id)` → `post`, `.posts` → `posts`.
    static func calledFactory(in text: String) -> String? {
        guard let match = text.firstMatch(of: /Endpoint\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)/) ?? text.firstMatch(of: /\{[^{}]*?\.([a-z][A-Za-z0-9_]*)/) else {
            return nil
        }
        return String(match.1)
    }

    /// Removes the indentation the lines share.
    static func dedented(_ lines: [Substring]) -> (String) -> String {
        let indent = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
    }
}
