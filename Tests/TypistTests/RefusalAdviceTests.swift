import APIScript
import Foundation
import Testing
import TypedAPI
@testable import TypistCore

/// What a refused call's body says, read in the shapes real services write it, and said against
/// the call's own arguments.
@Suite("Refusals read")
struct RefusalAdviceTests {
    static let parameters = [
        ParameterInfo(label: "limit", name: "limit", swiftType: "Int", scriptType: .int),
        ParameterInfo(label: "itemId", name: "itemId", swiftType: "Int", scriptType: .int),
        ParameterInfo(label: "password", name: "password", swiftType: "String", scriptType: .string),
        ParameterInfo(label: "body", name: "body", swiftType: "NewItem", scriptType: .any),
        ParameterInfo(label: "owner", name: "owner", swiftType: "Any", scriptType: .any),
    ]

    @Test("Each service's shape reads as one line per problem, naming the argument it is about", arguments: [
        // FastAPI / pydantic: the argument found through Swift's name for `item_id`; a missing field's
        // `input` (the object around it) is not quoted; the whole body as the place of last resort.
        (#"{"detail":[{"loc":["path","item_id"],"msg":"Input should be a valid integer","input":"x"},{"loc":["body","title"],"msg":"Field required","input":{"a":1}}]}"#,
         [#"the service refused 'itemId' (path.item_id): Input should be a valid integer (it got "x")"#,
          "the service refused 'body' (body.title): Field required"]),
        // A credential's quoted value is left out.
        (#"{"detail":[{"loc":["body","password"],"msg":"String should have at least 12 characters","input":"hunter2"}]}"#,
         ["the service refused 'password' (body.password): String should have at least 12 characters"]),
        (#"{"detail":[{"loc":["query","api_key"],"msg":"Field required","input":"abc"}]}"#,
         ["the service refused query.api_key: Field required"]),
        // RFC 9457 problem details with `errors` pointers; RFC 7807's `invalid-params`.
        (##"{"type":"about:blank","title":"Unprocessable","status":422,"errors":[{"detail":"must be positive","pointer":"#/limit"}]}"##,
         ["the service refused 'limit': must be positive"]),
        (#"{"title":"Your request parameters didn't validate.","invalid-params":[{"name":"age","reason":"must be a positive integer"}]}"#,
         ["the service refused age: must be a positive integer"]),
        // JSON:API.
        (#"{"errors":[{"status":"422","source":{"pointer":"/data/attributes/first~1name"},"title":"Invalid Attribute","detail":"too short"}]}"#,
         ["the service refused data.attributes.first/name: too short"]),
        // GitHub: a code where there is no message.
        (#"{"message":"Validation Failed","errors":[{"resource":"Issue","field":"title","code":"missing_field"}],"documentation_url":"https://x"}"#,
         ["the service refused title: missing_field"]),
        // Google: field violations, and the older errors (those with no location repeat the message).
        (#"{"error":{"code":400,"message":"Invalid","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"limit","description":"Must be at least 1"}]}]}}"#,
         ["the service refused 'limit': Must be at least 1"]),
        (#"{"error":{"code":400,"message":"Bad","errors":[{"message":"Bad","domain":"global","reason":"invalid"},{"message":"Invalid value '0'","location":"maxResults","locationType":"parameter"}]}}"#,
         ["the service refused maxResults: Invalid value '0'"]),
        // Litestar (its answer to `limit=0` where `ge=1`, and to a number for a string field).
        (#"{"status_code":400,"detail":"Validation failed for GET /items?limit=0","extra":[{"message":"Expected `int` >= 1","key":"limit","source":"query"},{"message":"Expected `str`, got `int`","key":"name","source":"body"}]}"#,
         ["the service refused 'limit' (query.limit): Expected `int` >= 1", "the service refused 'body' (body.name): Expected `str`, got `int`"]),
        // Rails and ASP.NET: `errors` as fields; Django REST framework: fields at the top.
        (#"{"errors":{"name":["can't be blank","is too short"],"age":"must be a number"}}"#,
         ["the service refused age: must be a number", "the service refused name: can't be blank", "the service refused name: is too short"]),
        (#"{"type":"https://tools.ietf.org/html/rfc9110#section-15.5.1","title":"One or more validation errors occurred.","status":400,"errors":{"Limit":["The field Limit must be between 1 and 100."]}}"#,
         ["the service refused 'limit' (Limit): The field Limit must be between 1 and 100."]),
        (#"{"non_field_errors":["Passwords do not match."],"email":["Enter a valid email address."]}"#,
         ["the service refused email: Enter a valid email address.", "the service refused the request: Passwords do not match."]),
        // Django REST framework's nested serializers: a field's object, a list's items by index
        // (`{}` for an item it took).
        (#"{"address":{"city":["This field is required."]},"lines":[{},{"sku":["A valid integer is required."]}]}"#,
         ["the service refused address.city: This field is required.", "the service refused lines.1.sku: A valid integer is required."]),
        // marshmallow through webargs, as flask-smorest (`errors`) and APIFlask (`detail`) answered
        // a body with an unknown field, a missing one and a number in a list of strings; the
        // place `json` is the whole body where no field matches.
        (#"{"code":422,"errors":{"json":{"limit":["Missing data for required field."],"tags":{"0":["Not a valid string."]},"x":["Unknown field."]}},"status":"Unprocessable Entity"}"#,
         ["the service refused 'limit' (json.limit): Missing data for required field.", "the service refused 'body' (json.tags.0): Not a valid string.",
          "the service refused 'body' (json.x): Unknown field."]),
        (#"{"detail":{"json":{"category":["Must be one of: dog, cat."],"_schema":["Invalid input."]}},"message":"Validation error"}"#,
         ["the service refused 'body' (json): Invalid input.", "the service refused 'body' (json.category): Must be one of: dog, cat."]),
        // Flask-RESTX: a nested field's path is one dotted key, its first part the argument.
        (#"{"errors": {"owner.name": "'name' is a required property"}, "message": "Input payload validation failed"}"#,
         ["the service refused 'owner' (owner.name): 'name' is a required property"]),
        // Control characters and line breaks are escaped, never printed.
        (#"{"detail":[{"loc":["query","q\u001b[2J"],"msg":"bad\u0007\nline","input":"\u001b]0;x"}]}"#,
         [#"the service refused query.q\u{1B}[2J: bad\u{7}\nline (it got "\u001b]0;x")"#]),
    ])
    func shapes(body: String, expected: [String]) throws {
        let reading = try #require(ServiceProblems.read(Data(body.utf8)))
        #expect(RefusalAdvice.lines(reading, parameters: Self.parameters, cut: false) == expected)
    }

    @Test("A body that says nothing of the kind reads as nothing", arguments: [
        "", "<html><body>Bad Request</body></html>", "[1, 2]", "{}", #"{"id": 1, "name": "x"}"#,
        #"{"status": "fail", "code": "E12"}"#, "{not json", #"{"detail": {"id": 1}}"#, #"{"errors": {"items": [{}, {}]}}"#,
        #"{"data": {"user": {"name": "x"}}}"#,
    ])
    func nothing(body: String) {
        #expect(ServiceProblems.read(Data(body.utf8)) == nil)
    }

    @Test("A message is said only where the body shown was cut; past eight problems, how many more")
    func messageAndMore() throws {
        let problems = (1...10).map { #"{"loc":["query","f\#($0)"],"msg":"bad"}"# }.joined(separator: ",")
        let reading = try #require(ServiceProblems.read(Data(#"{"detail":[\#(problems)]}"#.utf8)))
        let lines = RefusalAdvice.lines(reading, parameters: [], cut: false)
        #expect(lines.count == 9)
        #expect(lines.last == "… and 2 more problems in the body")
        let problem = try #require(ServiceProblems.read(Data(#"{"title":"Forbidden","detail":"You do not have enough credit."}"#.utf8)))
        #expect(RefusalAdvice.lines(problem, parameters: [], cut: false) == [])
        #expect(RefusalAdvice.lines(problem, parameters: [], cut: true) == ["the service says: Forbidden: You do not have enough credit."])
        let oauth = try #require(ServiceProblems.read(Data(#"{"error":"invalid_grant","error_description":"expired"}"#.utf8)))
        #expect(RefusalAdvice.lines(oauth, parameters: [], cut: true) == ["the service says: invalid_grant: expired"])
    }

    @Test("Only a refusal gets the reading: a 401 is the challenge's, other errors are left as they are")
    func onlyRefusals() {
        let body = Data(#"{"detail":[{"loc":["query","limit"],"msg":"too small"}]}"#.utf8)
        let request = RequestSummary(method: "GET", url: "http://127.0.0.1/items")
        func refused(_ status: Int) -> APIError { .unacceptableStatus(request, ResponseSummary(status: status, reason: "", headers: [], body: body)) }
        #expect(RefusalAdvice.lines(for: refused(422), parameters: Self.parameters) == ["the service refused 'limit' (query.limit): too small"])
        #expect(RefusalAdvice.lines(for: refused(401), parameters: Self.parameters) == [])
        #expect(RefusalAdvice.lines(for: APIError.cancelled(request), parameters: Self.parameters) == [])
    }
}
