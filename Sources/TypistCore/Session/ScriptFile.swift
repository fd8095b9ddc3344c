import Foundation

/// Reads a script file (`typist run`, `:load`) within a size limit, with a reason in words when it
/// cannot: a 1 GB file or `/dev/zero` is refused at once instead of being read into memory.
package enum ScriptFile {
    /// The largest script read: far beyond any script a person writes.
    package static let maximumSize = 16 << 20

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The text of the file at `path`, refused past `limit` bytes (`what` says what it is for).
    package static func read(_ path: String, limit: Int = maximumSize, what: String = "a script") throws(Failure) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(description: String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard info.st_size <= limit else {
                throw Failure(description: "it is \(info.st_size / (1 << 20)) MiB; \(what) may be at most \(limit >> 20) MiB")
            }
        case S_IFDIR: throw Failure(description: "it is a folder")
        case S_IFIFO: break  // `typist run <(…)`: read below, within the limit
        default: throw Failure(description: "it is not a regular file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure(description: String(cString: strerror(errno))) }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limit + 1) ?? Data() else {
            throw Failure(description: "it could not be read")
        }
        guard data.count <= limit else { throw Failure(description: "\(what) may be at most \(limit >> 20) MiB") }
        guard let text = String(data: data, encoding: .utf8) else { throw Failure(description: "it is not UTF-8 text") }
        return text
    }
}
