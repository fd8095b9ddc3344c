import Foundation

/// A FastAPI application (FastAPI and pydantic from PyPI, in the package's `.build-venv`) on
/// uvicorn, on an ephemeral loopback port for the length of a test: an API as the most used Python
/// framework writes it, with the OpenAPI 3.1 document it generates at `/openapi.json` — no
/// `servers`, optional parameters as `anyOf [T, null]`, an enum schema named `Kind`, a model that
/// holds itself (`Item.parent`), HTTP bearer security, `ge`/`min_length` rules the document
/// states, a 422 for a rule it cannot (a validator), a 429 that says when to come back, and
/// FastAPI's OAuth 2 password flow: `POST /token` takes a form (`OAuth2PasswordRequestForm`) and
/// answers an `access_token` that `/users/me` wants (`OAuth2PasswordBearer(tokenUrl="token")`);
/// and an upload, `POST /uploads`: a `multipart/form-data` body of files (`UploadFile`, one and
/// a list) and form fields, answering what arrived.
///
/// `Scripts/test-tools` (run by `.ci/run`) installs it beside httpbin. ``PythonServer/stop()`` ends the process
/// and waits for it.
public enum FastAPIServer {
    /// Why the suite cannot run, or `nil` when FastAPI and uvicorn are installed.
    public static var unavailable: String? {
        HttpbinServer.unavailable(needing: ["fastapi", "pydantic", "uvicorn", "python_multipart"], for: "FastAPI")
    }

    /// The application, then uvicorn (``ServerProcess/servingOnUvicorn(_:)``).
    static let program = #"""
        from datetime import datetime
        from enum import Enum
        from typing import Optional, Union
        try:
            import uvicorn
            from fastapi import Depends, FastAPI, File, Form, Header, HTTPException, Query, UploadFile
            from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer, OAuth2PasswordBearer, OAuth2PasswordRequestForm
            from pydantic import BaseModel, Field, field_validator
        except ImportError as error:
            print(f"missing {error.name}: run bash Scripts/test-tools", flush=True)
            raise SystemExit(1)

        app = FastAPI(title="Items")

        class Kind(str, Enum):
            book = "book"
            film = "film"

        class Tag(BaseModel):
            name: str

        class Item(BaseModel):
            id: int
            name: str
            kind: Kind
            price: Optional[float] = None
            tags: list[Tag] = []
            created: datetime
            parent: Optional["Item"] = None

        class NewItem(BaseModel):
            name: str = Field(min_length=1)
            kind: Kind
            price: Optional[float] = None

            # A rule the document cannot say: a 422 only the service gives.
            @field_validator("name")
            @classmethod
            def capitalised(cls, name):
                if name[:1].islower():
                    raise ValueError("must start with a capital letter")
                return name

        items = {1: Item(id=1, name="Dune", kind=Kind.book, price=9.5, tags=[Tag(name="sf")], created=datetime(2020, 1, 1))}
        items[2] = Item(id=2, name="Dune Messiah", kind=Kind.book, created=datetime(2020, 1, 2), parent=items[1])
        bearer = HTTPBearer()

        @app.get("/items", response_model=list[Item])
        def list_items(kind: Optional[Kind] = None, limit: int = Query(10, ge=1, le=100), q: Union[str, None] = None):
            return [item for item in items.values() if kind is None or item.kind == kind][:limit]

        @app.get("/items/{item_id}", response_model=Item)
        def get_item(item_id: int, x_trace: Optional[str] = Header(None)):
            if item_id not in items:
                raise HTTPException(404, detail="no such item")
            return items[item_id]

        @app.get("/limited", response_model=list[Item])
        def limited():
            raise HTTPException(429, detail="slow down", headers={"Retry-After": "120"})

        @app.post("/items", response_model=Item, status_code=201)
        def create_item(item: NewItem, auth: HTTPAuthorizationCredentials = Depends(bearer)):
            if auth.credentials != "secret-token":
                raise HTTPException(401, detail="invalid token", headers={"WWW-Authenticate": "Bearer"})
            new = Item(id=len(items) + 1, created=datetime(2021, 1, 1), **item.model_dump())
            items[new.id] = new
            return new

        oauth2 = OAuth2PasswordBearer(tokenUrl="token")

        class Token(BaseModel):
            access_token: str
            token_type: str

        class User(BaseModel):
            username: str
            scopes: list[str]

        @app.post("/token", response_model=Token)
        def login(form: OAuth2PasswordRequestForm = Depends()):
            if form.username != "ada" or form.password != "lovelace & co":
                raise HTTPException(400, detail="Incorrect username or password")
            return Token(access_token="fastapi-token-" + form.username, token_type="bearer")

        @app.get("/users/me", response_model=User)
        def me(token: str = Depends(oauth2)):
            if token != "fastapi-token-ada":
                raise HTTPException(401, detail="invalid token", headers={"WWW-Authenticate": "Bearer"})
            return User(username="ada", scopes=[])

        class Upload(BaseModel):
            filename: str
            content_type: str
            size: int
            first_line: str
            note: str
            tags: list[str]
            extras: list[str]

        @app.post("/uploads", response_model=Upload)
        async def upload(file: UploadFile, note: str = Form(), tags: list[str] = Form([]), extras: list[UploadFile] = File([])):
            data = await file.read()
            return Upload(filename=file.filename, content_type=file.content_type, size=len(data),
                          first_line=data.split(b"\n")[0].decode("utf-8", "replace"), note=note, tags=tags,
                          extras=[f"{extra.filename}:{len(await extra.read())}" for extra in extras])

        """#

    /// Starts a server.
    public static func start() async throws -> PythonServer {
        try await PythonServer.startOnUvicorn(program, unavailable: unavailable, name: "uvicorn (FastAPI)")
    }
}
