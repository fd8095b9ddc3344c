/// A call that failed, kept for `:explain` (the workshop reads it in the pattern's terms).
package struct FailedCall: Sendable {
    /// The script function, such as `post(id:)`.
    package let function: String
    /// What went wrong.
    package let error: any Error & Sendable

    package init(function: String, error: any Error & Sendable) {
        self.function = function
        self.error = error
    }
}
