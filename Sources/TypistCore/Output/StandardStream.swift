#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

import Synchronization

/// The process's standard output or standard error: the one way the shell writes to them.
///
/// What a failed write does is the program's to say, not the library's: a library (an app's
/// in-app console that writes to them) drops what could not be written and goes on; the command
/// line (``failurePolicy``, set by `ShellCommandLine`) ends the process as `cat` and `curl` do — a
/// reader that has gone away (`typist run x.api | head -1`) quietly, of `SIGPIPE` (status 141); any
/// other failure (`> /dev/full`) with one line on standard error and status 74 (`EX_IOERR`).
package enum StandardStream: Sendable {
    /// Standard output: results and `print`.
    case output
    /// Standard error: diagnostics, notes, progress.
    case error

    /// Why a write failed.
    package enum Failure: Sendable, Equatable {
        /// The reader went away (`EPIPE`).
        case readerGone
        /// Any other error, by its `errno`.
        case failed(code: Int32)
    }

    /// What the program does when a write fails; nil (the default) drops the rest of that text.
    package typealias Policy = @Sendable (StandardStream, Failure) -> Void

    /// The program's answer to a failed write: nil in a library; the command line's ends the process.
    package static let failurePolicy = Mutex<Policy?>(nil)

    package var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }
    /// `standard output` or `standard error`.
    package var name: String { self == .output ? "standard output" : "standard error" }

    /// Writes `text` whole, or hands the failure to ``failurePolicy``.
    package func write(_ text: String) {
        write(text, to: descriptor, policy: Self.failurePolicy.withLock { $0 })
    }

    /// Writes `text` whole to `descriptor` (this stream's, but for tests), or hands the failure to
    /// `policy` and stops.
    package func write(_ text: String, to descriptor: Int32, policy: Policy?) {
        var text = text
        let failure: Failure? = text.withUTF8 { bytes in
            guard var base = bytes.baseAddress else { return nil }
            var remaining = bytes.count
            while remaining > 0 {
                let written = systemWrite(descriptor, base, remaining)
                if written >= 0 {
                    base += written
                    remaining -= written
                    continue
                }
                switch errno {
                case EINTR: continue
                case EAGAIN:
                    // A descriptor someone made non-blocking: wait until it takes more.
                    var wanted = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&wanted, 1, -1)
                case EPIPE: return .readerGone
                case let code: return .failed(code: code)
                }
            }
            return nil
        }
        if let failure { policy?(self, failure) }
    }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
