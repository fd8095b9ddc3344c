import DemoService
import Foundation
import Testing
import TypedAPI

/// Every family of the demo service through the real transports.
@Suite("Demo families over real HTTP")
struct DemoFamilyTests {
    @Test("Dogs: breeds, images, and a 404 decoded into the host's error model", arguments: TransportChoice.allCases)
    func dogs(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let breeds = try await client.send(.breeds)
            #expect(breeds.status == "success")
            #expect(breeds.message["hound"]?.contains("afghan") == true)
            let images = try await client.send(.breedImages(breed: "hound"))
            #expect(!images.message.isEmpty)
            let error = await expectAPIError { try await client.send(.breedImages(breed: "unicorn")) }
            guard case .unacceptableStatus(_, let response)? = error else {
                Issue.record("expected a 404, got \(String(describing: error))")
                return
            }
            #expect(response.status == 404)
            let dogError = response.serverError as? DogError
            #expect(dogError?.message == "Breed not found (master breed does not exist)")
        }
    }

    @Test("A path value of '..' reaches the server as that value, not as the folder above", arguments: TransportChoice.allCases)
    func dotDotSegment(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            // Unescaped, `/api/breed/../images` would become `/api/images`: a different resource.
            let error = await expectAPIError { try await client.send(.breedImages(breed: "..")) }
            guard case .unacceptableStatus(let request, let response)? = error else {
                Issue.record("expected the breed's 404, got \(String(describing: error))")
                return
            }
            #expect(request.url.hasSuffix("/api/breed/%2E%2E/images"))
            #expect((response.serverError as? DogError)?.message == "Breed not found (master breed does not exist)")
        }
    }

    @Test("Blog: read every resource", arguments: TransportChoice.allCases)
    func blogReads(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let posts = try await client.send(.posts)
            #expect(posts.count == 100)
            #expect(posts.filter { $0.userId == 1 }.count == 10)
            let post = try await client.send(.post(id: 7))
            #expect(post == posts[6])
            let comments = try await client.send(.comments(postId: 7))
            #expect(comments.count == 5 && comments.allSatisfy { $0.postId == 7 })
            #expect(try await client.send(.albums).count == 100)
            let photos = try await client.send(.photos(albumId: 3))
            #expect(photos.count == 50 && photos.allSatisfy { $0.albumId == 3 })
            let authors = try await client.send(.authors)
            #expect(authors.count == 10)
            let author = try await client.send(.author(id: 2))
            #expect(author.address.city == authors[1].address.city)
            let missing = await expectAPIError { try await client.send(.post(id: 9999)) }
            #expect(missing?.status == 404)
        }
    }

    @Test("Blog: POST, PUT, PATCH and DELETE change the server's posts", arguments: TransportChoice.allCases)
    func blogWrites(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let created = try await client.send(.createPost(userId: 3, title: "Typed & tested", body: "Ünïcode ✓"))
            #expect(created.id == 101)
            #expect(created.title == "Typed & tested" && created.body == "Ünïcode ✓")
            #expect(try await client.send(.post(id: 101)) == created)

            let replaced = try await client.send(.updatePost(id: 101, userId: 4, title: "Replaced", body: "New"))
            #expect(replaced == Post(userId: 4, id: 101, title: "Replaced", body: "New"))

            let patched = try await client.send(.patchPost(id: 101, title: "Patched"))
            #expect(patched.title == "Patched" && patched.body == "New")

            try await client.send(.deletePost(id: 101))
            let gone = await expectAPIError { try await client.send(.post(id: 101)) }
            #expect(gone?.status == 404)
            #expect(try await client.send(.posts).count == 100)
        }
    }

    @Test("Blog: the created status comes with the value on request", arguments: TransportChoice.allCases)
    func statusWithValue(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, server in
            let response = try await client.send(Endpoint.createPost(userId: 1, title: "t", body: "b").includingResponse())
            #expect(response.status == 201)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(response.value.title == "t")
            #expect(response.url == "\(server.baseURL)/posts")
        }
    }

    @Test("GitHub: query items, snake_case keys, sorting and a 422 body", arguments: TransportChoice.allCases)
    func github(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let result = try await client.send(.searchRepositories(query: "swift", sort: .stars, perPage: 5))
            #expect(result.items.count == 5)
            #expect(result.totalCount > 5)
            let stars = result.items.map(\.stargazersCount)
            #expect(stars == stars.sorted(by: >))
            #expect(result.items.allSatisfy { $0.fullName == "\($0.owner.login)/\($0.name)" })
            let python = try await client.send(.searchRepositories(query: "http language:python"))
            #expect(python.items.map(\.fullName).sorted() == ["httpie/cli", "psf/requests"])
            let error = await expectAPIError { try await client.send(.searchRepositories(query: "")) }
            guard case .unacceptableStatus(_, let response)? = error else {
                Issue.record("expected a 422, got \(String(describing: error))")
                return
            }
            #expect(response.status == 422)
            #expect((response.serverError as? ValidationFailure)?.errors.first?.field == "q")
        }
    }

    @Test("Accounts: Basic authentication issues a token; wrong or unsendable credentials fail clearly",
          arguments: TransportChoice.allCases)
    func basicAuthentication(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let session = try await client.send(.issueToken, with: BasicCredentials(username: "ada", password: "lovelace"))
            #expect(session.token.hasPrefix("demo-"))
            #expect(try await client.send(.search(query: "book"), with: AccessToken(session.token)).total == 5)
            let wrong = await expectAPIError {
                try await client.send(.issueToken, with: BasicCredentials(username: "ada", password: "babbage"))
            }
            guard case .unacceptableStatus(let request, let response)? = wrong else {
                Issue.record("expected a 401, got \(String(describing: wrong))")
                return
            }
            #expect(response.status == 401)
            #expect((response.serverError as? ErrorMessage)?.error == "missing or wrong user name and password (Basic)")
            #expect(!request.description.contains("babbage"))
            let colon = await expectAPIError {
                try await client.send(.issueToken, with: BasicCredentials(username: "a:b", password: "x"))
            }
            guard case .invalidRequest(_, let reason)? = colon else {
                Issue.record("expected an invalid request, got \(String(describing: colon))")
                return
            }
            #expect(reason == "a user name for Basic authentication cannot contain ':'")
        }
    }

    @Test("Accounts: envelopes, UUIDs, and a bearer endpoint that needs the token", arguments: TransportChoice.allCases)
    func accounts(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let users = try await client.send(.users)
            #expect(users.count == 4)
            let ada = try await client.send(.user(id: users[0].id))
            #expect(ada.name == "Ada Lovelace")
            let featured = try await client.send(.featured)
            #expect(!featured.isEmpty && featured.allSatisfy { $0.tags.contains("featured") })

            let session = try await client.send(.login(user: "ada", password: "lovelace"))
            #expect(session.expiresIn == 3600)
            let hits = try await client.send(.search(query: "swift"), with: AccessToken(session.token))
            #expect(hits.query == "swift" && hits.total == hits.items.count && hits.total > 0)

            let refused = await expectAPIError { try await client.send(.search(query: "swift"), with: "not-a-token") }
            #expect(refused?.status == 401)
            #expect(refused.map(String.init(describing:))?.contains("missing or invalid token") == true)

            let wrong = await expectAPIError { try await client.send(.login(user: "ada", password: "babbage")) }
            guard case .unacceptableStatus(_, let response)? = wrong else {
                Issue.record("expected a 401, got \(String(describing: wrong))")
                return
            }
            #expect(response.status == 401)
            #expect((response.serverError as? ErrorMessage)?.error == "wrong user or password")
        }
    }
}
