# The tracker: a GraphQL service written with strawberry-graphql on FastAPI, beside a REST route.
# Typist's tests start it (Tests/FaultServer/StrawberryServer.swift); Examples/GraphQL/README.md
# walks through it at the prompt. Run it with the tools `bash Scripts/test-tools` installs:
#   .build-venv/bin/uvicorn --app-dir Examples/GraphQL tracker:app --port 8321
import datetime, enum, typing
try:
    import strawberry
    import uvicorn
    from fastapi import FastAPI, Depends, HTTPException, Request
    from strawberry.fastapi import GraphQLRouter
    from strawberry.scalars import JSON
except ImportError as error:
    print(f"missing {error.name}: run bash Scripts/test-tools", flush=True)
    raise SystemExit(1)

TOKEN = "s3cret-token"

@strawberry.enum(description="Whether an issue is open")
class IssueState(enum.Enum):
    OPEN = "OPEN"
    CLOSED = "CLOSED"

@strawberry.type(description="An account")
class User:
    login: str
    name: typing.Optional[str]
    email: str

@strawberry.type
class Issue:
    number: int
    title: str
    state: IssueState
    created_at: datetime.datetime
    author: typing.Optional[User]
    labels: JSON

    @strawberry.field(deprecation_reason="Use title.")
    def subject(self) -> str:
        return self.title

@strawberry.type
class PageInfo:
    has_next_page: bool
    end_cursor: typing.Optional[str]

@strawberry.type
class IssueConnection:
    nodes: typing.List[Issue]
    page_info: PageInfo
    total_count: int

ada = User(login="ada", name="Ada Lovelace", email="ada@example.com")
ghost = User(login="ghost", name=None, email=None)
ISSUES = [Issue(number=n, title=f"Issue {n}", state=IssueState.OPEN if n % 3 else IssueState.CLOSED,
                created_at=datetime.datetime(2024, 1, n % 28 + 1, 12, 0, tzinfo=datetime.timezone.utc),
                author=ada if n % 2 else None, labels={"priority": n % 4, "tags": ["t%d" % n]}) for n in range(1, 26)]
stars = {"typist": 41}

@strawberry.type(description="A code repository")
class Repository:
    owner: str
    name: str

    @strawberry.field(description="How many people starred it")
    def stargazer_count(self) -> int:
        return stars.get(self.name, 0)

    @strawberry.field(description="Its issues, a page at a time")
    def issues(self, first: int = 10, after: typing.Optional[str] = None,
               states: typing.Optional[typing.List[IssueState]] = None) -> IssueConnection:
        chosen = [i for i in ISSUES if states is None or i.state in states]
        start = int(after) if after else 0
        page = chosen[start:start + first]
        end = start + len(page)
        return IssueConnection(nodes=page, page_info=PageInfo(has_next_page=end < len(chosen), end_cursor=str(end) if page else None),
                               total_count=len(chosen))

    @strawberry.field
    def secret_notes(self) -> typing.Optional[str]:
        raise PermissionError("secretNotes needs the admin scope")

def authorized(info) -> bool:
    request = info.context["request"]
    return request.headers.get("authorization") == f"Bearer {TOKEN}"

@strawberry.type
class Query:
    @strawberry.field(description="One repository by its owner and name")
    def repository(self, owner: str, name: str) -> typing.Optional[Repository]:
        return Repository(owner=owner, name=name) if name in stars else None

    @strawberry.field(description="Who is calling (needs a token)")
    def viewer(self, info: strawberry.Info) -> User:
        if not authorized(info):
            raise PermissionError("authentication required")
        return ada

    @strawberry.field
    def user(self, login: str) -> User:
        return ghost if login == "ghost" else ada

@strawberry.type
class Mutation:
    @strawberry.mutation(description="Star a repository")
    def add_star(self, name: str) -> Repository:
        stars[name] = stars.get(name, 0) + 1
        return Repository(owner="typist", name=name)

schema = strawberry.Schema(query=Query, mutation=Mutation)

# A schema of many types, for what a large service's introspection answer costs.
def thing(index):
    return strawberry.type(type(f"Thing{index}", (), {"__annotations__": {"id": strawberry.ID, "name": str, "size": typing.Optional[int], "tags": typing.List[str]}, "size": None}))
things = [thing(i) for i in range(400)]
ns = {f"Thing{i}": t for i, t in enumerate(things)}
def nothing_of(kind):
    def resolve() -> typing.Optional[kind]:
        return None
    return resolve
BigQuery = strawberry.type(type("BigQuery", (), {f"thing{i}": strawberry.field(resolver=nothing_of(t)) for i, t in enumerate(things)}))
big = strawberry.Schema(query=BigQuery)

async def private_context(request: Request):
    if request.headers.get("authorization") != f"Bearer {TOKEN}":
        raise HTTPException(401, "a bearer token is required", headers={"WWW-Authenticate": "Bearer"})
    return {"request": request}

app = FastAPI(title="Tracker")
app.include_router(GraphQLRouter(schema), prefix="/graphql")
app.include_router(GraphQLRouter(schema, context_getter=private_context), prefix="/private/graphql")
app.include_router(GraphQLRouter(big), prefix="/big/graphql")

@app.get("/health")
def health() -> dict:
    return {"status": "ok", "issues": len(ISSUES)}

