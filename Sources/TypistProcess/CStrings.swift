#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings as the null-terminated array of C strings `argv` and `envp` are.
enum CStrings {
    /// Runs `body` with `strings` as C strings followed by a null pointer.
    static func with<T>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws -> T) rethrows -> T {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() { table[index] = strdup(string) }
        table[strings.count] = nil
        defer {
            for index in 0..<strings.count { free(table[index]) }
            table.deallocate()
        }
        return try body(table)
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
