import Foundation

/// An API written with Litestar (from PyPI, in the package's `.build-venv`) on uvicorn, on an
/// ephemeral loopback port for the length of a test.
///
/// Its document (`/schema/openapi.json`, OpenAPI 3.1) is the one Litestar writes from msgspec
/// structs: no `servers` beyond `/`, optional fields as `oneOf [T, null]`, a body whose field is
/// an object (`NewPet.owner`), a union of tagged structs answered (`const` tags), a form body
/// typed `dict[str, str]` (`additionalProperties` only), which Litestar reads only form-encoded —
/// sent as JSON, its fields are silently not there — and event streams its document declares
/// as `application/json`, of JSON (`/ticks`) and of plain text (`/words`).
/// ``PythonServer/stop()`` ends the process and waits for it.
public enum LitestarServer {
    /// Why the suite cannot run, or `nil` when Litestar is installed.
    public static var unavailable: String? {
        HttpbinServer.unavailable(needing: ["litestar", "msgspec", "uvicorn"], for: "Litestar")
    }

    /// The application, then uvicorn (``ServerProcess/servingOnUvicorn(_:)``).
    static let program = #"""
        import datetime
        import enum
        from typing import Annotated, Optional, Union
        try:
            import msgspec
            from litestar import Litestar, get, post
            from litestar.enums import RequestEncodingType
            from litestar.exceptions import NotFoundException
            from litestar.params import Body
            from litestar.response import ServerSentEvent
        except ImportError as error:
            print(f"missing {error.name}: run bash Scripts/test-tools", flush=True)
            raise SystemExit(1)

        class Species(str, enum.Enum):
            cat = "cat"
            dog = "dog"

        class Owner(msgspec.Struct):
            name: str
            email: Optional[str] = None

        class Pet(msgspec.Struct):
            id: int
            name: str
            species: Species
            born: datetime.date
            tags: list[str] = []
            owner: Optional[Owner] = None

        class NewPet(msgspec.Struct):
            name: str
            species: Species
            born: datetime.date
            tags: list[str] = []
            owner: Optional[Owner] = None

        class Cat(msgspec.Struct, tag="cat"):
            lives: int

        class Dog(msgspec.Struct, tag="dog"):
            good: bool

        pets = {1: Pet(1, "Tom", Species.cat, datetime.date(2020, 1, 2), ["grey"], Owner("Ada", "ada@example.com"))}

        @get("/pets/{pet_id:int}")
        async def get_pet(pet_id: int) -> Pet:
            if pet_id not in pets:
                raise NotFoundException(f"no pet {pet_id}")
            return pets[pet_id]

        @post("/pets")
        async def create_pet(data: NewPet) -> Pet:
            pet = Pet(max(pets) + 1, data.name, data.species, data.born, data.tags, data.owner)
            pets[pet.id] = pet
            return pet

        @get("/animals/{n:int}")
        async def animal(n: int) -> Union[Cat, Dog]:
            return Cat(lives=9) if n % 2 else Dog(good=True)

        @post("/login")
        async def login(data: Annotated[dict[str, str], Body(media_type=RequestEncodingType.URL_ENCODED)]) -> dict[str, str]:
            return {"token": "t-" + data.get("username", ""), "fields": ",".join(sorted(data))}

        @get("/ticks")
        async def ticks() -> ServerSentEvent:
            async def events():
                for n in range(2):
                    yield msgspec.json.encode({"n": n}).decode()
            return ServerSentEvent(events())

        @get("/words")
        async def words() -> ServerSentEvent:
            async def events():
                for word in ["hello", "wide world"]:
                    yield word
            return ServerSentEvent(events())

        @get("/greeting", media_type="text/plain")
        async def greeting() -> str:
            return "hello"

        app = Litestar([get_pet, create_pet, animal, login, ticks, words, greeting])

        """#

    /// Starts a server.
    public static func start() async throws -> PythonServer {
        try await PythonServer.startOnUvicorn(program, unavailable: unavailable, name: "uvicorn (Litestar)")
    }
}
