/// Where the last record type seen at each step of a key path keeps that step's name, for one
/// `map`, `filter` or `sorted`: every later element of the same type skips the name lookup.
///
/// Its slots are plain memory rather than `var`s a closure captures: those are checked for
/// exclusive access at run time on every read, which cost `map(\.id)` a quarter of its time.
final class KeyPathCache {
    private let count: Int
    /// The type each step last saw (kept alive while it is remembered), with its identity and the
    /// name's field index.
    private let types: UnsafeMutablePointer<RecordType?>
    private let identities: UnsafeMutablePointer<ObjectIdentifier?>
    private let indexes: UnsafeMutablePointer<Int>

    init(steps count: Int) {
        self.count = count
        types = .allocate(capacity: count)
        types.initialize(repeating: nil, count: count)
        identities = .allocate(capacity: count)
        identities.initialize(repeating: nil, count: count)
        indexes = .allocate(capacity: count)
        indexes.initialize(repeating: 0, count: count)
    }

    deinit {
        types.deinitialize(count: count)
        types.deallocate()
        identities.deallocate()
        indexes.deallocate()
    }

    /// The value of `name` in `record` at `step`, or nil when its type has no such field.
    @inline(__always)
    func field(of record: Record, named name: String, step: Int) -> Value? {
        let identity = ObjectIdentifier(record.type)
        if identities[step] != identity {
            guard let index = record.type.index(of: name) else { return nil }
            types[step] = record.type
            identities[step] = identity
            indexes[step] = index
        }
        return record.value(at: indexes[step])
    }
}
