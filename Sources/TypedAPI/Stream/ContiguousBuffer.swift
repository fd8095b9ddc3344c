/// `body` over `bytes` as one buffer: in place when the sequence is contiguous (an array, `Data`, a
/// buffer), else copied once. The framings read chunks through it.
func withContiguousBuffer<E: Error>(_ bytes: some Sequence<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> Void) throws(E) {
    let contiguous: Result<Void, E>? = bytes.withContiguousStorageIfAvailable { buffer in
        do throws(E) { try body(buffer) } catch { return .failure(error) }
        return .success(())
    }
    switch contiguous {
    case .success?: return
    case .failure(let failure)?: throw failure
    case nil: try Array(bytes).withUnsafeBufferPointer { (buffer) throws(E) in try body(buffer) }
    }
}
