/// An error a host function throws with notes of its own — what to do next, what the service
/// said — which become the diagnostic's notes as they are, not joined into its text and split
/// again. The diagnostic's message is the first line of ``message``; any further lines of it come
/// before the notes.
package protocol NotedError: Error {
    /// What went wrong.
    var message: String { get }
    /// The notes, each one line, in order.
    var notes: [String] { get }
}
