import Foundation

/// A response body, kept by the records read from it for their string fields (see ``RecordFields``).
final class ResponseText: RecordText {
    private let body: Data

    init(_ body: Data) {
        self.body = body
    }

    func string(at offset: Int, count: Int) -> String {
        body.withUnsafeBytes { bytes in
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
        }
    }
}
