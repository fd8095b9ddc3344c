/// Whether bytes are UTF-8 text, for every reader of ours that must know (the stream framings,
/// the tape decoder, the JSON readers' escaped strings): ASCII, the usual case, eight bytes at a
/// time; a scalar-by-scalar check past the first byte that is not.
package enum UTF8Check {
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        isValid(UnsafeRawBufferPointer(bytes))
    }

    package static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !isASCII(bytes) else { return true }
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        isASCII(UnsafeRawBufferPointer(bytes))
    }

    package static func isASCII(_ raw: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 8 <= raw.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < raw.count {
            if raw[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}
