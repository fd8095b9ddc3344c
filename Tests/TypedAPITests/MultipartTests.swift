import Foundation
import Testing
@testable import TypedAPI

@Suite("multipart/form-data bodies")
struct MultipartTests {
    @Test("Parts are written as RFC 7578 has them, with a random boundary")
    func layout() throws {
        let body = RequestBody.multipart([.text("name", "Ada"), .file("photo", UploadFile(filename: "a.png", data: Data([0, 1, 2])))])
        let data = try body.encoded(defaultEncoder: JSONEncoder())
        let boundary = try #require(MultipartEncoding.boundary(inContentType: body.contentType))
        #expect(body.contentType == "multipart/form-data; boundary=\(boundary)")
        let expected = "--\(boundary)\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAda\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n"
        var wanted = Data(expected.utf8)
        wanted.append(contentsOf: [0, 1, 2])
        wanted.append(contentsOf: Array("\r\n--\(boundary)--\r\n".utf8))
        #expect(data == wanted)
        // Random, not a hash of the parts (which may hold a password): the same parts get another.
        #expect(RequestBody.multipart([.text("name", "Ada"), .file("photo", UploadFile(filename: "a.png", data: Data([0, 1, 2])))])
            .contentType != body.contentType)
        #expect(boundary.count == "typist-".count + 16)
    }

    @Test("A part that holds the boundary gets another one")
    func boundaryInContent() throws {
        #expect(MultipartEncoding.boundary(for: [.text("a", "x")], base: "b0") == "b0")
        #expect(MultipartEncoding.boundary(for: [.text("a", "x"), .text("c", "..b0..")], base: "b0") == "b0-1")
        #expect(MultipartEncoding.boundary(for: [.text("a", "b0"), .text("c", "b0-1")], base: "b0") == "b0-2")
    }

    @Test("Names with quotes and line breaks are escaped, and read back")
    func escapingRoundTrip() throws {
        let parts: [MultipartPart] = [
            .text("a \"b\"\r\nc", ""),
            .file("file", UploadFile(filename: "x\".bin", contentType: "application/octet-stream", data: Data([13, 10, 45, 45]))),
            .text("json", "[1]", contentType: "application/json"),
        ]
        let (contentType, data) = MultipartEncoding.encoded(parts)
        #expect(!String(decoding: data, as: UTF8.self).contains("a \"b\""))
        let boundary = try #require(MultipartEncoding.boundary(inContentType: contentType))
        #expect(MultipartEncoding.parts(of: data, boundary: boundary) == parts)
        #expect(MultipartEncoding.parts(of: Data("nonsense".utf8), boundary: boundary) == nil)
        #expect(MultipartEncoding.parts(of: Data("--\(boundary)\r\nno end".utf8), boundary: boundary) == nil)
        #expect(MultipartEncoding.parts(of: Data("--\(boundary)".utf8), boundary: boundary) == nil)
        #expect(MultipartEncoding.boundary(inContentType: "multipart/form-data; boundary=\"q r\"") == "q r")
        #expect(MultipartEncoding.boundary(inContentType: "application/json") == nil)
    }

    @Test("A file's type comes from its name's extension")
    func contentTypes() {
        #expect(UploadFile.contentType(forFilename: "Report.PDF") == "application/pdf")
        #expect(UploadFile.contentType(forFilename: "speech.mp3") == "audio/mpeg")
        #expect(UploadFile.contentType(forFilename: ".bashrc") == "application/octet-stream")
        #expect(UploadFile.contentType(forFilename: "archive") == "application/octet-stream")
        #expect(UploadFile(filename: "a.txt", contentType: "text/x-own", data: Data()).contentType == "text/x-own")
    }
}
