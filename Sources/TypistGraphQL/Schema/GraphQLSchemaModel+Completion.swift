extension GraphQLSchemaModel {
    /// The fields Tab offers at the end of `text`, an operation being written: those of the type
    /// whose selection set the text ends in, that start with the word it ends with (`rep` in
    /// `{ rep`), with `__typename`; a union offers its members as `... on Member`. Empty outside
    /// a selection set (in arguments, before the first `{`).
    package func fieldCompletions(endingAt text: String) -> [String] {
        var stack: [String?] = []
        var operation = "query"
        var lastName: String?
        var previousWasOn = false
        var fragmentType: String?
        var parentheses = 0
        var tokens = GraphQLTokens(text)
        var partial = ""
        while let next = tokens.next() {
            let token = next.text
            partial = ""
            if parentheses > 0 {
                if token == "(" { parentheses += 1 } else if token == ")" { parentheses -= 1 }
                continue
            }
            switch token {
            case "(": parentheses = 1
            case "{":
                if stack.isEmpty {
                    let root: String? = switch operation {
                    case "mutation": mutationType
                    case "subscription": subscriptionType
                    case "fragment": fragmentType
                    default: queryType
                    }
                    stack.append(root)
                } else if let fragmentType, previousWasOn {
                    stack.append(fragmentType)
                } else {
                    let parent = stack.last.flatMap { $0 }.flatMap { types[$0] }
                    stack.append(lastName.flatMap { parent?.field(named: $0)?.type.namedType })
                }
                lastName = nil
                fragmentType = nil
            case "}":
                _ = stack.popLast()
                lastName = nil
            default:
                guard let first = token.first, first == "_" || first.isLetter else { continue }
                if stack.isEmpty, ["query", "mutation", "subscription", "fragment"].contains(token), lastName == nil {
                    operation = token
                } else if previousWasOn {
                    fragmentType = token
                } else if token != "on" {
                    lastName = token
                }
                partial = tokens.atEnd ? token : ""
            }
            previousWasOn = token == "on"
        }
        guard parentheses == 0, let current = stack.last, let name = current, let type = types[name] else { return [] }
        var names = type.fields.map(\.name) + ["__typename"]
        if type.kind == .union || type.kind == .interface { names += type.possibleTypes.map { "... on \($0)" } }
        return names.filter { $0.hasPrefix(partial) && $0 != partial }.sorted()
    }
}
