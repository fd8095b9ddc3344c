import APIScript
import Foundation
import TypedAPI

extension Shell {
    /// The largest file `file(_:)` reads: it is sent from memory.
    static let largestUpload = 512 << 20

    /// Registers `file(_:contentType:)` — a file to upload — unless the host has an endpoint of that name.
    func registerFileFunction() throws {
        interpreter.register(UploadFile.recordType)
        guard !registry.endpoints.contains(where: { $0.name == "file" }) else { return }
        let session = session
        let summary = "A file to upload, read now: for a multipart field or a binary body, such as "
            + "uploadFile(petId: 1, body: file(\"cat.png\")). Its type is guessed from the name unless given; "
            + "a relative path is from the working folder"
        var function = HostFunction(
            name: "file",
            parameters: [
                .init(label: nil, name: "path", type: .string),
                .init(label: "contentType", type: .optional(.string), defaultValue: .null),
            ],
            returnType: UploadFile.scriptType, summary: summary
        ) { values in
            guard case .string(let path)? = values.first else { throw SessionError("file(_:) takes a path, such as file(\"cat.png\")") }
            let contentType: String? = if case .string(let type)? = values.dropFirst().first { type } else { nil }
            let file = try Self.readUpload(path, contentType: contentType)
            // `~` expanded: curl does not expand it inside quotes.
            session.remember(upload: file, path: (path as NSString).expandingTildeInPath)
            return file.scriptValue
        }
        // In Swift (`:swift`): `UploadFile(contentsOf:)`, which does not await.
        function.isSynchronous = true
        try interpreter.register(function)
    }

    /// Reads a file for `file(_:)`, with one clear error for each way it can fail.
    static func readUpload(_ path: String, contentType: String?) throws -> UploadFile {
        guard !path.isEmpty else { throw SessionError("file(_:) needs a path, such as file(\"cat.png\")") }
        if let contentType, contentType.isEmpty || contentType.contains(where: { $0.isNewline }) {
            throw SessionError("file(_:contentType:) needs a media type, such as \"image/png\"")
        }
        let expanded = (path as NSString).expandingTildeInPath
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: expanded, isDirectory: &isFolder) else {
            let relative = !path.hasPrefix("/") && !path.hasPrefix("~")
            throw SessionError("file(_:): there is no file '\(path)'" + (relative ? " (a relative path is from \(FileManager.default.currentDirectoryPath))" : ""))
        }
        guard !isFolder.boolValue else { throw SessionError("file(_:): '\(path)' is a folder; give a file in it") }
        // A device or a pipe (`/dev/zero`, `/dev/stdin`) could be read for ever: regular files only.
        let target = URL(fileURLWithPath: expanded).resolvingSymlinksInPath()
        guard (try? FileManager.default.attributesOfItem(atPath: target.path)[.type] as? FileAttributeType) == .typeRegular else {
            throw SessionError("file(_:): '\(path)' is not a regular file (a device, a pipe or a socket); copy what it holds into a file")
        }
        let tooLarge = SessionError("file(_:): '\(path)' is larger than \(largestUpload >> 20) MB; Typist sends files of up to \(largestUpload >> 20) MB")
        let size = (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? 0
        guard size <= largestUpload else { throw tooLarge }
        do {
            // Read with a bound: a file that grew since is not read past it.
            let handle = try FileHandle(forReadingFrom: target)
            defer { try? handle.close() }
            let data = try handle.read(upToCount: largestUpload + 1) ?? Data()
            guard data.count <= largestUpload else { throw tooLarge }
            return UploadFile(filename: (expanded as NSString).lastPathComponent, contentType: contentType, data: data)
        } catch let error as SessionError {
            throw error
        } catch {
            throw SessionError("file(_:): '\(path)' cannot be read (\((error as NSError).localizedDescription))")
        }
    }
}
