#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

import TypistCore

/// The command line's answer to output it cannot write, which a program ends on and a library
/// does not (``ShellCommandLine`` installs it; TypistCore's default goes on):
///
/// - the reader has gone away (`typist run x.api | head -1`): end quietly, as `cat` and `curl`
///   do — the process dies of `SIGPIPE`, so a shell script sees status 141 and no message;
/// - any other failure (`> /dev/full`, a disk that filled up): one line on standard error and
///   exit status 74 (`EX_IOERR`) — output that cannot be written must not pass for a success.
enum ProcessOutputPolicy {
    static func install() {
        StandardStream.failurePolicy.withLock { $0 = handle }
    }

    private static func handle(_ stream: StandardStream, _ failure: StandardStream.Failure) {
        switch failure {
        case .readerGone:
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
            _exit(ExitStatus.closedPipe)
        case .failed(let code):
            if stream == .output {
                StandardStream.error.write("typist: cannot write to \(stream.name): \(String(cString: strerror(code)))\n",
                                           to: STDERR_FILENO, policy: nil)
            }
            _exit(ExitStatus.cannotWrite)
        }
    }
}
