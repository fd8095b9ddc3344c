import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A response body's bytes as libcurl hands them over.
///
/// A body whose length is announced, large and not compressed is received into one anonymous
/// mapping that the kernel populates at once (`MAP_POPULATE`): a heap buffer growing under
/// `memcpy` took a page fault for every 4 KiB, which was a third of the time of a 10 MB response
/// on this kind of machine. The mapping becomes the `Data` the caller gets, without a copy. Every
/// other body, and one longer than announced, is kept in a `Data` as it grows.
final class CurlBody {
    /// Bodies announced at this size or more are mapped.
    static let mappedSize = 1 << 20

    private var data = Data()
    private var mapping: UnsafeMutableRawBufferPointer?
    private var mapped = 0

    deinit {
        if let mapping { munmap(mapping.baseAddress, mapping.count) }
    }

    /// Whether the bytes go into a mapping (see the type's discussion).
    var isMapped: Bool { mapping != nil }

    /// How many bytes have arrived.
    var count: Int { mapping == nil ? data.count : mapped }

    /// Makes room for `length` bytes, announced by `Content-Length` (decoded bodies excepted).
    func reserve(_ length: Int) {
        guard count == 0, mapping == nil else { return }
        #if canImport(Glibc)
        if length >= Self.mappedSize {
            let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            if let address, address != MAP_FAILED {
                // Huge pages where the system allows them for those who ask (2 MiB a fault
                // instead of 4 KiB), then every page at once; either may be refused, and then
                // the pages come as they are written.
                _ = madvise(address, length, MADV_HUGEPAGE)
                _ = madvise(address, length, 23 /* MADV_POPULATE_WRITE, Linux 5.14 */)
                mapping = UnsafeMutableRawBufferPointer(start: address, count: length)
                return
            }
        }
        #endif
        data.reserveCapacity(length)
    }

    /// Adds bytes at the end.
    func append(_ bytes: UnsafeRawBufferPointer) {
        if let mapping {
            if mapped + bytes.count <= mapping.count {
                if let source = bytes.baseAddress, let target = mapping.baseAddress {
                    (target + mapped).copyMemory(from: source, byteCount: bytes.count)
                }
                mapped += bytes.count
                return
            }
            // Longer than announced: on in a Data, which takes what came so far.
            data = Data(UnsafeRawBufferPointer(rebasing: mapping[..<mapped]))
            munmap(mapping.baseAddress, mapping.count)
            self.mapping = nil
        }
        data.append(contentsOf: bytes)
    }

    /// The body, handed over; the buffer is empty afterwards.
    func take() -> Data {
        guard let mapping, let base = mapping.baseAddress else {
            defer { data = Data() }
            return data
        }
        self.mapping = nil
        defer { mapped = 0 }
        let length = mapping.count
        return Data(bytesNoCopy: base, count: mapped, deallocator: .custom { address, _ in munmap(address, length) })
    }

    /// Forgets what arrived (a retried exchange starts again).
    func reset() {
        if let mapping { munmap(mapping.baseAddress, mapping.count) }
        mapping = nil
        mapped = 0
        data = Data()
    }
}
