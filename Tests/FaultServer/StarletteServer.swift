import Foundation

/// Streams served by code nobody here wrote: sse-starlette's `EventSourceResponse` and Starlette's
/// `StreamingResponse` (from PyPI, in the package's `.build-venv`) on uvicorn, on an ephemeral
/// loopback port for the length of a test.
///
/// - `GET /events?count=N&disconnectAfter=K`: a comment and a `retry: 10` first, then build
///   events 1…N (`event: build`, an `id:`, pretty JSON over several `data:` lines, CRLF line ends,
///   a log with non-ASCII text and an escaped line break), resumed after `Last-Event-ID`; with
///   `disconnectAfter`, the connection is cut (no last chunk) after K events.
/// - `GET /lines?count=N`: the same events as JSON Lines (`application/x-ndjson`), chunked.
///
/// `Scripts/test-tools` (run by `.ci/run`) installs them beside httpbin. ``PythonServer/stop()`` ends
/// the process and waits for it.
public enum StarletteServer {
    /// Why the suite cannot run, or `nil` when sse-starlette and uvicorn are installed (a
    /// `.build-venv` made for httpbin alone, before they were added, is told to run the script again).
    public static var unavailable: String? {
        HttpbinServer.unavailable(needing: ["sse_starlette", "uvicorn"], for: "sse-starlette or uvicorn")
    }

    /// The server: the app, then uvicorn (``ServerProcess/servingOnUvicorn(_:)``); a line that is
    /// not a port when a package is missing.
    static let program = #"""
        import asyncio, json
        try:
            import uvicorn
            from sse_starlette.sse import EventSourceResponse, ServerSentEvent
            from starlette.applications import Starlette
            from starlette.responses import StreamingResponse
            from starlette.routing import Route
        except ImportError as error:
            print(f"missing {error.name}: run bash Scripts/test-tools", flush=True)
            raise SystemExit(1)

        def event(n):
            return {"n": n, "status": "running", "log": f"étape {n} ✓\nsecond line"}

        async def events(request):
            count = int(request.query_params.get("count", "5"))
            cut = int(request.query_params.get("disconnectAfter", "0"))
            first = int(request.headers.get("last-event-id", "0")) + 1
            async def stream():
                yield ServerSentEvent(comment="a comment first", retry=10)
                for sent, n in enumerate(range(first, count + 1)):
                    if cut and sent == cut:
                        raise ConnectionError("cut on purpose")
                    yield ServerSentEvent(data=json.dumps(event(n), indent=1, ensure_ascii=False), event="build", id=str(n))
                    await asyncio.sleep(0)
            return EventSourceResponse(stream(), ping=3600)

        async def lines(request):
            count = int(request.query_params.get("count", "5"))
            async def stream():
                for n in range(1, count + 1):
                    yield json.dumps(event(n), ensure_ascii=False) + "\n"
            return StreamingResponse(stream(), media_type="application/x-ndjson")

        app = Starlette(routes=[Route("/events", events), Route("/lines", lines)])
        """#

    /// Starts a server.
    public static func start() async throws -> PythonServer {
        try await PythonServer.startOnUvicorn(program, unavailable: unavailable, name: "uvicorn (sse-starlette)")
    }
}
