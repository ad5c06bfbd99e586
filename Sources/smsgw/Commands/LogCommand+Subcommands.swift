import ArgumentParser

extension LogCommand {
    /// The listing's options given on the line of a subcommand, which `log` parses wherever they
    /// stand: refused rather than taken and ignored (`log prune --json` printed plain text).
    ///
    /// - Parameters:
    ///   - subcommand: The subcommand's name, for the sentence.
    ///   - json: Whether the subcommand honours `--json`.
    func refuseListingOptions(in subcommand: String, json honoured: Bool = false) throws {
        let given: [(String, Bool)] = [
            ("--json", json && !honoured), ("--contact", contact != nil), ("--direction", direction != nil),
            ("--state", state != nil), ("--limit", limit != nil), ("--follow", follow), ("--since", since != nil),
        ]
        let names = given.filter(\.1).map(\.0)
        guard !names.isEmpty else { return }
        throw ValidationError(
            "`smsgw log \(subcommand)` takes no \(names.joined(separator: ", ")): \(names.count == 1 ? "that option is" : "those options are") for the listing, `smsgw log` without a subcommand."
        )
    }
}
