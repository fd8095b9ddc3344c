import TypedAPI

/// One HTTP transport a host offers its command line (`--transport NAME`): how to make it, and
/// where its sessions run best.
///
/// The shell itself links no transport but Foundation's; a host passes the ones it wants in
/// ``ShellHost/transports`` (the first is the default). `typist` offers `.curl` (from the
/// `TypistCurl` product) and ``urlSession``:
///
/// ```swift
/// import TypistCurl
/// let host = ShellHost(name: "myshell", registry: { try myRegistry() }, transports: [.curl, .urlSession])
/// ```
public struct TransportOption: Sendable {
    /// A session's use of a transport: it gets the transport and where it runs best (`nil` for a
    /// thread of the shell's own), and returns the session's exit status.
    public typealias Session = (_ transport: any HTTPTransport, _ executor: (any TaskExecutor)?) async -> Int32

    /// The name `--transport` takes.
    public var name: String
    /// Runs one session with a transport of this kind; what the transport holds (a thread, its
    /// connections) ends when the session returns.
    public var withSession: @Sendable (_ session: Session) async -> Int32

    /// Describes a transport whose sessions get it from `make`, and run on `executor` (libcurl's
    /// thread, for example) or, when it gives `nil`, on a thread of the shell's own.
    public init(name: String, executor: @escaping @Sendable () -> (any TaskExecutor)? = { nil },
                make: @escaping @Sendable () -> any HTTPTransport) {
        self.init(name: name, withSession: { session in await session(make(), executor()) })
    }

    /// Describes a transport that sets each session up and tears it down itself.
    public init(name: String, withSession: @escaping @Sendable (_ session: Session) async -> Int32) {
        self.name = name
        self.withSession = withSession
    }

    /// Foundation's `URLSession` (in `TypedAPI`, so every host has it).
    public static var urlSession: TransportOption {
        TransportOption(name: "urlsession") { URLSessionTransport() }
    }
}
