/// A call started with a completion handler; cancel it to stop the HTTP exchange.
public struct CancellableRequest: Sendable {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) { self.task = task }

    /// Cancels the call; the completion handler receives ``APIError/cancelled(_:)``.
    public func cancel() { task.cancel() }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { task.isCancelled }
}
