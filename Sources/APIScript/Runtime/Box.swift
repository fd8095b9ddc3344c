/// A variable's storage when closures capture it, and every global's.
///
/// The value lives in memory the box owns; reads and writes go straight to it, without the
/// run-time exclusivity checks a stored class property would pay on every loop iteration.
final class Box {
    private let pointer: UnsafeMutablePointer<Value>

    init(_ value: Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    var value: Value {
        @inline(__always) get { pointer.pointee }
        @inline(__always) set { pointer.pointee = newValue }
    }
}
