import ArgumentParser
import Foundation
import Operations
import TerminalIO

extension VaultCommand {
    /// `smsgw vault share`: sends an item to a paired contact's gateway over SMS.
    struct Share: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "share",
            abstract: "Share an item with a paired contact over SMS, with a permission and an expiry.",
            discussion: """
                The item travels as typed messages (as many SMS as it needs), queued for the daemon and sent again \
                until the contact's gateway acknowledges them when the contact has acknowledgements on. \
                use: copy, exec and code only; use+share: also share onward (use or use+share, one level); \
                use+change+share: also show and change. See docs/VAULT.md.
                """)

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The item's title.")
        var title: String

        @Argument(help: "The paired contact to share it with.", completion: .custom(ContactCompletion.names))
        var contact: String

        @Option(help: "use, use+share or use+change+share.")
        var permission: String

        @Option(help: "When the contact's copy is deleted: a duration (30m, 12h, 7d, 2w) or a time (2027-01-31T18:00:00Z).")
        var expires: String?

        func validate() throws {
            guard SharePermission(name: permission) != nil else {
                throw ValidationError("--permission takes use, use+share or use+change+share.")
            }
        }

        func run() throws {
            let now = Date()
            let expiresAt = try expires.map { try ShareExpiry.parse($0, now: now) }
            var rng = SystemRandomNumberGenerator()
            let store = try StoreAccess.unlock(global)
            let holder = try VaultSharing.share(
                title, with: contact, permission: SharePermission(name: permission)!, expiresAt: expiresAt, store: store, now: now,
                using: &rng)
            Daemon.wake(in: global.dataDirectory)
            let until = holder.expiresAt.map { ", until \(Output.timestamp($0))" } ?? ""
            // Without acknowledgements the share never shows as acknowledged (nor held): say why.
            let acknowledged = (try? Contacts.contact(named: holder.holder, store: store).acknowledgements) ?? true
            let next =
                acknowledged
                ? "`smsgw vault shares \(Shell.quote(title))` shows when it is acknowledged."
                : "Acknowledgements are off for \(holder.holder), so `smsgw vault shares` will show it as sending, never acknowledged; "
                    + "turn them on at both ends with `smsgw contact edit \(Shell.quote(holder.holder)) --acks on`."
            Output.line(
                TerminalText.escaped(
                    "Queued \"\(title)\" for \(holder.holder) (\(holder.permission)\(until)); the daemon sends it. " + next))
        }
    }

    /// `smsgw vault shares`: who holds an item this side shared.
    struct Shares: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "shares", abstract: "List who holds an item: permission, level, expiry, when shared, acknowledged.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The item's title.")
        var title: String

        @Flag(help: "Print one JSON array.")
        var json = false

        func run() throws {
            let holders = try VaultSharing.shares(of: title, in: try StoreAccess.unlock(global))
            if json {
                Output.line(try Output.json(holders))
                return
            }
            if holders.isEmpty { Output.diagnostic("\"\(TerminalText.escaped(title))\" is not shared with anyone.") }
            for holder in holders {
                let fields = [
                    holder.holder + (holder.via.map { " (via \($0))" } ?? ""), holder.permission.description, "level \(holder.level)",
                    holder.expiresAt.map { "expires \(Output.timestamp($0))" } ?? "never expires",
                    "shared \(Output.timestamp(holder.sharedAt))", holder.state.rawValue,
                    holder.acknowledged ? "acknowledged" : "not acknowledged",
                ]
                Output.line(fields.map { TerminalText.escaped($0) }.joined(separator: "\t"))
            }
        }
    }
}
