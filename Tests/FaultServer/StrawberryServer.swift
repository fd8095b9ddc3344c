import Foundation

/// A GraphQL service written with strawberry-graphql (from PyPI, in the package's `.build-venv`)
/// on FastAPI and uvicorn, on an ephemeral loopback port for the length of a test. It serves:
///
/// - `/graphql`: a tracker — `repository(owner:name:)` with Relay-paged `issues(first:after:states:)`
///   (an enum list argument, `DateTime` and `JSON` scalars, a deprecated `subject`), a
///   `secretNotes` field whose resolver fails (an error beside partial data), `user(login:)` whose
///   `"ghost"` breaks the schema's non-null `email`, `viewer` (wants `Authorization: Bearer
///   s3cret-token`), and the mutation `addStar(name:)`;
/// - `/private/graphql`: the same schema, refusing everything — introspection too — without the
///   token (401, as most GraphQL APIs answer);
/// - `/big/graphql`: a schema of 400 generated object types, for what a large one costs;
/// - `GET /health`: a REST route beside them, with FastAPI's OpenAPI document at `/openapi.json`.
///
/// `Scripts/test-tools` (run by `.ci/run`) installs it. ``PythonServer/stop()`` ends the process.
public enum StrawberryServer {
    /// The token `viewer` and `/private/graphql` want.
    public static let token = "s3cret-token"

    /// Why the suite cannot run, or `nil` when strawberry-graphql, FastAPI and uvicorn are installed.
    public static var unavailable: String? {
        HttpbinServer.unavailable(needing: ["strawberry", "fastapi", "uvicorn"], for: "strawberry-graphql")
    }

    /// The application, then uvicorn (``ServerProcess/servingOnUvicorn(_:)``).
    /// The application (`Examples/GraphQL/tracker.py`, which the example walks through), then
    /// uvicorn (``ServerProcess/servingOnUvicorn(_:)``).
    static var program: String {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/GraphQL/tracker.py")
        return (try? String(contentsOf: file, encoding: .utf8)) ?? "raise SystemExit('Examples/GraphQL/tracker.py is missing')\n"
    }

    /// Starts a server.
    public static func start() async throws -> PythonServer {
        try await PythonServer.startOnUvicorn(program, unavailable: unavailable, name: "uvicorn (strawberry-graphql)")
    }
}
