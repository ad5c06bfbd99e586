import ArgumentParser
import Foundation
import Operations
import Store
import TerminalIO

/// `smsgw account …`: the passphrase, the username, and deleting everything.
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Change the passphrase or username, turn two-factor login on or off, or delete the account.",
        subcommands: [Passwd.self, Rename.self, Delete.self, TwoFactor.self]
    )
}

extension AccountCommand {
    struct Passwd: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change the passphrase (rewraps the data key), or with --rotate-key replace the data key too.",
            discussion: """
                The new passphrase comes from SMSGW_NEW_PASSPHRASE(_FILE), else a prompt (twice). \
                --rotate-key re-encrypts every secret under a new data key; stop `smsgw serve` first.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Flag(name: .customLong("rotate-key"), help: "Also replace the data key and re-encrypt every secret under the new one.")
        var rotateKey = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            // Said before the prompt, not after the new passphrase was typed twice.
            try Account.preparePassphraseChange(store, rotatingDataKey: rotateKey)
            let passphrase = try PassphraseSource.new.read(prompt: "New passphrase: ", confirm: true)
            try Account.changePassphrase(store, to: passphrase, rotatingDataKey: rotateKey)
            if rotateKey {
                Output.line("Changed the passphrase of \"\(store.username)\" and re-encrypted every secret under a new data key.")
            } else {
                Output.line("Changed the passphrase of \"\(store.username)\".")
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change the account's username.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The new username.")
        var name: String

        func run() throws {
            let username = try Account.rename(try StoreAccess.unlock(global), to: name)
            Output.line("The account is now named \"\(username)\".")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete the account with every key, contact and message.",
            discussion: "Without --yes, asks you to type the username on the terminal to confirm."
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            if !yes {
                try Confirmation.require(
                    typing: store.username,
                    prompt: "This deletes every key and message of \"\(store.username)\". Type the username to confirm: ")
            }
            try Account.delete(store)
            Output.line("Deleted the account and all its keys and messages; `smsgw init` starts over.")
        }
    }
}
