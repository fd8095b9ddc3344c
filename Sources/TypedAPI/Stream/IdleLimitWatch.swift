import Synchronization

/// Whether a stream's read was stopped because the gap passed the client's limit, and not because
/// its reader left: both cancel the read, and a transport underneath may need to tell them apart
/// (a cassette keeps a time-out, to replay it, where a reader's leaving is only the end of what
/// was read). The stream's reader sets it before it cancels the read, which runs with it as
/// ``current``.
final class IdleLimitWatch: Sendable {
    /// The watch of the read this task runs, if it is a stream's.
    @TaskLocal static var current: IdleLimitWatch?

    private let passed = Atomic<Bool>(false)

    /// Whether the gap passed the limit, once the read has been cancelled.
    var hasPassed: Bool { passed.load(ordering: .acquiring) }

    /// Sets whether the gap passed the limit (before the read is cancelled for it).
    func set(passed value: Bool) { passed.store(value, ordering: .releasing) }
}
