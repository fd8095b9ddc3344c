/// One server-sent event, as an event stream (`text/event-stream`) dispatches it.
public struct ServerSentEvent: Sendable, Equatable {
    /// The event's type: its `event:` field, else `message`.
    public var event: String
    /// Its `data:` lines, joined by line feeds.
    public var data: String
    /// The last event ID when it was dispatched: its own `id:`, or the latest before it (`nil` when
    /// none was ever given). A client reconnecting sends it as `Last-Event-ID`.
    public var id: String?
    /// The reconnection time the stream asked for (`retry:`), in effect when it was dispatched.
    public var retry: Duration?

    /// Creates an event.
    public init(event: String = "message", data: String, id: String? = nil, retry: Duration? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}
