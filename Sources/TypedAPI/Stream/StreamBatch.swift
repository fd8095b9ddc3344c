/// The bytes of the items one chunk (or more) of a stream completed, one after another, handed
/// from the reader to the iterator that decodes them.
@usableFromInline
struct StreamBatch: Sendable {
    /// How many items the batch holds.
    @usableFromInline private(set) var count = 0
    private let storage = Storage()
    private var ends: [Int] = []
    /// Whether the framing checked the items' bytes as UTF-8 (an event stream's do).
    var isUTF8 = false
    /// The request whose answer this is, for errors.
    var request = RequestSummary(method: "GET", url: "")

    @usableFromInline
    init() {}

    var isEmpty: Bool { count == 0 }

    /// Adds an item's bytes (while the batch is the reader's alone).
    mutating func append(_ item: UnsafeBufferPointer<UInt8>) {
        storage.append(item)
        ends.append(storage.count)
        count += 1
    }

    /// The bytes of the item at `index`, valid while the batch is.
    func item(at index: Int) -> UnsafeRawBufferPointer {
        let start = index == 0 ? 0 : ends[index - 1]
        return UnsafeRawBufferPointer(start: storage.base + start, count: ends[index] - start)
    }

    /// The items' bytes, in memory of their own: taking an item is a pointer, not a generic
    /// closure (in code not specialized for the item type, each such closure's type is looked up).
    ///
    /// Invariant (why `@unchecked Sendable`): written only by the reader, before it hands the
    /// batch over; the reader then starts a new batch (`swap` with an empty one), so a batch handed
    /// over is only read. (An `[UInt8]` in its place, checked, read 100,000 events 20 % slower.)
    /// Tested by `UncheckedSendableTests` ("A stream's batches are only read once handed over").
    private final class Storage: @unchecked Sendable {
        private(set) var base = UnsafeMutableRawPointer.allocate(byteCount: 0, alignment: 1)
        private(set) var count = 0
        private var capacity = 0

        deinit { base.deallocate() }

        func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            if count + bytes.count > capacity {
                let grown = max(count + bytes.count, 2 * capacity, 4096)
                let new = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 1)
                new.copyMemory(from: base, byteCount: count)
                base.deallocate()
                base = new
                capacity = grown
            }
            if let source = bytes.baseAddress { (base + count).copyMemory(from: source, byteCount: bytes.count) }
            count += bytes.count
        }
    }
}
