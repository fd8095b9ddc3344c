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
        // Opened without waiting: a named FIFO nobody writes to would hold `open` forever.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        // Then read as a blocking file: a pipe's writer (`<(…)`) may take its time; a FIFO with
        // no writer reads as its end at once.
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            throw Failure(description: String(cString: strerror(errno)))
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while data.count <= limit {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "it could not be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[..<count])
        }
        guard data.count <= limit else { throw Failure(description: "\(what) may be at most \(limit >> 20) MiB") }
        if data.isEmpty, info.st_mode & S_IFMT == S_IFIFO {
            throw Failure(description: "nothing is writing to it (a FIFO or pipe whose writer is gone, or never came)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw Failure(description: "it is not UTF-8 text") }
        return text
    }
}
