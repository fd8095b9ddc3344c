import APIScript

extension Shell {
    /// The shell whose input the current task is running, so that an entry reached from within an
    /// input (a `:load`, a lesson step, a host function that evaluates) does not wait for itself.
    @TaskLocal static var inputUnderWay: ObjectIdentifier?

    /// Runs `body` as the session's one input under way: after the input another task started, if
    /// any, and before the next.
    func oneInputAtATime<T>(_ body: () async throws -> T) async rethrows -> T {
        let me = ObjectIdentifier(self)
        if Self.inputUnderWay == me { return try await body() }
        await inputTurn.acquire()
        defer { inputTurn.release() }
        let validation = session.validatesResponses.load(ordering: .relaxed)
            ? ResponseValidation(write: output.error) : nil
        return try await Self.$inputUnderWay.withValue(me) {
            try await router.running(preview: nil, validation: validation) { try await body() }
        }
    }

    /// Runs `body` (which does not wait) as the input under way if no other input is; `nil` if one is.
    func ifNoOtherInput<T>(_ body: () throws -> T) rethrows -> T? {
        let me = ObjectIdentifier(self)
        if Self.inputUnderWay == me { return try body() }
        guard inputTurn.tryAcquire() else { return nil }
        defer { inputTurn.release() }
        return try Self.$inputUnderWay.withValue(me) { try body() }
    }
}

extension Shell {
    /// Whether responses a document types are read against its schema whole, and every departure
    /// said (`--validate`).
    package var validatesResponses: Bool {
        get { session.validatesResponses.load(ordering: .relaxed) }
        set { session.validatesResponses.store(newValue, ordering: .relaxed) }
    }
}
