import Foundation
import TypedAPI

#if canImport(Glibc)
import Glibc
#endif

/// A response body's bytes as libcurl hands them over.
///
/// A body whose length is announced, large and not compressed is received into one anonymous
/// mapping whose pages the kernel populates a window at a time, just ahead of the bytes: a heap
/// buffer growing under `memcpy` took a page fault for every 4 KiB, which was a third of the time
/// of a 10 MB response on this kind of machine. Only the window ahead of what arrived is ever
/// committed, so a `Content-Length` alone (a lying server's) costs address space, not memory. The
/// mapping becomes the `Data` the caller gets, without a copy. Every other body, and one longer
/// than announced, is kept in a `Data` as it grows. With the platform tuning off
/// (``PlatformTuning/isEnabled``, `TYPIST_PLAIN=1`) every body is a `Data`.
final class CurlBody {
    /// Bodies announced at this size or more are mapped.
    static let mappedSize = PlatformTuning.mappedBodySize
    /// How much of the mapping is populated ahead of the bytes that arrived.
    static let window = PlatformTuning.populateWindow
    /// Whether large bodies are mapped (the platform tuning's switch, unless a test says).
    private let maps: Bool

    private var data = Data()
    private var mapping: UnsafeMutableRawBufferPointer?
    private var mapped = 0
    /// How much of the mapping is populated (a multiple of the window, or all of it).
    private var populated = 0

    init(maps: Bool = PlatformTuning.isEnabled) {
        self.maps = maps
    }

    deinit {
        if let mapping { munmap(mapping.baseAddress, mapping.count) }
    }

    /// How many bytes of the mapping are populated: never more than a window past what arrived.
    var populatedCount: Int { mapping == nil ? 0 : populated }

    /// Whether the bytes go into a mapping (see the type's discussion).
    var isMapped: Bool { mapping != nil }

    /// How many bytes have arrived.
    var count: Int { mapping == nil ? data.count : mapped }

    /// Makes room for `length` bytes, announced by `Content-Length` (decoded bodies excepted).
    func reserve(_ length: Int) {
        guard count == 0, mapping == nil else { return }
        #if canImport(Glibc)
        if maps, length >= Self.mappedSize {
            let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            if let address, address != MAP_FAILED {
                PlatformTuning.advise(hugePages: address, length: length)
                mapping = UnsafeMutableRawBufferPointer(start: address, count: length)
                populated = 0
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
                while populated < mapped + bytes.count, let base = mapping.baseAddress {
                    let next = min(populated + Self.window, mapping.count)
                    PlatformTuning.populate(base + populated, length: next - populated)
                    populated = next
                }
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
        defer {
            mapped = 0
            populated = 0
        }
        let length = mapping.count
        return Data(bytesNoCopy: base, count: mapped, deallocator: .custom { address, _ in munmap(address, length) })
    }

    /// Forgets what arrived (a retried exchange starts again).
    func reset() {
        if let mapping { munmap(mapping.baseAddress, mapping.count) }
        mapping = nil
        mapped = 0
        populated = 0
        data = Data()
    }
}
