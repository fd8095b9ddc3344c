import Foundation
import TypedAPI

// Streams: build events as they happen, each item a `BuildEvent`.

extension Endpoint where Kind == Public, Response == BuildEvent {
    /// `GET /events`: `count` build events as server-sent events, `gapMs` milliseconds apart.
    public static func events(count: Int = 10, gapMs: Int = 0) -> Self {
        Endpoint(.get(query: streamQuery(count: count, gapMs: gapMs)), path: "/events")
    }

    /// `GET /events.ndjson`: the same events as JSON Lines.
    public static func eventLines(count: Int = 10, gapMs: Int = 0) -> Self {
        Endpoint(.get(query: streamQuery(count: count, gapMs: gapMs)), path: "/events.ndjson")
    }

    private static func streamQuery(count: Int, gapMs: Int) -> [URLQueryItem] {
        var query = [URLQueryItem(name: "count", value: String(count))]
        if gapMs != 0 { query.append(URLQueryItem(name: "gapMs", value: String(gapMs))) }
        return query
    }
}
