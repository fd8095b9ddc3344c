import Foundation

/// An API served by Connexion (from PyPI, in the package's `.build-venv`) on uvicorn, on an
/// ephemeral loopback port for the length of a test: Connexion validates every request against the
/// document it serves (`/openapi.json`, written there with `servers: [{url: ""}]`) and answers what
/// it rules out with an RFC 7807 problem document — a service that holds its clients to the
/// document's `minimum`, `maxLength` and `pattern`, as Typist does before sending.
///
/// `GET /hits` says how many requests reached the pets operations, so a test can tell a call
/// refused before sending from one the service refused. ``PythonServer/stop()`` ends the process and waits for it.
public enum ConnexionServer {
    /// Why the suite cannot run, or `nil` when Connexion and uvicorn are installed.
    public static var unavailable: String? {
        HttpbinServer.unavailable(needing: ["connexion", "uvicorn"], for: "Connexion")
    }

    /// The document and its operations (found by their `operationId`), then uvicorn.
    static let program = #"""
        import warnings
        warnings.simplefilter("ignore")
        try:
            import yaml
            from connexion import AsyncApp
            from connexion.problem import problem
            from connexion.resolver import Resolver
        except ImportError as error:
            print(f"missing {error.name}: run bash Scripts/test-tools", flush=True)
            raise SystemExit(1)

        SPEC = """
        openapi: 3.0.3
        info: {title: Pets, version: "1"}
        paths:
          /pets:
            get:
              operationId: pets.list
              parameters:
                - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 50, default: 10}}
                - {name: tag, in: query, schema: {type: string, pattern: "^[a-z]+$"}}
              responses:
                "200": {description: ok, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}}}}
            post:
              operationId: pets.add
              requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/NewPet"}}}}
              responses:
                "201": {description: made, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
          /pets/{pet_id}:
            get:
              operationId: pets.get
              parameters: [{name: pet_id, in: path, required: true, schema: {type: integer, exclusiveMinimum: true, minimum: 0}}]
              responses:
                "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
                "404": {description: none, content: {application/problem+json: {schema: {type: object}}}}
          /hits:
            get:
              operationId: hits
              responses: {"200": {description: ok, content: {application/json: {schema: {type: integer}}}}}
        components:
          schemas:
            NewPet:
              type: object
              required: [name, tag]
              properties:
                name: {type: string, minLength: 2, maxLength: 20}
                tag: {type: string, enum: [cat, dog]}
            Pet:
              type: object
              required: [id, name, tag]
              properties:
                id: {type: integer}
                name: {type: string}
                tag: {type: string}
        """

        pets = {1: {"id": 1, "name": "Rex", "tag": "dog"}}
        counted = [0]

        def list_pets(limit=10, tag=None):
            counted[0] += 1
            return [pet for pet in pets.values() if tag is None or pet["tag"] == tag][:limit]

        def add_pet(body):
            counted[0] += 1
            pet = dict(body, id=len(pets) + 1)
            pets[pet["id"]] = pet
            return pet, 201

        def get_pet(pet_id):
            counted[0] += 1
            if pet_id not in pets:
                return problem(404, "Not Found", f"no pet {pet_id}")
            return pets[pet_id], 200, {"Content-Type": "application/json"}

        functions = {"pets.list": list_pets, "pets.add": add_pet, "pets.get": get_pet, "hits": lambda: counted[0]}
        app = AsyncApp(__name__)
        app.add_api(yaml.safe_load(SPEC), resolver=Resolver(function_resolver=functions.__getitem__))
        """#

    /// Starts a server.
    public static func start() async throws -> PythonServer {
        try await PythonServer.startOnUvicorn(program, unavailable: unavailable, name: "uvicorn (Connexion)")
    }
}
