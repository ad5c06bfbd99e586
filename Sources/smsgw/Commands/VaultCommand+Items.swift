import ArgumentParser
import Foundation
import Operations
import TerminalIO

extension VaultCommand {
    /// `smsgw vault list`: titles, usernames and websites, never passwords.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the items (never their passwords).")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Flag(help: "Print one JSON array.")
        var json = false

        func run() throws {
            let items = try Vault.list(in: try StoreAccess.unlock(global))
            if json {
                Output.line(try Output.json(items))
                return
            }
            if items.isEmpty {
                Output.diagnostic("The vault is empty; add an item with `smsgw vault add TITLE --generate`.")
                return
            }
            for item in items {
                var fields = [item.title, item.username ?? "-", item.url ?? "-", item.hasTOTP ? "totp" : "-"]
                if let received = item.received {
                    let until = received.expiresAt.map { "until \(Output.timestamp($0))" } ?? "no expiry"
                    fields.append("from \(received.sender), \(received.permission), \(until)")
                }
                Output.line(fields.map { TerminalText.escaped($0) }.joined(separator: "\t"))
            }
        }
    }

    /// `smsgw vault show`: one item, the password masked unless `--reveal`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show an item; the password is masked unless --reveal (which is logged).")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The item's title.")
        var title: String

        @Flag(help: "Show the password in the clear.")
        var reveal = false

        @Flag(help: "Print one JSON object (password null unless --reveal).")
        var json = false

        func run() throws {
            let view = try Vault.item(titled: title, reveal: reveal, in: try StoreAccess.unlock(global), now: Date())
            if json {
                Output.line(try Output.json(view))
                return
            }
            let item = view.summary
            var lines = [
                ("title", item.title), ("username", item.username ?? "-"), ("website", item.url ?? "-"),
                ("password", view.password ?? String(repeating: "•", count: min(view.passwordLength, 12))),
                (
                    "strength",
                    "\(view.strength.rating.rawValue), \(Output.bits(view.strength.bits)) (\(view.strength.source.rawValue))"
                ),
                ("totp", item.hasTOTP ? "yes" : "no"),
                ("changed", Output.timestamp(item.passwordChangedAt)),
                ("created", Output.timestamp(item.createdAt)),
            ]
            if let notes = view.notes { lines.append(("notes", notes)) }
            for (name, value) in lines { Output.line("\(name):\t\(TerminalText.escaped(value))") }
        }
    }

    /// `smsgw vault remove`: deletes an item and its history.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Delete an item and its earlier passwords.",
            discussion: "Without --yes, asks you to type the item's title on the terminal to confirm.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The item's title.")
        var title: String

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            // An item shared by a contact has a title that came by SMS: escaped for the terminal.
            let found = try Vault.item(titled: title, reveal: false, in: store, now: Date()).summary.title
            if !yes {
                try Confirmation.require(
                    typing: found,
                    prompt: "This deletes \"\(TerminalText.escaped(found))\" and its earlier passwords. Type the title to confirm: ")
            }
            try Vault.remove(titled: found, from: store, now: Date())
            Output.line("Removed \"\(TerminalText.escaped(found))\".")
        }
    }
}
