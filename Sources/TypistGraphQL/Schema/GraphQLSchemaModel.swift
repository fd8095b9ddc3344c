import Foundation

/// A GraphQL schema as Typist reads it: every named type with its fields, arguments, input fields,
/// enum values, descriptions and deprecations, and the root operation types.
///
/// It is read from SDL (``init(sdl:)``) or an introspection answer (``init(introspection:)``), and
/// is what operations are typed against, completion and `:describe` read, and the cache keeps.
/// GraphQLSwift's own schema, which validation needs, is built from it only when something is
/// validated (``GraphQLSchemaModel/sdl``).
package struct GraphQLSchemaModel: Sendable {
    /// A type as a field or argument writes it: `String`, `[Issue!]!`.
    package indirect enum TypeReference: Sendable, Hashable, CustomStringConvertible {
        case named(String)
        case list(TypeReference)
        case nonNull(TypeReference)

        /// The named type at its core: `Issue` of `[Issue!]!`.
        package var namedType: String {
            switch self {
            case .named(let name): name
            case .list(let inner), .nonNull(let inner): inner.namedType
            }
        }

        /// Whether a value may be left out or null.
        package var isNullable: Bool { if case .nonNull = self { false } else { true } }

        package var description: String {
            switch self {
            case .named(let name): name
            case .list(let inner): "[\(inner)]"
            case .nonNull(let inner): "\(inner)!"
            }
        }
    }

    /// What kind of type it is.
    package enum Kind: String, Sendable {
        case scalar, object, interface, union, enumeration = "enum", inputObject = "input"
    }

    /// An argument of a field, or a field of an input object.
    package struct InputValue: Sendable, Hashable {
        package var name: String
        package var type: TypeReference
        /// Its default as GraphQL writes it (`10`, `"asc"`, `ASC`), when it has one.
        package var defaultValue: String?
        package var description: String?
        package var deprecation: String?
    }

    /// A field of an object or interface type.
    package struct Field: Sendable, Hashable {
        package var name: String
        package var type: TypeReference
        package var arguments: [InputValue]
        package var description: String?
        /// Why it is deprecated (`@deprecated(reason:)`), when it is; "No longer supported" when
        /// no reason is given.
        package var deprecation: String?
    }

    /// An enum's value.
    package struct EnumValue: Sendable, Hashable {
        package var name: String
        package var description: String?
        package var deprecation: String?
    }

    /// A named type.
    package struct NamedType: Sendable {
        package var name: String
        package var kind: Kind
        package var description: String?
        /// An object's or interface's fields, in the schema's order.
        package var fields: [Field] = []
        /// An input object's fields.
        package var inputFields: [InputValue] = []
        package var enumValues: [EnumValue] = []
        /// A union's members; an interface's implementations (worked out once all types are read).
        package var possibleTypes: [String] = []
        /// The interfaces an object or interface implements.
        package var interfaces: [String] = []

        /// A field by name.
        package func field(named name: String) -> Field? { fields.first { $0.name == name } }
    }

    /// Every named type by name, built-in scalars included.
    package var types: [String: NamedType]
    package var queryType: String?
    package var mutationType: String?
    package var subscriptionType: String?
    /// What was read differently from what the schema says (a field defined twice: the first is kept).
    package var warnings: [String] = []

    /// The five scalars every schema has.
    static let builtInScalars = ["Int", "Float", "String", "Boolean", "ID"]

    init(types: [String: NamedType], queryType: String?, mutationType: String?, subscriptionType: String?, warnings: [String]) {
        var types = types
        for scalar in Self.builtInScalars where types[scalar] == nil {
            types[scalar] = NamedType(name: scalar, kind: .scalar)
        }
        // An interface's implementations, from the objects that name it.
        var implementations: [String: [String]] = [:]
        for type in types.values where type.kind == .object || type.kind == .interface {
            for interface in type.interfaces { implementations[interface, default: []].append(type.name) }
        }
        for (interface, names) in implementations where types[interface]?.kind == .interface {
            types[interface]?.possibleTypes = names.sorted()
        }
        self.types = types
        self.queryType = queryType
        self.mutationType = mutationType
        self.subscriptionType = subscriptionType
        self.warnings = warnings
    }

    /// The root type of an operation kind.
    package func rootType(_ operation: OperationKind) -> NamedType? {
        let name: String? = switch operation {
        case .query: queryType
        case .mutation: mutationType
        case .subscription: subscriptionType
        }
        return name.flatMap { types[$0] }
    }

    /// The object and interface types a value of `name` may be at run time: itself for an object.
    package func possibleTypes(of name: String) -> Set<String> {
        guard let type = types[name] else { return [] }
        switch type.kind {
        case .object: return [name]
        case .interface, .union: return Set(type.possibleTypes)
        default: return []
        }
    }

    /// The three kinds of operation.
    package enum OperationKind: String, Sendable {
        case query, mutation, subscription
    }
}

/// A schema that cannot be read.
package struct GraphQLSchemaError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }

    /// What a build without the package's `GraphQL` trait says where it would parse GraphQL.
    static let traitOff = "this build reads no GraphQL: it was built without the Typist package's GraphQL trait (GraphQLSwift), "
        + "which is off by default; a host names it in its dependency on Typist (traits: [.defaults, \"GraphQL\"])"

    /// Whether this build reads GraphQL (the package's `GraphQL` trait, off by default).
    package static var readsGraphQL: Bool {
        #if GraphQL
        true
        #else
        false
        #endif
    }
}
