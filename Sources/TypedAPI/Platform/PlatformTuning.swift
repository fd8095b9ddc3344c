import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The platform-specific speed code's one switch and its figures, in one place.
///
/// Typist takes a few liberties with the platform where measurements showed they pay:
/// - the libcurl transport receives a large body, announced by its `Content-Length`, into an
///   anonymous mapping with transparent huge pages, populated a window ahead of the bytes
///   (``mappedBodySize``, ``populateWindow``, ``advise(hugePages:length:)``, ``populate(_:length:)``);
/// - the command line tunes glibc's malloc: one arena, a heap that grows ``heapTopPad`` at a time;
/// - and, when the process ends after `main`, leaves the last session's values to the kernel
///   instead of freeing them one by one.
///
/// Setting `TYPIST_PLAIN=1` in the environment turns every one of them off — for a heap profiler,
/// valgrind, or to measure what they are worth; ``isEnabled`` is the switch each of them reads.
package enum PlatformTuning {
    /// Whether the tuning is on: unless `TYPIST_PLAIN` is set to something other than `0`.
    package static let isEnabled: Bool = {
        let plain = ProcessInfo.processInfo.environment["TYPIST_PLAIN"] ?? ""
        return plain.isEmpty || plain == "0"
    }()

    /// A body announced at this size or more is received into a mapping (1 MiB).
    package static let mappedBodySize = 1 << 20
    /// How much of a mapping is populated ahead of the bytes that arrived (4 MiB).
    package static let populateWindow = 4 << 20
    /// How much glibc's heap grows at a time once tuned (16 MiB): threads other than the main one
    /// otherwise get arenas that grow a page at a time, one system call each.
    package static let heapTopPad = 16 << 20
    /// `MADV_POPULATE_WRITE` (Linux 5.14), which Glibc's module does not name.
    static let populateWriteAdvice: Int32 = 23

    /// Asks for transparent huge pages for a mapping (2 MiB a fault instead of 4 KiB); the system
    /// may refuse, and then the pages come as they are.
    package static func advise(hugePages address: UnsafeMutableRawPointer, length: Int) {
        #if canImport(Glibc)
        _ = madvise(address, length, MADV_HUGEPAGE)
        #endif
    }

    /// Populates a stretch of a mapping ahead of the writes into it (one system call instead of a
    /// fault per page); older kernels refuse, and the pages come as they are written.
    package static func populate(_ address: UnsafeMutableRawPointer, length: Int) {
        #if os(Linux)
        _ = madvise(address, length, populateWriteAdvice)
        #endif
    }
}
