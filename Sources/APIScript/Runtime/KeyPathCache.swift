/// Where the last record type seen at each step of a key path keeps that step's name, for one
/// `map`, `filter` or `sorted`: every later element of the same type skips the name lookup.
///
/// Its slots are plain memory rather than `var`s a closure captures: those are checked for
/// exclusive access at run time on every read, which cost `map(\.id)` a quarter of its time.
final class KeyPathCache {
    private struct Slot {
        /// The type this step last saw, kept alive while it is remembered.
        var type: RecordType?
        /// Its identity, compared without touching the reference count.
        var identity: ObjectIdentifier?
        /// Where that type keeps the step's name.
        var index = 0
    }

    private let steps: Int
    private let slots: UnsafeMutablePointer<Slot>

    init(steps: Int) {
        self.steps = steps
        slots = .allocate(capacity: steps)
        slots.initialize(repeating: Slot(), count: steps)
    }

    deinit {
        slots.deinitialize(count: steps)
        slots.deallocate()
    }

    /// The value of `name` in `record` at `step`, or nil when its type has no such field.
    @inline(__always)
    func field(of record: Record, named name: String, step: Int) -> Value? {
        let identity = ObjectIdentifier(record.type)
        if slots[step].identity != identity {
            guard let index = record.type.index(of: name) else { return nil }
            slots[step] = Slot(type: record.type, identity: identity, index: index)
        }
        return record.value(at: slots[step].index)
    }
}
