/// Something that follows the inputs of a prompt, such as the workshop's lesson walk, which checks
/// after each input whether it completed the current step.
package protocol InputObserver: AnyObject, Sendable {
    /// Whether the errors the next input writes are to be collected and passed to
    /// ``inputEnded(_:succeeded:errors:shell:)`` (a step whose line is meant to be refused).
    func collectsErrors(shell: Shell) -> Bool

    /// Called after each input at the prompt (code, or a command that is ``MetaCommand/isObserved``).
    func inputEnded(_ input: String, succeeded: Bool, errors: String, shell: Shell) async
}
