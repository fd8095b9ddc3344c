#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's standard output or standard error: the one way the shell writes to them.
///
/// A reader that has gone away (`typist run x.api | head -1`) ends the program quietly, as `cat`
/// and `curl` do: the process dies of `SIGPIPE`, so a shell script sees status 141 and no message.
/// Any other failure to write (`> /dev/full`, a disk that filled up) is one line on standard error
/// and exit status 74 (`EX_IOERR`): output that cannot be written must not pass for a success.
package enum StandardStream: Sendable {
    /// Standard output: results and `print`.
    case output
    /// Standard error: diagnostics, notes, progress.
    case error

    private var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }
    private var name: String { self == .output ? "standard output" : "standard error" }

    /// Writes `text` whole, or ends the process as described above.
    package func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard var base = bytes.baseAddress else { return }
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
                case EPIPE: Self.endQuietly()
                default: fail(errno)
                }
            }
        }
    }

    /// The reader is gone: die as a pipeline's writer does, of `SIGPIPE`.
    private static func endQuietly() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        _exit(ExitStatus.closedPipe)
    }

    private func fail(_ code: Int32) -> Never {
        if self == .output {
            let message = "typist: cannot write to \(name): \(String(cString: strerror(code)))\n"
            var line = message
            line.withUTF8 { bytes in _ = bytes.baseAddress.map { systemWrite(STDERR_FILENO, $0, bytes.count) } }
        }
        _exit(ExitStatus.cannotWrite)
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
