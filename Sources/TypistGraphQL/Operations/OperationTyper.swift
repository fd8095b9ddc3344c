import APIScript
import TypistCore
import TypistText
#if GraphQL
import GraphQL
#endif

/// Reads a text of GraphQL operations (a `.graphql` file, an inline query) against a schema: checks
/// it by the GraphQL specification's rules (GraphQLSwift's validation), and types each query and
/// mutation from its selection set. Without the package's `GraphQL` trait it reads nothing.
package struct OperationTyper {
    let schema: GraphQLSchemaModel
    /// GraphQLSwift's schema, built when first needed (validation).
    let validator: SchemaValidator

    package init(schema: GraphQLSchemaModel, validator: SchemaValidator) {
        self.schema = schema
        self.validator = validator
    }
}

#if GraphQL
extension OperationTyper {
    /// The operations of `text`, and its warnings (deprecated fields).
    ///
    /// - Parameter anonymousName: The function name of an operation without a name (an inline query's).
    /// - Throws: ``GraphQLProblems``: every error of the text, each at its place.
    /// - Parameter validated: Whether this text was found valid against this schema before (the
    ///   cache says so): the specification's rules are not checked again, which would build
    ///   GraphQLSwift's schema (most of a large schema's start).
    package func operations(in text: String, name: String, anonymousName: String = "graphql", validated: Bool = false) throws(GraphQLProblems)
        -> (operations: [GraphQLOperation], warnings: [GraphQLProblem]) {
        if let tooDeep = GraphQLNesting.problem(in: text) { throw GraphQLProblems(problems: [tooDeep], name: name) }
        let document: Document
        do {
            document = try parse(source: Source(body: text, name: name))
        } catch let error as GraphQLError {
            throw GraphQLProblems(problems: [GraphQLProblem(error)], name: name)
        } catch {
            throw GraphQLProblems(problems: [GraphQLProblem(message: "\(error)", line: 0, column: 0)], name: name)
        }
        var problems: [GraphQLProblem] = []
        do {
            if !validated { problems = try validator.validate(document) }
        } catch {
            throw GraphQLProblems(problems: [GraphQLProblem(message: "the schema cannot check operations: \(error)", line: 0, column: 0)], name: name)
        }
        var fragments: [String: FragmentDefinition] = [:]
        var definitions: [OperationDefinition] = []
        for definition in document.definitions {
            if let fragment = definition as? FragmentDefinition { fragments[fragment.name.value] = fragment }
            if let operation = definition as? OperationDefinition { definitions.append(operation) }
        }
        if definitions.isEmpty {
            problems.append(GraphQLProblem(message: "the text has no query or mutation", line: 1, column: 1))
        }
        var operations: [GraphQLOperation] = []
        var warnings: [GraphQLProblem] = []
        if !problems.contains(where: { !$0.isWarning }) {
            for definition in definitions {
                let place = Self.place(definition.loc)
                if definition.operation == .subscription {
                    problems.append(GraphQLProblem(
                        message: "subscriptions are not supported: Typist sends queries and mutations (a subscription needs a "
                            + "WebSocket or GraphQL-over-SSE session it does not keep)", line: place.line, column: place.column))
                    continue
                }
                var reading = SelectionReader(schema: schema, fragments: fragments)
                let operation = reading.operation(definition, anonymousName: anonymousName)
                warnings += reading.warnings
                operations.append(operation)
            }
        }
        let errors = problems.filter { !$0.isWarning }
        if !errors.isEmpty { throw GraphQLProblems(problems: errors, name: name) }
        return (operations, warnings)
    }

    /// The line and column a node starts at.
    static func place(_ location: Location?) -> (line: Int, column: Int) {
        guard let location else { return (0, 0) }
        return (location.startToken.line, location.startToken.column)
    }
}

/// Types one operation's selection sets: each object a record named from its place
/// (`RepositoryQuery.Repository.Issues`), fragments merged in, a field that only a fragment on a
/// narrower type selects optional.
struct SelectionReader {
    let schema: GraphQLSchemaModel
    let fragments: [String: FragmentDefinition]
    var records: [RecordType] = []
    var usedFragments: [String] = []
    /// The fragments each record's selection spreads where they always apply, by the record's
    /// name: generated Swift gives the record a property of each fragment's own type.
    var spreads: [String: [String]] = [:]
    var cursorVariable: String?
    var warnings: [GraphQLProblem] = []
    var deprecations: [String] = []
    private var names: Set<String> = []

    init(schema: GraphQLSchemaModel, fragments: [String: FragmentDefinition]) {
        self.schema = schema
        self.fragments = fragments
    }

    mutating func operation(_ definition: OperationDefinition, anonymousName: String) -> GraphQLOperation {
        let kind: GraphQLSchemaModel.OperationKind = definition.operation == .mutation ? .mutation : .query
        let rootName = kind == .mutation ? schema.mutationType ?? "Mutation" : schema.queryType ?? "Query"
        let operationName = definition.name?.value
        let functionName = operationName.map { SwiftNames.property($0) } ?? anonymousName
        let suffix = kind == .mutation ? "Mutation" : "Query"
        var typeName = SwiftNames.type(operationName ?? anonymousName)
        if !typeName.hasSuffix(suffix) { typeName += suffix }
        let resultType = record(named: typeName, on: rootName, [definition.selectionSet], depth: 0)
        let variables = definition.variableDefinitions.map { variable(of: $0, operation: typeName) }
        var document = print(ast: definition)
        var printed: Set<String> = []
        for fragment in usedFragments where printed.insert(fragment).inserted {
            if let definition = fragments[fragment] { document += "\n" + print(ast: definition) }
        }
        let roots = schema.types[rootName].map { root in
            definition.selectionSet.selections.compactMap { ($0 as? Field)?.name.value }.compactMap { root.field(named: $0) }
        } ?? []
        let summary = roots.map { field in
            "\(field.name): \(field.type)" + (field.description.map { " — " + Self.firstLine($0) } ?? "")
        }.joined(separator: "; ")
        // Each fragment it uses, typed on its own (for the Swift generate writes: one type per fragment).
        let fragmentTypes = usedFragments.compactMap { name -> GraphQLOperation.Fragment? in
            guard let fragment = fragments[name] else { return nil }
            var reader = SelectionReader(schema: schema, fragments: fragments)
            guard case .record(let type) = reader.record(named: SwiftNames.type(name), on: fragment.typeCondition.name.value,
                                                         [fragment.selectionSet], depth: 0) else { return nil }
            return GraphQLOperation.Fragment(name: name, type: type, spreads: reader.spreads)
        }
        return GraphQLOperation(
            name: operationName, kind: kind, functionName: functionName, variables: variables, resultType: resultType,
            recordTypes: records, document: document, cursorVariable: cursorVariable,
            summary: "GraphQL \(kind.rawValue)" + (summary.isEmpty ? "" : ": " + summary),
            line: OperationTyper.place(definition.loc).line, deprecations: deprecations, spreads: spreads, fragments: fragmentTypes)
    }

    private func variable(of definition: VariableDefinition, operation: String) -> GraphQLOperation.Variable {
        let reference = GraphQLSchemaModel.TypeReference(definition.type)
        let defaultValue = definition.defaultValue.map { print(ast: $0) }
        var type = inputType(reference)
        if defaultValue != nil { type = type.optional }
        var enumeration: HostEnumeration?
        // An enum, or a list of it whose elements are never null (`[IssueState!]`): its cases.
        if let named = schema.types[reference.namedType], named.kind == .enumeration,
           GraphQLOperation.Variable.takesCases(reference) {
            enumeration = HostEnumeration(typeName: named.name, cases: named.enumValues.map { .init(name: $0.name, value: .string($0.name)) })
        }
        let allowed = schema.types[reference.namedType].flatMap { $0.kind == .enumeration ? $0.enumValues.map(\.name) : nil }
        return .init(name: definition.variable.name.value, type: reference, defaultValue: defaultValue, scriptType: type, enumeration: enumeration,
                     allowed: allowed)
    }

    /// What a script passes for a value of an input type.
    private func inputType(_ reference: GraphQLSchemaModel.TypeReference) -> ScriptType {
        switch reference {
        case .nonNull(let inner): return inputType(inner).unwrapped
        case .list(let inner): return .optional(.array(inputType(inner)))
        case .named(let name):
            guard let type = schema.types[name] else { return .optional(.any) }
            switch type.kind {
            case .scalar: return .optional(GraphQLScalars.scriptType(name))
            case .enumeration: return .optional(.string)
            default: return .optional(.any)  // an input object: written as a dictionary
            }
        }
    }

    // MARK: Selections

    /// One response key's field, from every selection of it.
    private struct Collected {
        var key: String
        var definition: GraphQLSchemaModel.Field?
        var selectionSets: [SelectionSet] = []
        /// Whether only fragments on a narrower type than the parent's select it.
        var conditional: Bool
    }

    fileprivate mutating func record(named name: String, on parent: String, _ selectionSets: [SelectionSet], depth: Int) -> ScriptType {
        var taken = names
        let typeName = SwiftNames.uniqueType(name, taken: &taken)
        names = taken
        let record = RecordType(name: typeName)
        records.append(record)
        var collected: [Collected] = []
        var spread: [String] = []
        for selectionSet in selectionSets {
            collect(selectionSet, on: parent, conditional: false, into: &collected, spreads: &spread, depth: depth)
        }
        if !spread.isEmpty { spreads[typeName] = spread }
        var fields: [RecordType.Field] = []
        for entry in collected {
            var type: ScriptType
            if entry.key == "__typename" || entry.definition?.name == "__typename" {
                type = .string
            } else if let definition = entry.definition {
                // A list's element is named in the singular (`nodes` → `Node`), anything else as it is.
                let isList = if case .list = SelectionReader.stripNonNull(definition.type) { true } else { false }
                let element = SwiftNames.type(isList ? SwiftNames.singular(entry.key) : entry.key)
                type = fieldType(definition.type, path: typeName + "." + element, entry.selectionSets, depth: depth + 1)
            } else {
                type = .any
            }
            if entry.conditional { type = type.optional }
            fields.append(.init(entry.key, type))
        }
        record.define(fields)
        return .record(record)
    }

    private mutating func fieldType(_ reference: GraphQLSchemaModel.TypeReference, path: String, _ selectionSets: [SelectionSet],
                                    depth: Int) -> ScriptType {
        switch reference {
        case .nonNull(let inner): return fieldType(inner, path: path, selectionSets, depth: depth).unwrapped
        case .list(let inner): return .optional(.array(fieldType(inner, path: path, selectionSets, depth: depth)))
        case .named(let name):
            guard let type = schema.types[name] else { return .optional(.any) }
            switch type.kind {
            case .scalar: return .optional(GraphQLScalars.scriptType(name))
            case .enumeration: return .optional(.string)
            case .object, .interface, .union:
                guard depth < 64, !selectionSets.isEmpty else { return .optional(.any) }
                return .optional(record(named: path, on: name, selectionSets, depth: depth))
            case .inputObject: return .optional(.any)
            }
        }
    }

    /// - Parameter spreads: The fragments spread here that always apply (not inside another
    ///   fragment, nor under a narrower type), in order.
    private mutating func collect(_ selectionSet: SelectionSet, on parent: String, conditional: Bool, into collected: inout [Collected],
                                  spreads: inout [String], depth: Int, visiting: Set<String> = []) {
        let parentType = schema.types[parent]
        for selection in selectionSet.selections {
            switch selection {
            case let field as Field:
                let key = field.alias?.value ?? field.name.value
                let definition = parentType?.field(named: field.name.value)
                if let definition { note(field, definition, parent: parent) }
                if let index = collected.firstIndex(where: { $0.key == key }) {
                    if let set = field.selectionSet { collected[index].selectionSets.append(set) }
                    collected[index].conditional = collected[index].conditional && conditional
                    if collected[index].definition == nil { collected[index].definition = definition }
                } else {
                    collected.append(Collected(key: key, definition: definition, selectionSets: field.selectionSet.map { [$0] } ?? [],
                                               conditional: conditional))
                }
            case let inline as InlineFragment:
                let condition = inline.typeCondition?.name.value ?? parent
                collect(inline.selectionSet, on: condition, conditional: conditional || narrows(parent, to: condition),
                        into: &collected, spreads: &spreads, depth: depth, visiting: visiting)
            case let spread as FragmentSpread:
                let name = spread.name.value
                guard let fragment = fragments[name], !visiting.contains(name) else { continue }
                if !usedFragments.contains(name) { usedFragments.append(name) }
                let condition = fragment.typeCondition.name.value
                let narrower = conditional || narrows(parent, to: condition)
                if visiting.isEmpty, !narrower, !spreads.contains(name) { spreads.append(name) }
                var inner: [String] = []
                collect(fragment.selectionSet, on: condition, conditional: narrower,
                        into: &collected, spreads: &inner, depth: depth, visiting: visiting.union([name]))
            default:
                break
            }
        }
    }

    /// Whether a fragment on `condition` selects only for some values of `parent`.
    private func narrows(_ parent: String, to condition: String) -> Bool {
        guard parent != condition else { return false }
        let parents = schema.possibleTypes(of: parent)
        return !parents.isSubset(of: schema.possibleTypes(of: condition))
    }

    /// A deprecated field's warning; the cursor variable of a Relay connection.
    private mutating func note(_ field: Field, _ definition: GraphQLSchemaModel.Field, parent: String) {
        if let reason = definition.deprecation {
            let place = OperationTyper.place(field.name.loc)
            let text = "\(parent).\(definition.name) is deprecated: \(TerminalText.sanitized(reason))"
            warnings.append(GraphQLProblem(message: text, line: place.line, column: place.column, isWarning: true))
            deprecations.append(text)
        }
        if cursorVariable == nil, let selections = field.selectionSet?.selections,
           selections.contains(where: { ($0 as? Field)?.name.value == "pageInfo" }),
           let after = field.arguments.first(where: { $0.name.value == "after" })?.value as? Variable {
            cursorVariable = after.name.value
        }
    }


    static func stripNonNull(_ reference: GraphQLSchemaModel.TypeReference) -> GraphQLSchemaModel.TypeReference {
        if case .nonNull(let inner) = reference { return inner }
        return reference
    }

    static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: true).first ?? "")
    }
}
#else
extension OperationTyper {
    /// Without the package's `GraphQL` trait there is no GraphQL parser: operations cannot be read.
    package func operations(in text: String, name: String, anonymousName: String = "graphql", validated: Bool = false) throws(GraphQLProblems)
        -> (operations: [GraphQLOperation], warnings: [GraphQLProblem]) {
        throw GraphQLProblems(problems: [GraphQLProblem(message: GraphQLSchemaError.traitOff, line: 0, column: 0)], name: name)
    }
}
#endif
