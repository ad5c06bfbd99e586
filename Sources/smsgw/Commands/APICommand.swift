import ArgumentParser
import Foundation
import Operations
import TerminalIO

/// `smsgw api token create|list|revoke`: the HTTP API's bearer tokens.
struct APICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Manage the HTTP API's bearer tokens.",
        discussion: "The API listens where [http] listen says (default 127.0.0.1:8640); see docs/OPERATIONS.md.",
        subcommands: [Token.self]
    )

    /// `smsgw api token …`.
    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token",
            abstract: "Create, list and revoke API tokens.",
            subcommands: [Create.self, List.self, Revoke.self]
        )
    }
}

extension APICommand.Token {
    /// `smsgw api token create NAME --scope SCOPES [--expires DURATION] [--json]`.
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Make a token and print it once; only a hash of it is stored.",
            discussion: """
                Scopes: send (queue messages), read (messages, contacts, status, events, metrics), \
                admin (resyncs, and everything read and send allow), metrics (GET /metrics alone, for a \
                Prometheus scraper that reads no message). Requests carry it as Authorization: Bearer TOKEN.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "A name for the token: 1 to 64 letters, digits, '-', '_' or '.'.")
        var name: String

        @Option(help: "Comma-separated scopes: send, read, admin, metrics.")
        var scope: String

        @Option(help: "Expire after a duration such as 90d, 12h or 30m (default: never).")
        var expires: String?

        @Flag(help: "Print the token and its details as JSON (the token under \"token\").")
        var json = false

        func run() throws {
            let scopes = try APIScope.parse(scope)
            let lifetime = try expires.map { text throws(APITokenError) in try APITokens.lifetime(parsing: text) }
            var rng = SystemRandomNumberGenerator()
            let created = try APITokens.create(
                name: name, scopes: scopes, lifetime: lifetime, store: try StoreAccess.unlock(global), now: Date(), using: &rng)
            if json { return Output.line(try Output.json(created)) }
            Output.line(created.token)
            Output.diagnostic("This is the only time the token is shown; store it now (only a hash of it is kept).")
        }
    }

    /// `smsgw api token list [--json]`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List tokens: name, scopes, created, expires, last used (never the token).")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Flag(help: "Print an array of JSON objects.")
        var json = false

        func run() throws {
            let tokens = try APITokens.list(store: try StoreAccess.unlock(global))
            if json { return Output.line(try Output.json(tokens)) }
            if tokens.isEmpty { return Output.line("No API tokens; make one with `smsgw api token create NAME --scope read`.") }
            // Tab-separated, as every other list: name, scopes, created, expires, last used.
            for token in tokens {
                let fields = [
                    token.name, token.scopes.sorted().map(\.rawValue).joined(separator: ","), Output.timestamp(token.createdAt),
                    token.expiresAt.map(Output.timestamp) ?? "never", token.lastUsedAt.map(Output.timestamp) ?? "never",
                ]
                Output.line(fields.map(TerminalText.escaped).joined(separator: "\t"))
            }
        }
    }

    /// `smsgw api token revoke NAME`.
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Delete a token: requests carrying it are refused from now on.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The token's name.")
        var name: String

        func run() throws {
            try APITokens.revoke(name, store: try StoreAccess.unlock(global))
            Output.line("Revoked the API token \(name).")
        }
    }
}
