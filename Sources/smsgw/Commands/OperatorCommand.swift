import ArgumentParser
import Foundation
import Operations
import Store
import TerminalIO

/// `smsgw operator`: the people who log in to the web console, with their roles.
struct OperatorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operator",
        abstract: "Manage the operators of the web console: add, list, passwords, roles, two-factor login.",
        discussion: """
            Operators log in to the console with their own name and password (never the data \
            passphrase), as a viewer, an operator or an admin. Passwords are read from a masked \
            prompt (typed twice) or the first line of stdin, never from the command line. See \
            docs/CLI.md.
            """,
        subcommands: [Add.self, List.self, Passwd.self, Role.self, Remove.self, TwoFactor.self]
    )

    /// The new password for `name`, read and checked against the rules before anything is stored.
    static func readPassword(for name: String) throws -> String {
        let password = try SecretInput.readNew(what: "password", prompt: "New password for \(name): ")
        try Operators.checkPassword(password, name: name)
        return password
    }
}

extension OperatorCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an operator with a role and a password.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The operator's login name (1 to 64 characters).")
        var name: String

        @Option(help: "viewer (reads), operator (also sends and resyncs) or admin (also manages operators, tokens, webhooks).")
        var role: OperatorRole

        @Flag(help: "Print the operator as a JSON object.")
        var json = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let added = try Operators.add(
                name, role: role, password: try OperatorCommand.readPassword(for: name), by: .commandLine, in: store, now: Date())
            if json { return Output.line(try Output.json(added)) }
            Output.line(TerminalText.escaped("Added the \(added.role) \(added.name); they can log in to the console now."))
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the operators (never their passwords).")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Flag(help: "Print a JSON array of operators.")
        var json = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let operators = try Operators.list(in: store, now: Date())
            if json { return Output.line(try Output.json(operators)) }
            if operators.isEmpty {
                return Output.line("No operators yet; add the first admin with `smsgw operator add NAME --role admin`.")
            }
            for entry in operators {
                let fields = [
                    entry.name, entry.role.rawValue, entry.twoFactor ? "2fa" : "-",
                    entry.lastLoginAt.map { "last login \(Output.timestamp($0))" } ?? "never logged in",
                    entry.lockedUntil.map { "locked until \(Output.timestamp($0))" } ?? "-",
                ]
                Output.line(fields.map(TerminalText.escaped).joined(separator: "\t"))
            }
        }
    }

    struct Passwd: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set an operator's password (also lifts a lockout).")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The operator's name.")
        var name: String

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let current = try Operators.find(name, in: store, now: Date())
            try Operators.setPassword(
                current.name, to: try OperatorCommand.readPassword(for: current.name), by: .commandLine, in: store, now: Date())
            Output.line(TerminalText.escaped("Set a new password for \(current.name)."))
        }
    }

    struct Role: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give an operator another role.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The operator's name.")
        var name: String

        @Argument(help: "viewer, operator or admin.")
        var role: OperatorRole

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let changed = try Operators.setRole(name, to: role, by: .commandLine, in: store, now: Date())
            Output.line(TerminalText.escaped("\(changed.name) is now \(changed.role == .viewer ? "a" : "an") \(changed.role)."))
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an operator; they can no longer log in.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The operator's name.")
        var name: String

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let current = try Operators.find(name, in: store, now: Date())
            try Operators.remove(current.name, by: .commandLine, in: store, now: Date())
            Output.line(TerminalText.escaped("Removed the operator \(current.name)."))
        }
    }
}
