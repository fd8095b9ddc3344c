import APIScript
import Foundation
import TypistCore
import TypistText

/// Schemas kept by a hash of their text, so a large one (GitHub's, 1.2 MB of SDL) is parsed once
/// and its model read back from a small file of Typist's own. The validator's schema is built
/// from the text only when an operation is checked.
///
/// Anything wrong with a cache file makes the schema load the long way; a cache never decides a
/// result. Writing is atomic and best effort.
package enum GraphQLSchemaCache {
    /// `$XDG_CACHE_HOME/typist/graphql`, or `~/.cache/typist/graphql`; nil without a home, or
    /// with `TYPIST_NO_CACHE` set.
    package static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if environment["TYPIST_NO_CACHE"] != nil { return nil }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("typist/graphql")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/typist/graphql")
    }

    /// Removes the files of `directory` used least recently (by modification time) beyond
    /// `capacity`, so the folder does not grow with every schema or query ever read. Best effort.
    static func prune(_ directory: URL, keeping capacity: Int) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path), names.count > capacity else { return }
        let dated = names.compactMap { name -> (String, Date)? in
            let path = directory.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let date = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { return nil }
            return (path, date)
        }
        for (path, _) in dated.sorted(by: { $0.1 < $1.1 }).dropLast(capacity) { try? manager.removeItem(atPath: path) }
    }

    /// The service of a schema file: SDL, or an introspection answer saved as JSON.
    package static func service(file: String, path: String, directory: URL? = directory()) throws -> GraphQLService {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw GraphQLSchemaError("cannot read \(TerminalText.sanitized(file)): \((error as NSError).localizedDescription)")
        }
        return try service(text: text, name: (file as NSString).lastPathComponent, path: path, directory: directory)
    }

    /// The service of an introspection answer fetched from the service.
    static func service(introspection json: Data, name: String, path: String, directory: URL?) throws -> GraphQLService {
        try service(text: String(decoding: json, as: UTF8.self), name: name, path: path, directory: directory)
    }

    /// The service of a schema's text, its model from the cache when it holds this text's.
    package static func service(text: String, name: String, path: String, directory: URL? = directory()) throws -> GraphQLService {
        let isJSON = text.first { !$0.isWhitespace } == "{"
        let key = SHA256Digest.hex(text)
        let file = directory?.appendingPathComponent("\(key).schema")
        var schema: GraphQLSchemaModel?
        if let file, let data = try? Data(contentsOf: file) {
            schema = SchemaModelFile.decode([UInt8](data))
            // Used now: the last to go when the folder is pruned.
            if schema != nil { try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path) }
        }
        let model: GraphQLSchemaModel
        if let schema {
            model = schema
        } else {
            if isJSON {
                let json: Value
                do throws(JSONReader.Failure) {
                    json = try JSONReader.parse(Data(text.utf8))
                } catch {
                    throw GraphQLSchemaError("\(name) is not JSON an introspection answer can be (\(error))")
                }
                model = try GraphQLSchemaModel(introspection: json)
            } else {
                model = try GraphQLSchemaModel(sdl: text)
            }
            if let file, let directory {
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try? Data(SchemaModelFile.encode(model).utf8).write(to: file, options: .atomic)
                prune(directory, keeping: 16)
            }
        }
        // SDL is checked against as written; an introspection answer, as the model prints it.
        let sdl: @Sendable () -> String
        if isJSON { sdl = { model.sdl } } else { sdl = { text } }
        let validator = SchemaValidator(sdl: sdl)
        var service = GraphQLService(schema: model, validator: validator, path: path, name: name)
        service.validTexts = directory.map { ValidOperations(directory: $0.appendingPathComponent("valid"), schemaKey: key) }
        return service
    }
}

/// Which texts of operations passed the specification's rules against one schema: an empty file
/// named by the two texts' hashes. Only a pass is kept (a text with errors is checked every time,
/// so its errors are always said), and a text is typed from the schema every time.
package struct ValidOperations: Sendable {
    let directory: URL
    let schemaKey: String

    private func file(_ text: String) -> URL {
        directory.appendingPathComponent(SHA256Digest.hex(schemaKey + "\u{0}" + text))
    }

    func contains(_ text: String) -> Bool { FileManager.default.fileExists(atPath: file(text).path) }

    func insert(_ text: String) {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data().write(to: file(text), options: .atomic)
        GraphQLSchemaCache.prune(directory, keeping: 1024)
    }
}
