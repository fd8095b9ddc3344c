import APIScript
import Foundation
import TypedAPI

/// A file as scripts hold it: `file("cat.png")` makes one; an endpoint that takes an
/// ``UploadFile`` (a multipart field, a binary body) is passed one. A host registers such an
/// endpoint with `Parameter<UploadFile>("photo")`.
extension UploadFile: ScriptArgument {
    /// `UploadFile(filename: String, contentType: String, bytes: Bytes)`.
    package static let recordType = RecordType(name: "UploadFile", fields: [
        .init("filename", .string), .init("contentType", .string), .init("bytes", .bytes),
    ])

    public static var scriptType: ScriptType { .record(recordType) }

    public static func fromScript(_ value: Value) throws(ArgumentConversionError) -> UploadFile {
        guard case .record(let record) = value, record.type.name == recordType.name,
              case .string(let filename)? = record.value(at: 0), case .string(let contentType)? = record.value(at: 1),
              case .bytes(let bytes)? = record.value(at: 2)
        else { throw ArgumentConversionError("\(ValueFormatter.literal(value)) is not a file; write file(\"path\")") }
        return UploadFile(filename: filename, contentType: contentType, data: Data(bytes))
    }

    public var scriptValue: Value {
        .record(Record(type: Self.recordType, values: [.string(filename), .string(contentType), .bytes([UInt8](data))]))
    }
}

extension MultipartPart {
    /// A script value as one part of a multipart body: an `UploadFile` as its file, a field's text
    /// as `text` writes it (in `textType`, when the document gives one), anything else as JSON.
    ///
    /// - Parameter index: The argument's position, for the error of a value that is not a file.
    package static func fromScript(_ name: String, _ value: Value, text: (Value) -> String?, textType: String? = nil,
                                   argument index: Int) throws -> MultipartPart {
        if case .record(let record) = value, record.type == UploadFile.recordType {
            do throws(ArgumentConversionError) {
                return .file(name, try UploadFile.fromScript(value))
            } catch {
                throw ArgumentError(index: index, message: error.message)
            }
        }
        if let field = text(value) { return .text(name, field, contentType: textType) }
        return .text(name, String(decoding: try JSONWriter.data(value), as: UTF8.self), contentType: textType ?? "application/json")
    }
}
