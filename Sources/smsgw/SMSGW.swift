import ArgumentParser

/// The `smsgw` command: parses the command line and hands each command to the libraries.
@main
struct SMSGW: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smsgw",
        abstract: "Encrypted SMS: one 160-character SMS per message, keys kept per contact.",
        discussion: """
            Data lives in --data-dir (env SMSGW_DATA_DIR). The passphrase comes from SMSGW_PASSPHRASE, \
            the file named by SMSGW_PASSPHRASE_FILE, or a masked prompt. Texts, codes and secrets left out \
            of the command line are read from stdin or a prompt. See docs/CLI.md.

            Exit status (sysexits.h):
              0   success
              64  usage: a wrong option or argument, a confirmation that did not match
              65  data: a message that fails verification, a duplicate, a malformed code
                  or text, a contact not paired
              66  not found: no such contact, no account yet, a missing passphrase file
              69  unavailable: the command needs a modem or the daemon (`smsgw serve`),
                  an SMS to a contact without a number, or a write on a read-only store
              70  a fault of smsgw itself (report it with the log)
              74  I/O error in the database; 75 the database stayed busy (try again),
                  another `smsgw serve` runs on the data directory, or a restore runs
                  (or cannot start while another smsgw process has the store open)
              77  authentication: wrong passphrase, account locked, no passphrase available
              78  configuration: the data directory or database cannot be used
              130 stopped by Ctrl-C (SIGINT; 143 SIGTERM), e.g. `log prune` after a batch
            """,
        version: "0.1.0",
        subcommands: SMSGW.commands
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    /// Runs the command and turns every error into one sentence on stderr and its exit status.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            ErrorReport.exit(with: error)
        }
    }
}
