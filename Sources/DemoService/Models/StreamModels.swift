/// One event of the demo's build stream (`GET /events`, `GET /events.ndjson`).
public struct BuildEvent: Codable, Sendable, Hashable {
    /// Its number, from 1; also its server-sent event id.
    public var n: Int
    /// `queued`, `running` or `passed`.
    public var status: String
    /// A line or two of log (the server-sent event's data spans lines where it has two).
    public var log: String

    /// Creates an event.
    public init(n: Int, status: String, log: String) {
        self.n = n
        self.status = status
        self.log = log
    }

    /// Event `n` of the demo's stream, the same every time.
    public static func number(_ n: Int) -> BuildEvent {
        BuildEvent(n: n, status: status(of: n), log: "step \(n)" + (n % 2 == 0 ? "\nsecond line" : ""))
    }

    /// The status of event `n`: queued, running and passed in turn.
    static func status(of n: Int) -> String {
        switch (n - 1) % 3 {
        case 0: "queued"
        case 1: "running"
        default: "passed"
        }
    }
}
