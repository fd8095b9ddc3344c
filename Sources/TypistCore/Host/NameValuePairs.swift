/// `name=value` words, as `--server-var` and `:openapi … --server-var` take them.
package enum NameValuePairs {
    /// A word that is not `name=value`, with how to write it.
    package struct Malformed: Error, CustomStringConvertible {
        package var description: String
    }

    /// `words` as a dictionary; one without `=` is an error that says how to write it.
    package static func parse(_ words: [String], option: String) throws(Malformed) -> [String: String] {
        var values: [String: String] = [:]
        for word in words {
            guard let (name, value) = pair(word) else {
                throw Malformed(description: "\(option) takes name=value, such as \(option) hostname=github.example.com; not '\(word)'")
            }
            values[name] = value
        }
        return values
    }

    /// `name=value` split at its first `=`; `nil` without one, or with no name before it.
    package static func pair(_ word: String) -> (name: String, value: String)? {
        guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return nil }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}
