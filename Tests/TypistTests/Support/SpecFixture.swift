import Foundation

/// A small OpenAPI 3.1 document about the demo service (nine operations, named the way many real
/// documents name them: `list-posts`, `create_post`, `getPost`, `q`), for the tests of how a
/// document's names, bodies, security and deprecations become functions. The demo service
/// publishes its whole document (`DemoOpenAPI.document`), named as its Swift bindings name it.
enum SpecFixture {
    /// The document's YAML text.
    static let document = """
    openapi: 3.1.0
    info:
      title: Typist demo service
      version: "1.0"
    servers:
      - url: /
        description: This demo service
    security: []
    tags:
      - name: blog
      - name: github
      - name: accounts
    paths:
      /posts:
        get:
          operationId: list-posts
          tags: [blog]
          summary: Every post.
          responses:
            "200":
              description: The posts.
              content:
                application/json:
                  schema:
                    type: array
                    items: { $ref: "#/components/schemas/Post" }
        post:
          operationId: create_post
          tags: [blog]
          summary: Creates a post.
          requestBody:
            required: true
            content:
              application/json:
                schema: { $ref: "#/components/schemas/Post" }
          responses:
            "201":
              description: The post as stored.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Post" }
      /posts/{id}:
        parameters:
          - name: id
            in: path
            required: true
            schema: { type: integer, format: int64 }
        get:
          operationId: getPost
          tags: [blog]
          summary: One post.
          responses:
            "200":
              description: The post.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Post" }
            "404":
              description: No such post.
        delete:
          operationId: deletePost
          tags: [blog]
          deprecated: true
          responses:
            "204":
              description: Gone.
      /search/repositories:
        get:
          operationId: searchRepositories
          tags: [github]
          parameters:
            - name: q
              in: query
              required: true
              schema: { type: string }
            - name: sort
              in: query
              schema: { type: string, enum: [stars, updated] }
            - name: per_page
              in: query
              schema: { type: integer, default: 30 }
            - name: page
              in: query
              schema: { type: integer, default: 1, minimum: 1 }
          responses:
            "200":
              description: One page of matching repositories; a Link header names the next and last pages.
              headers:
                Link:
                  description: 'RFC 8288 links to the next and last pages, as GitHub''s: <…>; rel="next", <…>; rel="last".'
                  schema: { type: string }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/RepositorySearch" }
      /v1/login:
        post:
          operationId: login
          tags: [accounts]
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [user, password]
                  properties:
                    user: { type: string }
                    password: { type: string }
          responses:
            "200": { $ref: "#/components/responses/SessionResult" }
      /v1/search:
        get:
          operationId: search
          tags: [accounts]
          security:
            - bearerAuth: []
          parameters:
            - name: q
              in: query
              required: true
              schema: { type: string }
          responses:
            "200":
              description: Items.
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      result: { $ref: "#/components/schemas/SearchResults" }
      /v1/token:
        get:
          operationId: issueToken
          tags: [accounts]
          security:
            - basicAuth: []
          responses:
            "200": { $ref: "#/components/responses/SessionResult" }
      /faults/wrong-type:
        get:
          operationId: wrongType
          summary: A post whose id is a string.
          responses:
            "200":
              description: Not quite a post.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Post" }
    components:
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
      securitySchemes:
        bearerAuth: { type: http, scheme: bearer }
        basicAuth: { type: http, scheme: basic }
      schemas:
        Post:
          type: object
          required: [userId, id, title, body]
          properties:
            userId: { type: integer }
            id: { type: integer, readOnly: true }
            title: { type: string }
            body: { type: string }
        RepositorySearch:
          type: object
          required: [total_count, incomplete_results, items]
          properties:
            total_count: { type: integer }
            incomplete_results: { type: boolean }
            items:
              type: array
              items: { $ref: "#/components/schemas/Repository" }
        Repository:
          type: object
          required: [id, name, full_name, owner, stargazers_count]
          properties:
            id: { type: integer }
            name: { type: string }
            full_name: { type: string }
            owner:
              type: object
              required: [login, id]
              properties:
                login: { type: string }
                id: { type: integer }
            stargazers_count: { type: integer }
            language: { type: [string, "null"] }
            description:
              anyOf:
                - type: string
                - type: "null"
        Session:
          type: object
          required: [token, expiresIn]
          properties:
            token: { type: string }
            expiresIn: { type: integer }
        SearchResults:
          type: object
          required: [query, total, items]
          properties:
            query: { type: string }
            total: { type: integer }
            items:
              type: array
              items:
                type: object
                required: [id, title, price, tags]
                properties:
                  id: { type: integer }
                  title: { type: string }
                  price: { type: number }
                  tags: { type: array, items: { type: string } }
    """
}
