#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTypistPlatform

/// The pipes made for a child, each end closed on exec (so that only the child given an end by
/// a file action holds it), and closed again here if the child is not started.
struct PipeSet {
    private var open: [Int32] = []

    /// A new pipe.
    mutating func make() throws(ChildProcess.Failure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard typist_pipe_cloexec(&ends) == 0 else { throw .system("cannot make a pipe") }
        open += ends
        return (ends[0], ends[1])
    }

    /// Closes the given ends (the child's, once it holds its own copies).
    mutating func release(_ ends: [Int32?]) {
        for case let end? in ends {
            close(end)
            open.removeAll { $0 == end }
        }
    }

    /// Closes every end still open (the child was not started).
    mutating func releaseAll() { release(open) }
}
