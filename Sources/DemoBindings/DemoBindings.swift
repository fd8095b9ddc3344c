import DemoService
import Foundation
import TypedAPI
import Typist
import TypistOpenAPI
import TypistWorkshop
import TypistCurl
#if GraphQL
import TypistGraphQL
#endif

extension RepositorySort: ScriptArgument {}

/// The demo service's endpoints, registered exactly as any host registers its own.
public enum DemoBindings {
    /// The demo registry: one group per family of the demo service.
    public static func registry() throws -> EndpointRegistry {
        try EndpointRegistry {
            Group("Dogs") {
                Register("breeds", summary: "Every breed with its sub-breeds") { Endpoint.breeds }
                Register("breedImages", summary: "Image URLs of one breed", Parameter<String>("breed")) { breed in
                    Endpoint.breedImages(breed: breed)
                }
            }
            Group("Blog") {
                Register("posts", summary: "All 100 posts") { Endpoint.posts }
                Register("post", summary: "One post by id (404 when absent)", Parameter<Int>("id")) { id in
                    Endpoint.post(id: id)
                }
                Register("comments", summary: "The comments of a post", Parameter<Int>("postId")) { postId in
                    Endpoint.comments(postId: postId)
                }
                Register("allComments", summary: "Every comment, or one post's (the flat /comments route)",
                         Parameter<Int?>("postId")) { postId in
                    Endpoint.allComments(postId: postId)
                }
                Register("albums", summary: "All albums") { Endpoint.albums }
                Register("photos", summary: "The photos of an album", Parameter<Int>("albumId")) { albumId in
                    Endpoint.photos(albumId: albumId)
                }
                Register("authors", summary: "The ten authors") { Endpoint.authors }
                Register("author", summary: "One author, with address and company", Parameter<Int>("id")) { id in
                    Endpoint.author(id: id)
                }
                Register("createPost", summary: "Create a post (201)", Parameter<Int>("userId"), Parameter<String>("title"),
                         Parameter<String>("body")) { userId, title, body in
                    Endpoint.createPost(userId: userId, title: title, body: body)
                }
                Register("updatePost", summary: "Replace a post", Parameter<Int>("id"), Parameter<Int>("userId"),
                         Parameter<String>("title"), Parameter<String>("body")) { id, userId, title, body in
                    Endpoint.updatePost(id: id, userId: userId, title: title, body: body)
                }
                Register("patchPost", summary: "Change a post's title", Parameter<Int>("id"), Parameter<String>("title")) {
                    id, title in
                    Endpoint.patchPost(id: id, title: title)
                }
                Register("deletePost", summary: "Delete a post (204)", Parameter<Int>("id")) { id in
                    Endpoint.deletePost(id: id)
                }
                Register("bigPosts", summary: "Many generated posts, for performance work", Parameter<Int>("count")) { count in
                    Endpoint.bigPosts(count: count)
                }
            }
            Group("GitHub") {
                Register("searchRepositories", summary: "Search repositories (snake_case on the wire)",
                         Parameter<String>("query"), Parameter<RepositorySort?>("sort"),
                         Parameter<Int>("perPage", default: 30)) { query, sort, perPage in
                    Endpoint.searchRepositories(query: query, sort: sort, perPage: perPage)
                }
            }
            Group("Accounts") {
                Register("login", summary: "Log in; the session keeps the token (demo: ada / lovelace)",
                         Parameter<String>("user"), Parameter<String>("password"),
                         storesToken: { (session: Session) in session.token }) { user, password in
                    Endpoint.login(user: user, password: password)
                }
                Register("issueToken", summary: "A token for `username` and `password` (Basic); the session keeps it",
                         storesToken: { (session: Session) in session.token }) { Endpoint.issueToken }
                Register("users", summary: "Every account holder") { Endpoint.users }
                Register("user", summary: "One account holder by UUID", Parameter<UUID>("id")) { id in Endpoint.user(id: id) }
                Register("featured", summary: "Featured items") { Endpoint.featured }
                Register("search", summary: "Search items (needs the token)", Parameter<String>("query")) { query in
                    Endpoint.search(query: query)
                }
            }
            Group("Streams") {
                RegisterStream("events", summary: "Build events as server-sent events, gapMs apart",
                               Parameter<Int>("count", default: 10), Parameter<Int>("gapMs", default: 0)) { count, gapMs in
                    Endpoint.events(count: count, gapMs: gapMs)
                }
                RegisterStream("eventLines", summary: "The same build events as JSON Lines",
                               Parameter<Int>("count", default: 10), Parameter<Int>("gapMs", default: 0)) { count, gapMs in
                    Endpoint.eventLines(count: count, gapMs: gapMs)
                }
            }
            Group("Faults") {
                Register("status", summary: "Answers with that status", Parameter<Int>("code")) { code in
                    Endpoint.status(code: code)
                }
                Register("slow", summary: "Answers after ms milliseconds", Parameter<Int>("ms")) { ms in Endpoint.slow(ms: ms) }
                Register("malformed", summary: "JSON that is not JSON") { Endpoint.malformed }
                Register("wrongType", summary: "A post whose id is a string") { Endpoint.wrongType }
                Register("notJSON", summary: "HTML where JSON was asked for") { Endpoint.notJSON }
                Register("truncated", summary: "A body cut short") { Endpoint.truncated }
                Register("redirect", summary: "A 302 to another URL", Parameter<String>("to")) { target in
                    Endpoint.redirect(to: target)
                }
                Register("redirectLoop", summary: "A 302 to itself, for ever (the client stops after 10)") { Endpoint.redirectLoop }
                Register("echoHeaders", summary: "The headers a request arrived with") { Endpoint.echoHeaders }
            }
        }
    }

    /// The typist host: the demo registry, and the demo service started in-process by default.
    public static var host: ShellHost {
        var host = ShellHost(
            name: "typist", version: TypistVersion.current, registry: { try registry() },
            transports: [.curl, .urlSession],
            defaultService: {
                let server = try await DemoServer.start(logLevel: .critical)
                return (server.baseURL, { await server.stop() })
            })
        host.lessonDirectory = workshopDirectory
        // `--openapi`, `--graphql`: another API's endpoints, instead of the demo service's.
        #if GraphQL
        return host.withWorkshop().withOpenAPI(replacingEndpoints: true).withGraphQL(replacingEndpoints: true)
        #else
        return host.withWorkshop().withOpenAPI(replacingEndpoints: true).withMissingGraphQL(missingGraphQL)
        #endif
    }

    /// What `typist` built without the package's `GraphQL` trait (its default) says when GraphQL is
    /// asked for: how to build it in.
    static let missingGraphQL = "this typist was built without GraphQL (the package's GraphQL trait, off by default so the "
        + "first build stays small): run `swift run --traits default,GraphQL typist …`, or build it with "
        + "`swift build --traits default,GraphQL --product typist`"

    /// The workshop's lessons: `TYPIST_WORKSHOP`, or `Workshop/` in the checkout this was built from.
    public static var workshopDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["TYPIST_WORKSHOP"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Workshop")
    }
}
