#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ChildProcess {
    /// What a finished child wrote, and how it ended.
    package struct Finished: Sendable {
        /// How it ended.
        package var termination: Termination
        /// Its standard output (and standard error too, when they were merged).
        package var output: [UInt8]
        /// Its standard error, when not merged.
        package var errors: [UInt8]

        /// The status a shell reports: the exit status, or 128 + the signal.
        package var status: Int32 { termination.status }
    }

    /// Runs `arguments` to its end, feeding it `input` and reading its output and error as each
    /// is ready (so that neither pipe fills while the other is read, and a child that writes
    /// before it has read all its input does not stall).
    ///
    /// - Parameters:
    ///   - environment: The child's whole environment; nil for this process's.
    ///   - directory: Where it runs; nil for the current folder.
    ///   - input: Its standard input; nil or empty for none (it reads the end at once).
    ///   - mergeErrors: Standard error into ``Finished/output``, interleaved as written.
    package static func run(_ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
                            input: [UInt8]? = nil, mergeErrors: Bool = false) throws(Failure) -> Finished {
        let pending = input ?? []
        let child = try ChildProcess(arguments, environment: environment, directory: directory,
                                     input: pending.isEmpty ? .null : .pipe, output: .pipe, errors: mergeErrors ? .output : .pipe)
        let (output, errors) = BrokenPipe.withSignalHeld { child.drain(feeding: pending) }
        return Finished(termination: child.wait(), output: output, errors: errors)
    }

    /// Writes `pending` to the input as it takes it, and reads output and errors as they come,
    /// until both end; closes the input once written (or refused).
    private func drain(feeding pending: [UInt8]) -> (output: [UInt8], errors: [UInt8]) {
        var writer = state.withLock { $0.input }
        if writer >= 0 { _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK) }
        var written = 0
        var collected: [Int32: [UInt8]] = [:]
        var readers = [output, errors].filter { $0 >= 0 }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while !readers.isEmpty || writer >= 0 {
            var entries = readers.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if writer >= 0 { entries.append(pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)) }
            guard poll(&entries, nfds_t(entries.count), -1) >= 0 || errno == EINTR else { break }
            for entry in entries where entry.revents != 0 {
                if entry.fd == writer {
                    let count = pending.withUnsafeBytes { bytes in
                        write(writer, bytes.baseAddress.map { $0 + written }, bytes.count - written)
                    }
                    if count > 0 { written += count }
                    if written == pending.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                        closeInput()
                        writer = -1
                    }
                    continue
                }
                let count = systemRead(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    collected[entry.fd, default: []] += buffer[..<count]
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    readers.removeAll { $0 == entry.fd }
                }
            }
        }
        return (collected[output] ?? [], errors >= 0 ? collected[errors] ?? [] : [])
    }
}
