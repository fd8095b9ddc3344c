/// What a host function hands to the host calls made inside a closure it calls, and only to those:
/// the shell's `pages { … }` hands its page follower to the one endpoint call in its closure.
///
/// A host function that reads its scope is made with ``HostFunction/init(name:parameters:returnType:summary:scopedBody:)``
/// and gets the scope as a parameter; one that hands a value on calls the closure with
/// ``Function/callFromHost(_:handing:)``. Calls that run side by side (`concurrentMap`) each see the
/// scope of the closure they were made in.
package struct HostScope: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    package init() {}

    /// The value of type `T` handed on, if any.
    package subscript<T: Sendable>(_ type: T.Type) -> T? {
        values[ObjectIdentifier(type)] as? T
    }

    /// This scope with `value` handed on (in place of one of its type).
    func handing<T: Sendable>(_ value: T) -> HostScope {
        var copy = self
        copy.values[ObjectIdentifier(T.self)] = value
        return copy
    }
}
