import Synchronization

/// `--validate`: every response a document types is read against its schema whole, and where it
/// departs — a key the document does not declare, and, when it cannot be typed, every departure,
/// not only the first — is said with its JSON path. A response that can be typed is still used;
/// what the document does not say is a warning.
package final class ResponseValidation: Sendable {
    private let write: @Sendable (String) -> Void
    /// The most departures one response reports.
    package static let shownPerResponse = 10

    package init(write: @escaping @Sendable (String) -> Void) { self.write = write }

    /// Writes one warning line.
    package func warn(_ text: String) { write("warning: " + text + "\n") }
}
