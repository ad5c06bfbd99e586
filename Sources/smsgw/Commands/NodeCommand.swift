import ArgumentParser
import Foundation
import Operations
import TerminalIO

/// `smsgw node`: the nodes of the store, as `smsgw status` lists them.
struct NodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "node",
        abstract: "Tend the nodes of the store (the daemons that ran on it).",
        discussion: "The status lists every node that ever ran on the store. See docs/OPERATIONS.md.",
        subcommands: [Forget.self]
    )

    struct Forget: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget a node that stopped or is down for good, with its modems' status.",
            discussion: """
                Refused while the node's heartbeat is within its lease (its daemon may be running). \
                Without --yes, asks you to type the node's name on the terminal to confirm. Audited as node-forgotten.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The node's name, as the status lists it.")
        var name: String

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            _ = try Nodes.forgettable(name, store: store, now: Date())
            if !yes {
                try Confirmation.require(
                    typing: name,
                    prompt: TerminalText.escaped("This forgets the node \(name) and its modems' status. Type the name to confirm: "))
            }
            let node = try Nodes.forget(name, store: store, now: Date())
            Output.line(TerminalText.escaped("Forgot the node \(node.name)."))
        }
    }
}
