#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings as the null-terminated array of C strings `argv` and `envp` are.
enum CStrings {
    /// Runs `body` with `strings` as C strings followed by a null pointer.
    static func with<T>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws -> T) rethrows -> T {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return try pointers.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress else { preconditionFailure("an array of at least one element has storage") }
            return try body(start)
        }
    }

    /// This process's environment, as `NAME=value` strings.
    static func environment() -> [String] {
        var settings: [String] = []
        let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var entry = table else { return settings }
        while let setting = entry.pointee {
            settings.append(String(cString: setting))
            entry += 1
        }
        return settings
    }
}
