import APIScript
import TypistCore

/// One query or mutation, typed against its schema: a script function whose labels are its
/// variables and whose result is a record typed from its selection set.
package struct GraphQLOperation: Sendable {
    /// A variable, as a parameter.
    package struct Variable: Sendable {
        package var name: String
        package var type: GraphQLSchemaModel.TypeReference
        /// Its default as written in the operation, when it has one.
        package var defaultValue: String?
        /// What scripts pass: `T?` (left out: not sent) where the variable is nullable or has a default.
        package var scriptType: ScriptType
        /// An enum's values, when its type is one (or a list of one, its elements never null).
        package var enumeration: HostEnumeration?
        /// The values its enum allows — its own, or its elements' in a list (`[IssueState!]`) —
        /// checked before the operation is sent; nil for a type that is no enum.
        package var allowed: [String]?

        /// Why `value` is not one the variable's enum allows, or nil.
        package func violation(of value: Value) -> String? {
            guard let allowed else { return nil }
            switch value {
            case .null: return nil
            case .string(let text) where allowed.contains(text): return nil
            case .array(let elements): return elements.lazy.compactMap(violation).first
            default:
                return "\(name) is one of " + allowed.map { "\"\($0)\"" }.joined(separator: ", ") + ", not \(ValueFormatter.literal(value))"
            }
        }

        /// Whether a call may leave it out.
        package var isOptional: Bool { type.isNullable || defaultValue != nil }

        /// Whether scripts write an enum's cases for a variable of this type: an enum, or a list
        /// of it whose elements are never null (`[IssueState!]`), written `[.OPEN, .CLOSED]`.
        package static func takesCases(_ reference: GraphQLSchemaModel.TypeReference) -> Bool {
            switch strippingNonNull(reference) {
            case .named, .list(.nonNull(.named)): return true
            default: return false
            }
        }

        /// Whether it is a list whose elements take an enum's cases (`[IssueState!]`).
        package var isEnumList: Bool {
            guard enumeration != nil else { return false }
            if case .list = GraphQLOperation.Variable.strippingNonNull(type) { return true }
            return false
        }

        /// Its Swift type when it takes an enum's cases: `IssueState`, `[IssueState]?`; nil otherwise.
        package var enumSwiftType: String? { enumeration.map { enumSwiftType(named: $0.typeName) } }

        /// The same with the enum declared under another name (generated Swift's `Error2`).
        package func enumSwiftType(named name: String) -> String {
            (isEnumList ? "[\(name)]" : name) + (isOptional ? "?" : "")
        }

        private static func strippingNonNull(_ reference: GraphQLSchemaModel.TypeReference) -> GraphQLSchemaModel.TypeReference {
            if case .nonNull(let wrapped) = reference { return wrapped }
            return reference
        }
    }

    /// The operation's name (`Repository`), nil for an anonymous one.
    package var name: String?
    package var kind: GraphQLSchemaModel.OperationKind
    /// The script function's name: `repository`.
    package var functionName: String
    package var variables: [Variable]
    /// A record with one field per root field selected.
    package var resultType: ScriptType
    /// Every record type its result uses, the root's first.
    package var recordTypes: [RecordType]
    /// The text sent: the operation and every fragment it spreads, as GraphQL prints them.
    package var document: String
    /// The variable a Relay connection's `after:` takes, when the selection asks for its
    /// `pageInfo`: `pages { … }` sends the last page's `endCursor` in it.
    package var cursorVariable: String?
    /// Its root fields with their descriptions, for `:describe` and help.
    package var summary: String
    /// Where it starts in its text.
    package var line: Int
    /// Why a script should not use fields it selects, said once as a warning where it is called.
    package var deprecations: [String]
    /// The fragments each of its records spreads where they always apply, by record name.
    package var spreads: [String: [String]] = [:]
    /// The fragments it uses, each typed on its own: what generated Swift shares between operations.
    package var fragments: [Fragment] = []

    /// A fragment as a type of its own (`fragment IssueParts on Issue { … }` → `IssueParts`).
    package struct Fragment: Sendable {
        /// Its name in GraphQL.
        package var name: String
        package var type: RecordType
        /// The fragments its own records spread, by record name.
        package var spreads: [String: [String]]
    }
}
