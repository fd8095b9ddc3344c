import APIScript
import Foundation
import Testing
import TypistCore
@testable import TypistOpenAPI

/// One model per shape, named by what its uses share, and a document's defaults filling absent
/// keys — the same at the prompt, in the document cache and in the generated Swift.
@Suite("A document's shapes and defaults")
struct DocumentShapeTests {
    private static let document = DocumentReadabilityTests.document

    private static func operation(_ name: String, in document: OpenAPIDocument) throws -> SpecOperation {
        try #require(document.operations.first { $0.name == name })
    }

    @Test("Inline objects of one shape are one record, named by the words their uses share")
    func oneRecordPerShape() throws {
        let document = try OpenAPIDocument(text: Self.document, name: "buckets.yaml")
        let get = try Self.operation("getBucket", in: document).responseType
        let update = try Self.operation("updateBucket", in: document).responseType
        #expect(get == update)
        #expect(get.description == "Bucket")
        guard case .record(let bucket) = get else { Issue.record("\(get)"); return }
        #expect(bucket.fields.map { "\($0.name): \($0.type)" } == ["data: BucketData?", "permissions: BucketPermissions?"])
        // The list's elements are the one answer's `data`: `Buckets` and `Bucket` are one word here.
        let list = try Self.operation("getBuckets", in: document).responseType
        guard case .record(let page) = list else { Issue.record("\(list)"); return }
        #expect(page.fields.first?.type.description == "[BucketData]")
        #expect(document.recordTypes.filter { $0.name.contains("Response") }.map(\.name) == ["GetBucketsResponse", "BatchResponse", "BatchResponseItem"],
                "\(document.recordTypes.map(\.name))")
    }

    @Test("An inline object of a named schema's shape is that schema's type")
    func namedShape() throws {
        let text = """
            openapi: 3.0.3
            paths:
              /labels:
                get:
                  operationId: getLabels
                  responses:
                    "200": {description: all, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Label"}}}}}
              /issue:
                get:
                  operationId: getIssue
                  responses:
                    "200":
                      description: one
                      content:
                        application/json:
                          schema: {type: object, properties: {labels: {type: array, items: {type: object, properties: {name: {type: string}}}}}}
            components:
              schemas:
                Label: {type: object, properties: {name: {type: string}}}
            """
        let document = try OpenAPIDocument(text: text, name: "labels.yaml")
        guard case .record(let issue) = try Self.operation("getIssue", in: document).responseType else { Issue.record("not a record"); return }
        #expect(issue.fields.first?.type.description == "[Label]?")
        #expect(!document.recordTypes.contains { $0.name.contains("Labels") || $0.name.contains("LabelItem") }, "\(document.recordTypes.map(\.name))")
    }

    @Test("Names from shared words: singular beside plural, the generic words last, fields where nothing else is shared")
    func commonNames() {
        #expect(SchemaTypes.commonNames(of: ["GetBucketResponsePermissions", "CreateBucketBodyPermissions"], fields: ["read"])
            == ["BucketPermissions", "BucketPermissions"])
        #expect(SchemaTypes.commonNames(of: ["GetBucketsResponseDataItem", "GetBucketResponseData", "CreateBucketResponseData"], fields: ["id"])
            == ["BucketData", "BucketResponseData"])
        #expect(SchemaTypes.commonNames(of: ["ListPermissions", "GetPermissions"], fields: ["read"]) == ["Permissions", "Permissions", "ListOrGetPermissions"])
        #expect(SchemaTypes.commonNames(of: ["DeleteBucketsResponse", "GetRecordsResponse"], fields: ["data"]) == ["DataResponse"])
        #expect(SchemaTypes.commonNames(of: ["Alpha", "Beta"], fields: ["data"]).isEmpty)
        #expect(SchemaTypes.commonNames(of: ["PullRequestSimpleHead", "PullRequestSimpleBase"], fields: ["label"])
            == ["PullRequestSimple", "PullRequestSimple", "PullRequestSimpleHeadOrBase"])
    }

    @Test("A default fills an absent key: the field is not optional, at the prompt and after the cache")
    func defaults() async throws {
        try await withTemporaryFolder("typist-defaults") { folder in
            let path = folder.appendingPathComponent("buckets.yaml").path
            try Self.document.write(toFile: path, atomically: true, encoding: .utf8)
            let cache = folder.appendingPathComponent("cache")
            for _ in 0..<2 {
                // Read, then read back from the cache.
                let document = try await OpenAPIDocument.load(path, cacheDirectory: cache)
                let type = try Self.operation("getBuckets", in: document).responseType
                guard case .record(let page) = type, let data = page.fields.first else { Issue.record("\(type)"); return }
                #expect(data.type.description == "[BucketData]")
                #expect(data.defaultValue == .array([]))
                guard case .record(let record) = try ModelConformance.conform(.dictionary([:]), to: type) else {
                    Issue.record("not a record")
                    return
                }
                #expect(record.value(at: 0) == .array([]))
                #expect(ModelConformance.departures(.dictionary([:]), from: type, limit: 5).isEmpty)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).contains { $0.hasSuffix(".json") })
        }
    }

    @Test("A body field with a default may be left out; :describe shows an answer's default")
    func defaultsAtThePrompt() async throws {
        let output = CapturedOutput()
        let shell = try documentShell(try OpenAPIDocument(text: Self.document, name: "buckets.yaml"), output: output)
        #expect(await shell.handle(":describe updateBucket"))
        #expect(output.standard.contains("tags: [String]? = nil"), "\(output.standard)")
        output.clear()
        #expect(await shell.handle(":describe getBuckets"))
        #expect(output.standard.contains("    data: [BucketData] = []\n"), "\(output.standard)")
        // Typed without `!`.
        output.clear()
        #expect(await shell.handle(":type getBuckets().data.count"))
        #expect(output.standard == "Int\n", "\(output.standard)")
    }

    @Test("generate writes one file per shape, reads a default with ?? and the Swift type-checks")
    func generated() async throws {
        let files = SwiftGenerator(document: try OpenAPIDocument(text: Self.document, name: "buckets.yaml")).files()
        let models = Set(files.map(\.path).filter { $0.hasPrefix("Models/") })
        for name in ["Bucket", "BucketData", "BucketPermissions", "GetBucketsResponse"] {
            #expect(models.contains("Models/\(name).swift"), "\(models.sorted())")
        }
        #expect(!models.contains { $0.contains("UpdateBucketResponse") || $0.contains("GetBucketResponse") }, "\(models.sorted())")
        let page = try #require(files.first { $0.path == "Models/GetBucketsResponse.swift" }).text
        #expect(page.contains("public var data: [BucketData]\n"), "\(page)")
        #expect(page.contains("public init(data: [BucketData] = [])"), "\(page)")
        #expect(page.contains("data = try container.decodeIfPresent([BucketData].self, forKey: .data) ?? []"), "\(page)")
        try await withTemporaryFolder("typist-shapes") { folder in
            for file in files {
                let url = folder.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.text.write(to: url, atomically: true, encoding: .utf8)
            }
            let checked = try await GenerateTests.typecheck(folder: folder)
            #expect(checked.status == 0, "\(checked.output)")
        }
    }
}
