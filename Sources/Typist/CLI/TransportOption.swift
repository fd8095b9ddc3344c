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
    /// The name `--transport` takes.
    public var name: String
    /// Makes the transport for a session.
    public var make: @Sendable () -> any HTTPTransport
    /// Where a session on this transport runs best (libcurl's own thread, for curl); `nil` for a
    /// thread of the shell's own.
    public var executor: @Sendable () -> (any TaskExecutor)?
    /// Describes a transport.
    public init(name: String, executor: @escaping @Sendable () -> (any TaskExecutor)? = { nil },
                make: @escaping @Sendable () -> any HTTPTransport) {
        self.name = name
        self.make = make
        self.executor = executor
    }

    /// Foundation's `URLSession` (in `TypedAPI`, so every host has it).
    public static var urlSession: TransportOption {
        TransportOption(name: "urlsession") { URLSessionTransport() }
    }
}
