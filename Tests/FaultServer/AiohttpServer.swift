import Foundation

/// An OpenAI-compatible completion stream served by aiohttp (from PyPI, in the package's
/// `.build-venv`), as vLLM, LiteLLM and most self-hosted gateways stream one: on an ephemeral
/// loopback port for the length of a test.
///
/// - `GET /openapi.json`: a document whose `POST /v1/chat/completions` answers
///   `text/event-stream` items of `CreateChatCompletionStreamResponse` (OpenAI's name).
/// - `POST /v1/chat/completions`: a comment, then one chunk per word of `"Hello from aiohttp"`
///   with keep-alives between them (`event: ping` with empty data, `data: keep-alive` under
///   `event: ping`), then `data: [DONE]`.
/// - `POST /v1/broken`: one chunk, then `data: upstream timeout` (not JSON).
///
/// `Scripts/test-tools` installs it. ``PythonServer/stop()`` ends the process and waits for it.
public enum AiohttpServer {
    /// Why the suite cannot run, or `nil` when aiohttp is installed.
    public static var unavailable: String? {
        HttpbinServer.unavailable(needing: ["aiohttp"], for: "aiohttp")
    }

    static let program = #"""
        import asyncio, json, socket
        try:
            from aiohttp import web
        except ImportError as error:
            print(f"missing {error.name}: run bash Scripts/test-tools", flush=True)
            raise SystemExit(1)

        CHUNK = {"type": "object", "required": ["id", "object", "choices"], "properties": {
            "id": {"type": "string"}, "object": {"type": "string"}, "model": {"type": "string"},
            "choices": {"type": "array", "items": {"type": "object", "required": ["index"], "properties": {
                "index": {"type": "integer"},
                "delta": {"type": "object", "properties": {"role": {"type": "string"}, "content": {"type": "string"}}},
                "finish_reason": {"type": ["string", "null"]}}}}}}

        def operation(name):
            return {"post": {"operationId": name, "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["model"],
                "properties": {"model": {"type": "string"}, "stream": {"type": "boolean"}}}}}},
                "responses": {"200": {"description": "chunks", "content": {"text/event-stream": {
                    "schema": {"$ref": "#/components/schemas/CreateChatCompletionStreamResponse"}}}}}}}

        async def document(request):
            return web.json_response({"openapi": "3.1.0", "info": {"title": "Completions", "version": "1"},
                "paths": {"/v1/chat/completions": operation("createChatCompletion"), "/v1/broken": operation("broken")},
                "components": {"schemas": {"CreateChatCompletionStreamResponse": CHUNK}}})

        def chunk(n, word, finish=None):
            return {"id": "c-1", "object": "chat.completion.chunk", "model": "m",
                    "choices": [{"index": 0, "delta": {"content": word}, "finish_reason": finish}]}

        async def start(request):
            response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
            await response.prepare(request)
            await response.write(b": connected\n\n")
            return response

        async def completions(request):
            response = await start(request)
            words = ["Hello", " from", " aiohttp"]
            for n, word in enumerate(words):
                await response.write(f"data: {json.dumps(chunk(n, word, 'stop' if n == len(words) - 1 else None))}\n\n".encode())
                await response.write(b"event: ping\ndata:\n\n" if n % 2 == 0 else b"event: ping\ndata: keep-alive\n\n")
            await response.write(b"data: [DONE]\n\n")
            await response.write_eof()
            return response

        async def broken(request):
            response = await start(request)
            await response.write(f"data: {json.dumps(chunk(0, 'Hello'))}\n\n".encode())
            await response.write(b"data: upstream timeout\n\n")
            await response.write_eof()
            return response

        app = web.Application()
        app.router.add_get("/openapi.json", document)
        app.router.add_post("/v1/chat/completions", completions)
        app.router.add_post("/v1/broken", broken)

        async def main():
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            listener.listen(128)
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            await web.SockSite(runner, listener).start()
            print(listener.getsockname()[1], flush=True)
            await asyncio.Event().wait()

        asyncio.run(main())
        """#

    /// Starts a server.
    public static func start() async throws -> PythonServer {
        try await PythonServer.start(program, unavailable: unavailable, name: "aiohttp")
    }
}
