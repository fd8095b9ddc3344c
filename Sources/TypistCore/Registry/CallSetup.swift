import TypedAPI

/// What one call of a registration is sent with, handed to its plan (``CallPlan/send``) by the
/// call router: the credentials, the client's call context (its label, and what the session's
/// middlewares read: a preview's sample, a page's link), and the input's response validation.
package struct CallSetup: Sendable {
    /// The credentials the call may send (a preview's placeholders for those the session lacks).
    package var credentials: SessionCredentials
    /// The context the client hands its middlewares and transport.
    package var context: CallContext
    /// `--validate`'s reader of departures from a document, when the session validates.
    package var validation: ResponseValidation?

    package init(credentials: SessionCredentials, context: CallContext = CallContext(), validation: ResponseValidation? = nil) {
        self.credentials = credentials
        self.context = context
        self.validation = validation
    }
}
