import Foundation

/// Kinto (from PyPI, in the package's `.build-venv`) — a JSON storage service on Pyramid and
/// Cornice, nobody here wrote — served by Werkzeug on an ephemeral loopback port for the length
/// of a test, with in-memory storage.
///
/// Its Swagger 2.0 document is at `/v1/__api__`: objects that declare a few properties and allow
/// any other (`additionalProperties: {}`), HTTP Basic (any user and password is an account),
/// lists paged two objects at a time with a `Next-Page` header (a full URL whose `_token` is a
/// cursor, not a credential), and refusals in Cornice's shape
/// (`{"details": [{"location": "body", "name": "data", "description": "…"}]}`).
/// ``PythonServer/stop()`` ends the process and waits for it.
public enum KintoServer {
    /// Why the suite cannot run, or `nil` when Kinto is installed.
    public static var unavailable: String? {
        HttpbinServer.unavailable(needing: ["kinto"], for: "Kinto")
    }

    /// The application, which Werkzeug serves (``ServerProcess/servingOnWerkzeug(_:)``).
    static let program = """
        import logging
        import warnings
        warnings.simplefilter("ignore")
        logging.disable(logging.CRITICAL)
        try:
            from kinto import main as kinto_main
        except ImportError as error:
            print(f"missing {error.name}: run bash Scripts/test-tools", flush=True)
            raise SystemExit(1)

        app = kinto_main({}, **{
            "kinto.storage_backend": "kinto.core.storage.memory",
            "kinto.cache_backend": "kinto.core.cache.memory",
            "kinto.permission_backend": "kinto.core.permission.memory",
            "multiauth.policies": "basicauth",
            "kinto.paginate_by": "2",
            "kinto.bucket_create_principals": "system.Authenticated",
            "kinto.userid_hmac_secret": "a test server's own, of no value elsewhere",
            "kinto.includes": "",
        })

        """

    /// Starts a server.
    public static func start() async throws -> PythonServer {
        try await PythonServer.startOnWerkzeug(program, unavailable: unavailable, name: "Kinto")
    }
}
