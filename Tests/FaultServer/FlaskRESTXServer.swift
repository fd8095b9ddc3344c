import Foundation

/// An API written with Flask-RESTX (from PyPI, in the package's `.build-venv`) — the successor of
/// Flask-RESTPlus, with its Swagger 2.0 document at `/swagger.json` — served by Werkzeug on an
/// ephemeral loopback port for the length of a test.
///
/// Its document is the one Flask-RESTX writes: models (`api.model`) with a nested one
/// (`fields.Nested`), an `X-Fields` header on every marshalled operation, operations without a
/// summary, and what it refuses answered in its own shape, a nested field's path as one dotted
/// key: `{"errors": {"owner.name": "'name' is a required property"}}`.
/// ``PythonServer/stop()`` ends the process and waits for it.
public enum FlaskRESTXServer {
    /// Why the suite cannot run, or `nil` when Flask-RESTX is installed.
    public static var unavailable: String? {
        HttpbinServer.unavailable(needing: ["flask_restx"], for: "Flask-RESTX")
    }

    /// The application, which Werkzeug serves (``ServerProcess/servingOnWerkzeug(_:)``).
    static let program = """
        import warnings
        warnings.simplefilter("ignore")
        try:
            from flask import Flask
            from flask_restx import Api, Resource, fields, reqparse
        except ImportError as error:
            print(f"missing {error.name}: run bash Scripts/test-tools", flush=True)
            raise SystemExit(1)

        app = Flask(__name__)
        api = Api(app, version="1.0", title="Todos (Flask-RESTX)")
        ns = api.namespace("todos", description="What to do")
        owner = api.model("Owner", {"name": fields.String(required=True), "email": fields.String})
        todo = api.model("Todo", {
            "id": fields.Integer(readonly=True),
            "task": fields.String(required=True),
            "done": fields.Boolean(default=False),
            "owner": fields.Nested(owner),
            "priority": fields.String(enum=["low", "high"]),
        })
        todos = {1: {"id": 1, "task": "Write", "done": False, "owner": {"name": "Ada"}, "priority": "low"}}
        listing = reqparse.RequestParser()
        listing.add_argument("limit", type=int, location="args", default=10)

        @ns.route("/")
        class TodoList(Resource):
            @ns.expect(listing)
            @ns.marshal_list_with(todo)
            def get(self):
                return list(todos.values())[: listing.parse_args()["limit"]]

            @ns.expect(todo, validate=True)
            @ns.marshal_with(todo, code=201)
            def post(self):
                new = dict(api.payload, id=max(todos) + 1)
                todos[new["id"]] = new
                return new, 201

        @ns.route("/<int:id>")
        class Todo(Resource):
            @ns.marshal_with(todo)
            def get(self, id):
                if id not in todos:
                    api.abort(404, f"Todo {id} does not exist")
                return todos[id]

        """

    /// Starts a server.
    public static func start() async throws -> PythonServer {
        try await PythonServer.startOnWerkzeug(program, unavailable: unavailable, name: "Flask-RESTX")
    }
}
