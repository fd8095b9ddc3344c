/// The demo service described as an OpenAPI 3.1 document, as its owner might publish it: every
/// endpoint its Swift bindings register (the dogs, the blog, GitHub's search, the accounts with
/// their security and envelopes, the faults), named as the bindings name them, served at
/// `GET /openapi.yaml`. `typist --openapi http://…/openapi.yaml` gives a session whose functions
/// come from this document alone and run the same scripts; its one server is the service itself
/// (a relative URL). Three `x-typist-…` extensions say what plain OpenAPI cannot: a parameter's
/// label in scripts, a response's envelope key, and the field a login's token is in.
public enum DemoOpenAPI {
    /// The document's YAML text.
    public static let document = """
    openapi: 3.1.0
    info:
      title: Typist demo service
      version: "1.0"
      description: >-
        Every endpoint the demo's Swift bindings register, named as they name them. Three
        `x-typist-…` extensions say what plain OpenAPI cannot: `x-typist-label` (a parameter's
        label in scripts, where it differs from its name on the wire), `x-typist-envelope` (the
        key a response's value sits under) and `x-typist-token` (the response field a login
        answers with, which the session keeps as its token).
    servers:
      - url: /
        description: This demo service
    security: []
    tags:
      - name: Dogs
      - name: Blog
      - name: GitHub
      - name: Accounts
      - name: Streams
      - name: Faults
    paths:
      /api/breeds/list/all:
        get:
          operationId: breeds
          tags: [Dogs]
          summary: Every breed with its sub-breeds
          responses:
            "200":
              description: The breeds, by name.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Breeds" }
            default: { $ref: "#/components/responses/DogError" }
      /api/breed/{breed}/images:
        get:
          operationId: breedImages
          tags: [Dogs]
          summary: Image URLs of one breed
          parameters:
            - { name: breed, in: path, required: true, schema: { type: string } }
          responses:
            "200":
              description: The image URLs.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/BreedImages" }
            default: { $ref: "#/components/responses/DogError" }
      /posts:
        get:
          operationId: posts
          tags: [Blog]
          summary: All 100 posts
          responses:
            "200":
              description: The posts.
              content:
                application/json:
                  schema: { type: array, items: { $ref: "#/components/schemas/Post" } }
        post:
          operationId: createPost
          tags: [Blog]
          summary: Create a post (201)
          requestBody: { $ref: "#/components/requestBodies/PostDraft" }
          responses:
            "201":
              description: The post as stored, with its new id.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Post" }
      /posts/{id}:
        parameters:
          - { name: id, in: path, required: true, schema: { type: integer } }
        get:
          operationId: post
          tags: [Blog]
          summary: One post by id (404 when absent)
          responses:
            "200":
              description: The post.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Post" }
            "404": { description: No such post. }
        put:
          operationId: updatePost
          tags: [Blog]
          summary: Replace a post
          requestBody: { $ref: "#/components/requestBodies/PostDraft" }
          responses:
            "200":
              description: The post as stored.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Post" }
        patch:
          operationId: patchPost
          tags: [Blog]
          summary: Change a post's title
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [title]
                  properties:
                    title: { type: string }
          responses:
            "200":
              description: The post as stored.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Post" }
        delete:
          operationId: deletePost
          tags: [Blog]
          summary: Delete a post (204)
          responses:
            "204": { description: Gone. }
      /posts/{postId}/comments:
        get:
          operationId: comments
          tags: [Blog]
          summary: The comments of a post
          parameters:
            - { name: postId, in: path, required: true, schema: { type: integer } }
          responses:
            "200":
              description: Its five comments.
              content:
                application/json:
                  schema: { type: array, items: { $ref: "#/components/schemas/Comment" } }
      /comments:
        get:
          operationId: allComments
          tags: [Blog]
          summary: Every comment, or one post's (the flat /comments route)
          parameters:
            - { name: postId, in: query, schema: { type: integer } }
          responses:
            "200":
              description: The comments.
              content:
                application/json:
                  schema: { type: array, items: { $ref: "#/components/schemas/Comment" } }
      /albums:
        get:
          operationId: albums
          tags: [Blog]
          summary: All albums
          responses:
            "200":
              description: The albums.
              content:
                application/json:
                  schema: { type: array, items: { $ref: "#/components/schemas/Album" } }
      /photos:
        get:
          operationId: photos
          tags: [Blog]
          summary: The photos of an album
          parameters:
            - { name: albumId, in: query, required: true, schema: { type: integer } }
          responses:
            "200":
              description: The photos.
              content:
                application/json:
                  schema: { type: array, items: { $ref: "#/components/schemas/Photo" } }
      /users:
        get:
          operationId: authors
          tags: [Blog]
          summary: The ten authors
          responses:
            "200":
              description: The authors.
              content:
                application/json:
                  schema: { type: array, items: { $ref: "#/components/schemas/Author" } }
      /users/{id}:
        get:
          operationId: author
          tags: [Blog]
          summary: One author, with address and company
          parameters:
            - { name: id, in: path, required: true, schema: { type: integer } }
          responses:
            "200":
              description: The author.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Author" }
            "404": { description: No such author. }
      /big:
        get:
          operationId: bigPosts
          tags: [Blog]
          summary: Many generated posts, for performance work
          parameters:
            - { name: count, in: query, required: true, schema: { type: integer, minimum: 0 } }
          responses:
            "200":
              description: The posts, about 364 bytes each.
              content:
                application/json:
                  schema: { type: array, items: { $ref: "#/components/schemas/Post" } }
      /search/repositories:
        get:
          operationId: searchRepositories
          tags: [GitHub]
          summary: Search repositories (snake_case on the wire)
          description: >-
            One page of the matching repositories; a Link header names the next and last pages
            (RFC 8288, as GitHub's), which `pages { … }` follows.
          parameters:
            - { name: q, in: query, required: true, x-typist-label: query, schema: { type: string } }
            - { name: sort, in: query, schema: { $ref: "#/components/schemas/RepositorySort" } }
            - { name: per_page, in: query, schema: { type: integer, default: 30 } }
          responses:
            "200":
              description: One page of matching repositories.
              headers:
                Link:
                  description: 'RFC 8288 links to the next and last pages: <…>; rel="next", <…>; rel="last".'
                  schema: { type: string }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/RepositorySearch" }
            "422":
              description: An empty query.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/ValidationFailure" }
      /v1/login:
        post:
          operationId: login
          tags: [Accounts]
          summary: "Log in; the session keeps the token (demo: ada / lovelace)"
          x-typist-envelope: result
          x-typist-token: token
          requestBody:
            required: true
            content:
              application/json:
                schema: { $ref: "#/components/schemas/Credentials" }
          responses:
            "200": { $ref: "#/components/responses/SessionResult" }
            "401": { $ref: "#/components/responses/ErrorMessage" }
      /v1/token:
        get:
          operationId: issueToken
          tags: [Accounts]
          summary: A token for `username` and `password` (Basic); the session keeps it
          security:
            - basicAuth: []
          x-typist-envelope: result
          x-typist-token: token
          responses:
            "200": { $ref: "#/components/responses/SessionResult" }
            "401": { $ref: "#/components/responses/ErrorMessage" }
      /v1/users:
        get:
          operationId: users
          tags: [Accounts]
          summary: Every account holder
          x-typist-envelope: result
          responses:
            "200":
              description: The account holders, in the accounts' envelope.
              content:
                application/json:
                  schema:
                    type: object
                    required: [result]
                    properties:
                      result: { type: array, items: { $ref: "#/components/schemas/User" } }
      /v1/users/{id}:
        get:
          operationId: user
          tags: [Accounts]
          summary: One account holder by UUID
          x-typist-envelope: result
          parameters:
            - { name: id, in: path, required: true, schema: { type: string, format: uuid } }
          responses:
            "200":
              description: The account holder, in the accounts' envelope.
              content:
                application/json:
                  schema:
                    type: object
                    required: [result]
                    properties:
                      result: { $ref: "#/components/schemas/User" }
            "404": { $ref: "#/components/responses/ErrorMessage" }
      /v1/featured:
        get:
          operationId: featured
          tags: [Accounts]
          summary: Featured items
          x-typist-envelope: result
          responses:
            "200":
              description: The featured items, in the accounts' envelope.
              content:
                application/json:
                  schema:
                    type: object
                    required: [result]
                    properties:
                      result: { type: array, items: { $ref: "#/components/schemas/Item" } }
      /v1/search:
        get:
          operationId: search
          tags: [Accounts]
          summary: Search items (needs the token)
          security:
            - bearerAuth: []
          x-typist-envelope: result
          parameters:
            - { name: q, in: query, required: true, x-typist-label: query, schema: { type: string } }
          responses:
            "200":
              description: The matching items, in the accounts' envelope.
              content:
                application/json:
                  schema:
                    type: object
                    required: [result]
                    properties:
                      result: { $ref: "#/components/schemas/SearchResults" }
            "401": { $ref: "#/components/responses/ErrorMessage" }
      /events:
        get:
          operationId: events
          tags: [Streams]
          summary: Build events as server-sent events, gapMs apart
          parameters:
            - { name: count, in: query, schema: { type: integer, minimum: 0, default: 10 } }
            - { name: gapMs, in: query, schema: { type: integer, minimum: 0, default: 0 } }
          responses:
            "200":
              description: One event per build step; each event's data is a BuildEvent.
              content:
                text/event-stream:
                  itemSchema: { $ref: "#/components/schemas/BuildEvent" }
      /events.ndjson:
        get:
          operationId: eventLines
          tags: [Streams]
          summary: The same build events as JSON Lines
          parameters:
            - { name: count, in: query, schema: { type: integer, minimum: 0, default: 10 } }
            - { name: gapMs, in: query, schema: { type: integer, minimum: 0, default: 0 } }
          responses:
            "200":
              description: One BuildEvent per line.
              content:
                application/x-ndjson:
                  schema: { $ref: "#/components/schemas/BuildEvent" }
      /faults/status/{code}:
        get:
          operationId: status
          tags: [Faults]
          summary: Answers with that status
          parameters:
            - { name: code, in: path, required: true, schema: { type: integer, minimum: 200, maximum: 599 } }
          responses:
            default:
              description: The status asked for, said in JSON.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/StatusReport" }
      /faults/slow:
        get:
          operationId: slow
          tags: [Faults]
          summary: Answers after ms milliseconds
          parameters:
            - { name: ms, in: query, required: true, schema: { type: integer, minimum: 0 } }
          responses:
            "200":
              description: How long it waited.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/SlowReport" }
      /faults/malformed:
        get:
          operationId: malformed
          tags: [Faults]
          summary: JSON that is not JSON
          responses:
            "200": { $ref: "#/components/responses/FaultyPost" }
      /faults/wrong-type:
        get:
          operationId: wrongType
          tags: [Faults]
          summary: A post whose id is a string
          responses:
            "200": { $ref: "#/components/responses/FaultyPost" }
      /faults/html:
        get:
          operationId: notJSON
          tags: [Faults]
          summary: HTML where JSON was asked for
          responses:
            "200": { $ref: "#/components/responses/FaultyPost" }
      /faults/truncated:
        get:
          operationId: truncated
          tags: [Faults]
          summary: A body cut short
          responses:
            "200": { $ref: "#/components/responses/FaultyPost" }
      /faults/redirect:
        get:
          operationId: redirect
          tags: [Faults]
          summary: A 302 to another URL
          parameters:
            - { name: to, in: query, required: true, schema: { type: string } }
          responses:
            "200": { $ref: "#/components/responses/HeaderEcho" }
            "302": { description: To the URL in `to`. }
      /faults/loop:
        get:
          operationId: redirectLoop
          tags: [Faults]
          summary: A 302 to itself, for ever (the client stops after 10)
          responses:
            "200": { $ref: "#/components/responses/HeaderEcho" }
            "302": { description: To itself. }
      /debug/headers:
        get:
          operationId: echoHeaders
          tags: [Faults]
          summary: The headers a request arrived with
          responses:
            "200": { $ref: "#/components/responses/HeaderEcho" }
    components:
      securitySchemes:
        bearerAuth: { type: http, scheme: bearer }
        basicAuth: { type: http, scheme: basic }
      requestBodies:
        PostDraft:
          required: true
          content:
            application/json:
              schema: { $ref: "#/components/schemas/PostDraft" }
      responses:
        SessionResult:
          description: A session, in the accounts' envelope.
          content:
            application/json:
              schema:
                type: object
                required: [result]
                properties:
                  result: { $ref: "#/components/schemas/Session" }
        ErrorMessage:
          description: What went wrong.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/ErrorMessage" }
        DogError:
          description: An unknown breed.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/DogError" }
        FaultyPost:
          description: A post, as the document promises it; the service breaks that promise on purpose.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Post" }
        HeaderEcho:
          description: The headers the request arrived with.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/HeaderEcho" }
      schemas:
        Breeds:
          type: object
          required: [status, message]
          properties:
            status: { type: string }
            message:
              type: object
              additionalProperties: { type: array, items: { type: string } }
        BreedImages:
          type: object
          required: [status, message]
          properties:
            status: { type: string }
            message: { type: array, items: { type: string } }
        DogError:
          type: object
          required: [status, message, code]
          properties:
            status: { type: string }
            message: { type: string }
            code: { type: integer }
        Post:
          type: object
          required: [userId, id, title, body]
          properties:
            userId: { type: integer }
            id: { type: integer }
            title: { type: string }
            body: { type: string }
        PostDraft:
          type: object
          required: [userId, title, body]
          properties:
            userId: { type: integer }
            title: { type: string }
            body: { type: string }
        Comment:
          type: object
          required: [postId, id, name, email, body]
          properties:
            postId: { type: integer }
            id: { type: integer }
            name: { type: string }
            email: { type: string }
            body: { type: string }
        Album:
          type: object
          required: [userId, id, title]
          properties:
            userId: { type: integer }
            id: { type: integer }
            title: { type: string }
        Photo:
          type: object
          required: [albumId, id, title, url, thumbnailUrl]
          properties:
            albumId: { type: integer }
            id: { type: integer }
            title: { type: string }
            url: { type: string }
            thumbnailUrl: { type: string }
        Author:
          type: object
          required: [id, name, username, email, address, phone, website, company]
          properties:
            id: { type: integer }
            name: { type: string }
            username: { type: string }
            email: { type: string }
            address: { $ref: "#/components/schemas/Address" }
            phone: { type: string }
            website: { type: string }
            company: { $ref: "#/components/schemas/Company" }
        Address:
          type: object
          required: [street, suite, city, zipcode]
          properties:
            street: { type: string }
            suite: { type: string }
            city: { type: string }
            zipcode: { type: string }
        Company:
          type: object
          required: [name, catchPhrase]
          properties:
            name: { type: string }
            catchPhrase: { type: string }
        RepositorySort:
          type: string
          enum: [stars, updated]
        RepositorySearch:
          type: object
          required: [total_count, incomplete_results, items]
          properties:
            total_count: { type: integer }
            incomplete_results: { type: boolean }
            items: { type: array, items: { $ref: "#/components/schemas/Repository" } }
        Repository:
          type: object
          required: [id, name, full_name, owner, stargazers_count]
          properties:
            id: { type: integer }
            name: { type: string }
            full_name: { type: string }
            owner: { $ref: "#/components/schemas/Owner" }
            stargazers_count: { type: integer }
            language: { type: [string, "null"] }
            description: { type: [string, "null"] }
        Owner:
          type: object
          required: [login, id]
          properties:
            login: { type: string }
            id: { type: integer }
        ValidationFailure:
          type: object
          required: [message, errors]
          properties:
            message: { type: string }
            errors:
              type: array
              items:
                type: object
                required: [resource, field, code]
                properties:
                  resource: { type: string }
                  field: { type: string }
                  code: { type: string }
        Credentials:
          type: object
          required: [user, password]
          properties:
            user: { type: string }
            password: { type: string, writeOnly: true }
        Session:
          type: object
          required: [token, expiresIn]
          properties:
            token: { type: string }
            expiresIn: { type: integer }
        User:
          type: object
          required: [id, name, twitterHandle, gitHubUsername]
          properties:
            id: { type: string, format: uuid }
            name: { type: string }
            twitterHandle: { type: string }
            gitHubUsername: { type: string }
        Item:
          type: object
          required: [id, title, price, tags]
          properties:
            id: { type: integer }
            title: { type: string }
            price: { type: number }
            tags: { type: array, items: { type: string } }
        SearchResults:
          type: object
          required: [query, total, items]
          properties:
            query: { type: string }
            total: { type: integer }
            items: { type: array, items: { $ref: "#/components/schemas/Item" } }
        ErrorMessage:
          type: object
          required: [error]
          properties:
            error: { type: string }
        BuildEvent:
          type: object
          required: [n, status, log]
          properties:
            n: { type: integer }
            status: { type: string }
            log: { type: string }
        StatusReport:
          type: object
          required: [status, message]
          properties:
            status: { type: integer }
            message: { type: string }
        SlowReport:
          type: object
          required: [waitedMs]
          properties:
            waitedMs: { type: integer }
        HeaderEcho:
          type: object
          required: [headers]
          properties:
            headers:
              type: object
              additionalProperties: { type: string }
    """
}
