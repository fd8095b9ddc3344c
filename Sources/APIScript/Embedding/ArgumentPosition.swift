/// Where a cursor stands at the start of an argument (after `(` or `,` of a call) or of its value
/// (after `label:`): the function called, the labels its arguments so far were given, and the
/// label whose value comes next; read from the text before the cursor (strings and nested
/// brackets skipped, as an unfinished input does not parse).
struct ArgumentPosition: Equatable {
    /// The called name, such as `getRecords`.
    var callee: String
    /// The labels of the arguments before this one, in order.
    var labels: [String]
    /// The label just written, whose value the cursor is at (`bucketId: ` + Tab); `nil` at an
    /// argument's start.
    var valueOf: String?

    /// `nil` unless the text ends with `(`, `,` or `label:` (and spaces) directly inside a call's
    /// parentheses.
    init?(before text: String) {
        let scalars = Array(text.unicodeScalars)
        guard let last = scalars.last(where: { $0 != " " && $0 != "\t" }), last == "(" || last == "," || last == ":" else { return nil }
        // The open brackets, each with where its arguments start and the labels found in it.
        var open: [(bracket: Unicode.Scalar, start: Int, labels: [String], argumentStart: Int)] = []
        var index = 0
        var inString = false
        while index < scalars.count {
            let scalar = scalars[index]
            if inString {
                if scalar == "\\" { index += 2; continue }
                if scalar == "\"" { inString = false }
                index += 1
                continue
            }
            switch scalar {
            case "\"": inString = true
            case "(", "[", "{": open.append((scalar, index, [], index + 1))
            case ")", "]", "}": if !open.isEmpty { open.removeLast() }
            case ",":
                if let top = open.indices.last {
                    if let label = Self.label(in: scalars[open[top].argumentStart..<index]) { open[top].labels.append(label) }
                    open[top].argumentStart = index + 1
                }
            default: break
            }
            index += 1
        }
        guard !inString, let call = open.last, call.bracket == "(" else { return nil }
        var nameEnd = call.start
        while nameEnd > 0, scalars[nameEnd - 1] == " " { nameEnd -= 1 }
        var nameStart = nameEnd
        while nameStart > 0, Self.isNameScalar(scalars[nameStart - 1]) { nameStart -= 1 }
        guard nameStart < nameEnd else { return nil }
        callee = String(String.UnicodeScalarView(scalars[nameStart..<nameEnd]))
        labels = call.labels
        if last == ":" {
            // Only `label:` and spaces since the argument began: its value comes next.
            let argument = scalars[call.argumentStart...]
            guard let label = Self.label(in: argument),
                argument.drop(while: { $0 != ":" }).dropFirst().allSatisfy({ $0 == " " || $0 == "\t" })
            else { return nil }
            valueOf = label
        }
    }

    /// The label an argument's text starts with (`bucketId: "b"` → `bucketId`), if any.
    private static func label(in argument: ArraySlice<Unicode.Scalar>) -> String? {
        let trimmed = argument.drop { $0 == " " || $0 == "\n" || $0 == "\t" }
        let name = trimmed.prefix { isNameScalar($0) }
        guard !name.isEmpty, trimmed.dropFirst(name.count).drop(while: { $0 == " " }).first == ":" else { return nil }
        return String(String.UnicodeScalarView(name))
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }
}
