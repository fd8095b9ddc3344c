import APIScript
import Foundation
import TypedAPI

/// Builds registries from `Register` and `Group` statements.
@resultBuilder
public enum RegistryBuilder {
    public static func buildExpression(_ content: any RegistryContent) -> [any RegistryContent] { [content] }
    public static func buildBlock(_ parts: [any RegistryContent]...) -> [any RegistryContent] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any RegistryContent]?) -> [any RegistryContent] { part ?? [] }
    public static func buildEither(first: [any RegistryContent]) -> [any RegistryContent] { first }
    public static func buildEither(second: [any RegistryContent]) -> [any RegistryContent] { second }
    public static func buildArray(_ parts: [[any RegistryContent]]) -> [any RegistryContent] { parts.flatMap { $0 } }
}
