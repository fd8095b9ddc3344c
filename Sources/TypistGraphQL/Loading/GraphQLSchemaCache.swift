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
    /// Raised when the model's encoding changes.
    static let version = 1

    /// `$XDG_CACHE_HOME/typist/graphql`, or `~/.cache/typist/graphql`; nil without a home, or
    /// with `TYPIST_NO_CACHE` set.
    static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if environment["TYPIST_NO_CACHE"] != nil { return nil }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("typist/graphql")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/typist/graphql")
    }

    /// The service of a schema file: SDL, or an introspection answer saved as JSON.
    package static func service(file: String, path: String) throws -> GraphQLService {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw GraphQLSchemaError("cannot read \(TerminalText.sanitized(file)): \((error as NSError).localizedDescription)")
        }
        return try service(text: text, name: (file as NSString).lastPathComponent, path: path)
    }

    /// The service of an introspection answer fetched from the service.
    static func service(introspection json: Data, name: String, path: String) throws -> GraphQLService {
        try service(text: String(decoding: json, as: UTF8.self), name: name, path: path)
    }

    /// The service of a schema's text, its model from the cache when it holds this text's.
    package static func service(text: String, name: String, path: String, directory: URL? = directory()) throws -> GraphQLService {
        let isJSON = text.first { !$0.isWhitespace } == "{"
        let key = SHA256Digest.hex(text)
        let file = directory?.appendingPathComponent("\(key).json")
        var schema: GraphQLSchemaModel?
        if let file, let data = try? Data(contentsOf: file), let cached = try? JSONDecoder().decode(Entry.self, from: data),
           cached.version == version {
            schema = cached.schema
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
            if let file, let directory, let data = try? JSONEncoder().encode(Entry(version: version, schema: model)) {
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try? data.write(to: file, options: .atomic)
            }
        }
        // SDL is checked against as written; an introspection answer, as the model prints it.
        let sdl: @Sendable () -> String
        if isJSON { sdl = { model.sdl } } else { sdl = { text } }
        let validator = SchemaValidator(sdl: sdl)
        return GraphQLService(schema: model, validator: validator, path: path, name: name)
    }

    private struct Entry: Codable {
        var version: Int
        var schema: GraphQLSchemaModel
    }
}
