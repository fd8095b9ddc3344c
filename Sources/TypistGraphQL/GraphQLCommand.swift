import APIScript
import Foundation
import TypedAPI
import TypistCore
import TypistText

/// `:graphql URL|SCHEMA [--operations FILE …] [--endpoint URL]`: a GraphQL service's operations
/// added to the session at the prompt. A URL's schema is read by introspection with the session's
/// credential (its token as a bearer token, else its user name and password); a schema file's
/// operations go to `--endpoint`'s URL, else the session's base URL's `/graphql`.
enum GraphQLCommand {
    static let command = MetaCommand(
        "graphql", usage: MetaCommand.graphQLUsage,
        "add a GraphQL service: its named operations as functions, graphql(\"\"\"…\"\"\") for inline ones, :describe for its types",
        argument: .file(extensions: ["graphql", "graphqls", "json"])
    ) { shell, text in
        var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var operations: [String] = []
        var endpoint: String?
        while let index = words.firstIndex(where: { $0 == "--operations" || $0 == "--endpoint" }) {
            guard index + 1 < words.count else {
                shell.fail("\(words[index]) needs a value: --operations ops.graphql, --endpoint https://…/graphql")
                return false
            }
            if words[index] == "--operations" { operations.append(words[index + 1]) } else { endpoint = words[index + 1] }
            words.removeSubrange(index...(index + 1))
        }
        guard words.count == 1, let location = words.first else {
            shell.fail("write :graphql <URL or schema file> [--operations ops.graphql], such as :graphql https://api.github.com/graphql")
            return false
        }
        let isURL = location.hasPrefix("http://") || location.hasPrefix("https://")
        let request = GraphQLLoadRequest(endpoint: isURL ? location : endpoint, schema: isURL ? nil : location, operations: operations)
        let credentials = shell.credentials
        let credential: DocumentCredential? = if let token = credentials.token, !token.isEmpty {
            .bearer(AccessToken(token))
        } else if let user = credentials.username, !user.isEmpty, let password = credentials.password {
            .basic(BasicCredentials(username: user, password: password))
        } else {
            nil
        }
        let document: LoadedDocument
        do {
            document = try await GraphQLLoader.load(request, transport: shell.documentTransport, tls: shell.client.environment.tls,
                                                    credential: isURL ? credential : nil)
        } catch is CancellationError {
            shell.fail("cancelled: the schema was not read; the session is as it was")
            return false
        } catch {
            shell.fail("\(error)")
            return false
        }
        // Where the operations go: the service's origin when it is not the session's.
        var server: ServerEnvironment?
        if let origin = document.servers.first {
            do {
                var environment = try ServerEnvironment(name: "graphql", url: origin)
                environment.tls = shell.client.environment.tls
                server = environment.baseURL == shell.client.environment.baseURL ? nil : environment
            } catch {
                shell.fail("\(TerminalText.sanitized(origin)): \(error)")
                return false
            }
        }
        do {
            let (added, warnings) = try shell.addEndpoints(document.registrations, server: server)
            for warning in (document.warnings + warnings).prefix(10) { shell.write("warning: \(warning)") }
            try GraphQLLoader.setUp(shell, document: document, server: server)
            let destination = server?.baseURL ?? shell.client.environment.baseURL
            shell.write("\(added.count) operation\(added.count == 1 ? "" : "s") from \(request.schema.map { ($0 as NSString).lastPathComponent } ?? location); "
                        + "graphql(\"\"\"…\"\"\") runs others; they call \(destination)")
            return true
        } catch {
            shell.fail("cannot use the operations: \(error)")
            return false
        }
    }
}
