import ArgumentParser
import Foundation
import Operations
import TerminalIO

extension VaultCommand {
    /// `smsgw vault update`: sends an item's current password to those who must have it.
    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Send an item's current password to its holders (owner), or to its owner (a use+change+share copy).",
            discussion: "Change the password first with `vault edit TITLE --password` (or --generate); then update sends it.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The item's title.")
        var title: String

        func run() throws {
            var rng = SystemRandomNumberGenerator()
            let count = try VaultSharing.update(title, store: try StoreAccess.unlock(global), now: Date(), using: &rng)
            Daemon.wake(in: global.dataDirectory)
            Output.line(
                "Queued the password of \"\(TerminalText.escaped(title))\" for \(count) contact\(count == 1 ? "" : "s"); the daemon sends it."
            )
        }
    }

    /// `smsgw vault revoke`: takes a shared item back from a contact and those it shared with.
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Take a shared item back from a contact and from everyone they shared it with.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The item's title.")
        var title: String

        @Argument(help: "The contact to take it back from.", completion: .custom(ContactCompletion.names))
        var contact: String

        func run() throws {
            var rng = SystemRandomNumberGenerator()
            let lost = try VaultSharing.revoke(title, from: contact, store: try StoreAccess.unlock(global), now: Date(), using: &rng)
            Daemon.wake(in: global.dataDirectory)
            let names = lost.map { TerminalText.escaped($0) }.joined(separator: ", ")
            Output.line(
                lost.count == 1
                    ? "Queued the revocation; \(names)'s copy will be deleted when \(names)'s gateway receives it."
                    : "Queued the revocation; the copies of \(names) will be deleted when their gateways receive it.")
            Output.line(
                "A holder who could use the password may have kept it: the item is marked exposed. "
                    + "`smsgw vault rotate \(Shell.quote(title))` makes a new password and sends it to the remaining holders; then change it at the website."
            )
        }
    }

    /// `smsgw vault rotate`: a new generated password, pushed to the remaining holders.
    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate", abstract: "Replace an item's password with a generated one and send it to the remaining holders.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The item's title.")
        var title: String

        func run() throws {
            var rng = SystemRandomNumberGenerator()
            let rotated = try VaultSharing.rotate(title, store: try StoreAccess.unlock(global), now: Date(), using: &rng)
            Daemon.wake(in: global.dataDirectory)
            Output.line(rotated.password.password)
            Output.diagnostic(
                "\(Output.bits(rotated.password.bits)). Change the password at the website to this one now: the old one still works there. "
                    + "Queued for \(rotated.holders) holder\(rotated.holders == 1 ? "" : "s").")
        }
    }
}
