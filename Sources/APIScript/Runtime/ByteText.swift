/// Text made from ``Value/bytes(_:)``: how bytes print, and their `base64`, `hex` and `utf8` views.
package enum ByteText {
    /// Bytes shown before the ellipsis when a value prints.
    public static let shownBytes = 8

    /// `<64 bytes: 1f8b0800…>`: the count and the first ``shownBytes`` in hexadecimal.
    public static func summary(_ bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "<0 bytes>" }
        let shown = hex(bytes.prefix(shownBytes))
        return "<\(count(bytes.count)): \(shown)\(bytes.count > shownBytes ? "…" : "")>"
    }

    /// "1 byte", "64 bytes".
    static func count(_ count: Int) -> String {
        "\(count) byte\(count == 1 ? "" : "s")"
    }

    /// Lowercase hexadecimal, two digits a byte.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Base64 with padding (RFC 4648 §4), as Foundation's `base64EncodedString()` gives it.
    public static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var text = [UInt8]()
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = bytes[index]
            let b1 = index + 1 < bytes.count ? bytes[index + 1] : 0
            let b2 = index + 2 < bytes.count ? bytes[index + 2] : 0
            text.append(alphabet[Int(b0 >> 2)])
            text.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            text.append(index + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            text.append(index + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes as UTF-8 text, or `nil` when they are not valid UTF-8 (never a lossy repair).
    public static func utf8(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)
    }
}
