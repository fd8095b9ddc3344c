#if GraphQL
import GraphQL

extension GraphQLSchemaModel {
    /// Reads a schema written in SDL (a `.graphql` file, GitHub's `schema.graphql`).
    ///
    /// A schema that breaks a rule the service evidently lives with — GitHub's defines two fields
    /// of `EnterpriseOwnerInfo` twice — is read as it is, the first definition kept and a warning
    /// for each; GraphQLSwift and graphql-core would refuse the whole schema.
    ///
    /// - Throws: A ``GraphQLSchemaError`` with the line and column of a syntax error.
    package init(sdl text: String) throws {
        if let tooDeep = GraphQLNesting.problem(in: text) { throw GraphQLSchemaError("the schema cannot be read: \(tooDeep)") }
        let document: Document
        do {
            document = try parse(source: Source(body: text, name: "schema"), noLocation: false)
        } catch let error as GraphQLError {
            throw GraphQLSchemaError("the schema does not parse: \(GraphQLProblem.place(of: error))\(error.message)")
        }
        var reader = SDLReader()
        for definition in document.definitions { reader.read(definition) }
        guard reader.types.values.contains(where: { $0.kind == .object }) || reader.schemaRoots[.query] != nil else {
            throw GraphQLSchemaError("the text defines no object types: it is not a GraphQL schema")
        }
        let query = reader.schemaRoots[.query] ?? (reader.types["Query"] != nil ? "Query" : nil)
        let mutation = reader.schemaRoots[.mutation] ?? (reader.types["Mutation"] != nil ? "Mutation" : nil)
        let subscription = reader.schemaRoots[.subscription] ?? (reader.types["Subscription"] != nil ? "Subscription" : nil)
        self.init(types: reader.types, queryType: query, mutationType: mutation, subscriptionType: subscription,
                  warnings: reader.warnings)
    }
}

extension GraphQLSchemaModel.TypeReference {
    /// A type as GraphQLSwift's syntax tree writes it (a field's, an argument's, a variable's).
    init(_ type: any `Type`) {
        switch type {
        case let list as ListType: self = .list(.init(list.type))
        case let nonNull as NonNullType: self = .nonNull(.init(nonNull.type))
        case let named as NamedType: self = .named(named.name.value)
        default: self = .named("String")
        }
    }
}

/// Collects an SDL document's definitions and extensions into named types.
private struct SDLReader {
    var types: [String: GraphQLSchemaModel.NamedType] = [:]
    var schemaRoots: [GraphQLSchemaModel.OperationKind: String] = [:]
    var warnings: [String] = []

    mutating func read(_ definition: any Definition) {
        switch definition {
        case let schema as SchemaDefinition:
            for root in schema.operationTypes { schemaRoots[Self.kind(root.operation)] = root.type.name.value }
        case let object as ObjectTypeDefinition:
            add(object.name.value, .object, object.description, fields: object.fields, interfaces: object.interfaces)
        case let object as TypeExtensionDefinition:
            add(object.definition.name.value, .object, nil, fields: object.definition.fields, interfaces: object.definition.interfaces)
        case let interface as InterfaceTypeDefinition:
            add(interface.name.value, .interface, interface.description, fields: interface.fields, interfaces: interface.interfaces)
        case let interface as InterfaceExtensionDefinition:
            add(interface.definition.name.value, .interface, nil, fields: interface.definition.fields, interfaces: interface.definition.interfaces)
        case let union as UnionTypeDefinition:
            add(union.name.value, .union, union.description, members: union.types)
        case let union as UnionExtensionDefinition:
            add(union.definition.name.value, .union, nil, members: union.definition.types)
        case let enumeration as EnumTypeDefinition:
            add(enumeration.name.value, .enumeration, enumeration.description, values: enumeration.values)
        case let enumeration as EnumExtensionDefinition:
            add(enumeration.definition.name.value, .enumeration, nil, values: enumeration.definition.values)
        case let input as InputObjectTypeDefinition:
            add(input.name.value, .inputObject, input.description, inputFields: input.fields)
        case let input as InputObjectExtensionDefinition:
            add(input.definition.name.value, .inputObject, nil, inputFields: input.definition.fields)
        case let scalar as ScalarTypeDefinition:
            add(scalar.name.value, .scalar, scalar.description)
        default:
            break  // directives, schema extensions, and operations (not a schema's)
        }
    }

    private mutating func add(_ name: String, _ kind: GraphQLSchemaModel.Kind, _ description: StringValue?,
                              fields: [FieldDefinition] = [], interfaces: [NamedType] = [], members: [NamedType] = [],
                              values: [EnumValueDefinition] = [], inputFields: [InputValueDefinition] = []) {
        var type = types[name] ?? GraphQLSchemaModel.NamedType(name: name, kind: kind)
        if type.description == nil { type.description = description?.value }
        for field in fields {
            guard type.field(named: field.name.value) == nil else {
                warnings.append("\(name).\(field.name.value) is defined twice in the schema; the first definition is used")
                continue
            }
            type.fields.append(GraphQLSchemaModel.Field(
                name: field.name.value, type: Self.reference(field.type), arguments: field.arguments.map(Self.inputValue),
                description: field.description?.value, deprecation: Self.deprecation(field.directives)))
        }
        type.interfaces += interfaces.map(\.name.value).filter { !type.interfaces.contains($0) }
        type.possibleTypes += members.map(\.name.value).filter { !type.possibleTypes.contains($0) }
        for value in values where !type.enumValues.contains(where: { $0.name == value.name.value }) {
            type.enumValues.append(.init(name: value.name.value, description: value.description?.value,
                                         deprecation: Self.deprecation(value.directives)))
        }
        for field in inputFields where !type.inputFields.contains(where: { $0.name == field.name.value }) {
            type.inputFields.append(Self.inputValue(field))
        }
        types[name] = type
    }

    static func inputValue(_ value: InputValueDefinition) -> GraphQLSchemaModel.InputValue {
        .init(name: value.name.value, type: reference(value.type), defaultValue: value.defaultValue.map { print(ast: $0) },
              description: value.description?.value, deprecation: deprecation(value.directives))
    }

    static func reference(_ type: any `Type`) -> GraphQLSchemaModel.TypeReference { .init(type) }

    static func deprecation(_ directives: [Directive]) -> String? {
        guard let directive = directives.first(where: { $0.name.value == "deprecated" }) else { return nil }
        let reason = directive.arguments.first { $0.name.value == "reason" }?.value as? StringValue
        return reason?.value ?? "No longer supported"
    }

    static func kind(_ operation: OperationType) -> GraphQLSchemaModel.OperationKind {
        switch operation {
        case .query: .query
        case .mutation: .mutation
        case .subscription: .subscription
        }
    }
}
#else
extension GraphQLSchemaModel {
    /// Without the package's `GraphQL` trait there is no GraphQL parser: SDL cannot be read.
    package init(sdl text: String) throws {
        throw GraphQLSchemaError(GraphQLSchemaError.traitOff)
    }
}
#endif
