import Foundation

/// An API written with APIFlask (from PyPI, in the package's `.build-venv`) — Flask with
/// marshmallow schemas, validated through webargs — served by Werkzeug on an ephemeral loopback
/// port for the length of a test.
///
/// Its document (`/openapi.json`, OpenAPI 3.0) is the one APIFlask writes: no `servers`, and no
/// request body marked `required` though the schema requires fields. What it refuses it answers
/// with a `422` in marshmallow's shape, `{"detail": {"json": {"name": ["…"]}}, "message": …}`,
/// including a rule no document can state (a pet's name starts with a capital letter).
/// ``PythonServer/stop()`` ends the process and waits for it.
public enum APIFlaskServer {
    /// Why the suite cannot run, or `nil` when APIFlask is installed.
    public static var unavailable: String? {
        HttpbinServer.unavailable(needing: ["apiflask"], for: "APIFlask")
    }

    /// The application, which Werkzeug serves (``ServerProcess/servingOnWerkzeug(_:)``).
    static let program = """
        import warnings
        warnings.simplefilter("ignore")
        try:
            from apiflask import APIFlask, Schema, abort
            from apiflask.fields import Integer, String, List
            from apiflask.validators import Length, Range, OneOf
            from marshmallow import validates, ValidationError
        except ImportError as error:
            print(f"missing {error.name}: run bash Scripts/test-tools", flush=True)
            raise SystemExit(1)

        app = APIFlask(__name__, title="Pets (APIFlask)", version="1")
        pets = [{"id": 0, "name": "Kitty", "category": "cat", "tags": ["soft"]}]

        class PetIn(Schema):
            name = String(required=True, validate=Length(1, 10))
            category = String(required=True, validate=OneOf(["dog", "cat"]))
            tags = List(String(), load_default=[])

            @validates("name")
            def capital(self, value, **kwargs):
                if not value[:1].isupper():
                    raise ValidationError("must start with a capital letter")

        class PetOut(Schema):
            id = Integer()
            name = String()
            category = String()
            tags = List(String())

        class Query(Schema):
            limit = Integer(load_default=10, validate=Range(1, 50))

        @app.get("/pets")
        @app.input(Query, location="query")
        @app.output(PetOut(many=True))
        def list_pets(query_data):
            "List pets"
            return pets[: query_data["limit"]]

        @app.get("/pets/<int:pet_id>")
        @app.output(PetOut)
        def get_pet(pet_id):
            "Get a pet"
            if pet_id >= len(pets):
                abort(404, "no such pet")
            return pets[pet_id]

        @app.post("/pets")
        @app.input(PetIn)
        @app.output(PetOut, status_code=201)
        def create_pet(json_data):
            "Create a pet"
            pet = dict(json_data, id=len(pets))
            pets.append(pet)
            return pet

        """

    /// Starts a server.
    public static func start() async throws -> PythonServer {
        try await PythonServer.startOnWerkzeug(program, unavailable: unavailable, name: "APIFlask")
    }
}
