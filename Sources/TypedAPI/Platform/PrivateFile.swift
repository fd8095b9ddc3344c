import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files only their owner may read: saved sessions, credential exports, cassettes.
package enum PrivateFile {
    /// Why a file was not written, in words.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) { self.description = description }

        static func system(_ what: String, _ code: Int32 = errno) -> Failure {
            Failure(description: "\(what): \(String(cString: strerror(code)))")
        }
    }

    /// Writes `bytes` to `path`, readable by its owner only (0600), also when it already exists.
    ///
    /// The bytes go to a new file beside it, which then takes the file's place: a failure leaves
    /// the old file as it was (never truncated), and only a regular file is ever replaced (a
    /// device such as `/dev/null` is refused, never chmod-ed). Through a symbolic link, the file
    /// it names is the one replaced.
    package static func write(_ bytes: some Collection<UInt8>, to path: String) throws(Failure) {
        var target = path
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw Failure(description: "it is not a regular file")
            }
            // Replacing another user's file (one it may write through its group) would make it
            // ours, 0600, its content gone for its owner: refused.
            guard info.st_uid == geteuid() else {
                throw Failure(description: "it belongs to another user (uid \(info.st_uid)); write to a file of your own")
            }
            if let resolved = realpath(path, nil) {
                target = String(cString: resolved)
                free(resolved)
            }
        }
        let folder = (target as NSString).deletingLastPathComponent
        var template = Array(((folder.isEmpty ? "." : folder) + "/.typist-save-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw .system("cannot create a file in '\(folder.isEmpty ? "." : folder)'") }
        let temporary = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var finished = false
        defer {
            close(descriptor)
            if !finished { unlink(temporary) }
        }
        guard fchmod(descriptor, 0o600) == 0 else { throw .system("cannot make it private") }
        let contiguous = Array(bytes)  // No copy when `bytes` is an array already.
        var offset = 0
        while offset < contiguous.count {
            let written = contiguous[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .system("cannot write it")
            }
            offset += written
        }
        guard fsync(descriptor) == 0 else { throw .system("cannot write it") }
        guard rename(temporary, target) == 0 else { throw .system("cannot put it in place") }
        finished = true
    }
}
