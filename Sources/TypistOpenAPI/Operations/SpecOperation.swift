import APIScript
import TypedAPI
import TypistCore

/// One operation of a document, as a script function: its name, arguments, request, response
/// type and the credentials it takes.
package struct SpecOperation: Sendable {
    /// One argument, and where its value goes.
    package struct Argument: Sendable {
        package enum Place: Sendable, Equatable {
            case path, query, header
            /// A field of a flattened JSON body.
            case bodyField
            /// A field of a form body (`application/x-www-form-urlencoded`).
            case formField
            /// A field of a `multipart/form-data` body: text, JSON, or a file (`UploadFile`).
            case multipartField
            /// A whole form body whose schema names no fields, only `additionalProperties`
            /// (Litestar's `dict[str, str]`): a dictionary, each entry a field.
            case formMap
            /// A whole `multipart/form-data` body whose schema names no fields, only
            /// `additionalProperties`: a dictionary, each entry a part.
            case multipartMap
            /// The whole body as bytes of this media type: a `String` for text, an `UploadFile`
            /// for anything else (its own type where the media type is a range, `image/*`).
            case rawBody(mediaType: String)
            /// The whole JSON body (`body:`).
            case body
        }

        /// The name on the wire (`pet_id`, `X-Request-ID`) or the body field's key.
        package var key: String
        /// The label scripts write (`petId:`).
        package var label: String
        package var place: Place
        /// The type scripts pass; `T?` when it may be left out.
        package var type: ScriptType
        /// When it may be left out: its default (`nil` when the service decides).
        package var defaultValue: Value?
        /// The values it allows (an `enum`), checked before anything is sent.
        package var choices: [Value]?
        /// For an enum parameter the document declares once and shares (`#/components/parameters/…`,
        /// or a schema `$ref`): the one Swift type every operation that takes it uses (`Direction`);
        /// `nil` for an operation's own (`ReposListForOrgSort`).
        package var sharedTypeName: String? = nil
        /// What the document allows of its value beyond its type (`minimum`, `maxLength`,
        /// `pattern` …), checked before the call is sent.
        package var constraints: ValueConstraints? = nil
        /// A multipart field's own media type, from the body's `encoding` (OpenAI's `sdp`:
        /// `application/sdp`); nil for the default (plain text, JSON for any other value).
        package var partType: String? = nil
        /// Whether the document makes its value a credential (``OperationReader`` says when):
        /// masked in `:curl`, `:last`, errors and cassettes. A word in its name does not make it
        /// one — Kinto's cursor `_token` is data.
        package var isSecret = false
        /// How a list is written into a query parameter or a header: each element under the name
        /// (`multi`, OpenAPI 3's `form` with `explode`, the default for a query), or one value
        /// with a delimiter (Swagger 2's `collectionFormat`, default `csv`; OpenAPI 3's
        /// `explode: false`, `spaceDelimited`, `pipeDelimited`; a header's `simple`).
        package var listStyle: ListStyle = .multi
        /// For an argument scripts pass as any JSON (a body field that is an object or a list of
        /// them, a whole `body:`): the type the document gives its value, which the value is
        /// checked against before it is sent (``SchemaConformance``); nil where it says nothing.
        package var schemaType: ScriptType? = nil

        /// How a list goes on the wire, from the document's `collectionFormat` or `style`/`explode`.
        package enum ListStyle: String, Sendable {
            /// `tags=a&tags=b`.
            case multi
            /// `tags=a,b`.
            case csv
            /// `tags=a b`.
            case ssv
            /// `tags=a\tb`.
            case tsv
            /// `tags=a|b`.
            case pipes

            /// The delimiter that joins the elements; nil for `multi`.
            var delimiter: String? {
                switch self {
                case .multi: nil
                case .csv: ","
                case .ssv: " "
                case .tsv: "\t"
                case .pipes: "|"
                }
            }
        }

        /// Why the document rules out `value` for it, or nil. The document's own default is
        /// allowed even where it breaks the document's rules (documents do): the service decides.
        func violation(of value: Value) -> String? {
            guard value != defaultValue else { return nil }
            if let schemaType, let problem = SchemaConformance.violation(of: value, to: schemaType, label: label) { return problem }
            return constraints?.violation(of: value, label: label, secret: isSecret)
        }

        /// Why no value of the static type `type` can be sent for it, or nil.
        func violation(ofType type: ScriptType) -> String? {
            schemaType.flatMap { SchemaConformance.violation(ofType: type, to: $0, label: label) }
        }
    }

    package var name: String
    /// The document's `operationId`, when it has one.
    package var operationId: String?
    package var group: String
    package var summary: String
    package var method: String
    /// The path with `{name}` placeholders, as the document writes it.
    package var path: String
    package var arguments: [Argument]
    package var responseType: ScriptType
    /// Whether the body is JSON the model reads (else: `Void`, or the text/JSON as it comes).
    package var responseIsJSON: Bool
    /// Whether the success response is a stream (server-sent events or JSON Lines), each item of
    /// ``responseType``.
    package var streams = false
    /// The alternatives the operation accepts, in the document's order.
    package var credentials: [SpecCredential]
    package var deprecated: Bool
    /// Whether the document declares `304 Not Modified` (a conditional `GET`'s answer when the
    /// resource has not changed since the `If-None-Match`/`If-Modified-Since` it was sent).
    package var declaresNotModified = false
    /// The positions of the arguments that make a call conditional — header parameters named
    /// `If-None-Match` or `If-Modified-Since` — where the document declares `304`: a call that
    /// passes one returns an optional, `nil` for `304 Not Modified`.
    package var conditionalArguments: [Int] {
        guard declaresNotModified else { return [] }
        return arguments.indices.filter {
            arguments[$0].place == .header && ["if-none-match", "if-modified-since"].contains(arguments[$0].key.lowercased())
        }
    }
    /// The key the response's value sits under (`x-typist-envelope`), when it has an envelope.
    package var envelopeKey: String? = nil
    /// The string field of the response a login answers with (by its name in scripts), which the
    /// session keeps as its token (`x-typist-token` names its key).
    package var tokenKey: String? = nil
    /// `GET /pets/{petId}`, for messages and `:source`.
    package var location: String { "\(method) \(path)" }
    /// The untyped call of its method (`httpGet`), which sends what the document does not allow
    /// and shows what comes back as it came.
    var untypedCall: String { "http" + method.prefix(1) + method.dropFirst().lowercased() }
}

/// The methods an OpenAPI path item may hold, in the order operations are listed.
let specMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

/// Those of them an endpoint can send (`HTTPMethod` has no `OPTIONS` or `TRACE`).
let sendableSpecMethods: Set<String> = ["get", "put", "post", "delete", "head", "patch"]

extension SpecOperation {
    /// A function name from an `operationId` (`repos/list-for-org` → `reposListForOrg`), or from
    /// the method and path (`GET /pets/{petId}` → `getPetsByPetId`).
    static func functionName(operationId: String?, method: String, path: String) -> String {
        if let operationId, !operationId.isEmpty {
            let name = SwiftNames.property(operationId)
            if name != "value" { return name }
        }
        var words = [method.lowercased()]
        for segment in path.split(separator: "/") {
            if segment.hasPrefix("{"), segment.hasSuffix("}") {
                words.append("By" + SwiftNames.type(String(segment.dropFirst().dropLast())))
            } else {
                words.append(SwiftNames.type(String(segment)))
            }
        }
        return SwiftNames.property(words.joined(separator: "_"))
    }
}
