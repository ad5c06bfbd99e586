public import Failures

/// Why a passphrase, a code, a secret or a confirmation could not be read from the person at
/// the terminal or from the variables and files that stand in for them in scripts.
///
/// Every sentence says what to do; none holds what was typed.
public enum TerminalInputError: Error, Sendable, Hashable {
    /// No variable names a passphrase and there is no terminal to ask on.
    case noPassphraseSource(variable: String, fileVariable: String)
    /// The passphrase file named by `variable` cannot be opened or read.
    case passphraseFileUnreadable(path: String, variable: String)
    /// The path `variable` names is a directory, not a file.
    case passphraseFileIsDirectory(path: String, variable: String)
    /// The first line of the passphrase file is empty.
    case passphraseFileEmpty(path: String, variable: String)
    /// The two passphrases typed for a new one differ.
    case passphrasesDiffer
    /// Echo cannot be switched off on the terminal, so nothing secret is asked there.
    case echoUnavailable
    /// Nothing was typed at a masked prompt (Enter alone, or the end of input).
    case nothingTyped
    /// Two-factor login needs a code and neither the variable nor a terminal gives one.
    case noCodeSource(variable: String)
    /// A code or secret was asked for and nothing came (`what`: "pairing code", "secret").
    case nothingGiven(what: String)
    /// A code or secret was asked for at a masked prompt and nothing was typed.
    case nothingTypedFor(what: String)
    /// Something irreversible needs a typed confirmation and there is no terminal.
    case confirmationNeedsTerminal
    /// The typed confirmation was not `expected`.
    case confirmationMismatch(expected: String)
    /// Lines of a batch (one input line each) failed; each was reported as it failed.
    case batchFailed(failures: Int, total: Int)
    /// Several lines were pasted at a prompt that takes one; the rest of the paste was discarded.
    case severalLinesPasted
    /// More than `limit` bytes came on stdin for one text or ciphertext; the rest was not read.
    case inputTooLong(limit: Int)
}

extension TerminalInputError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .noPassphraseSource, .passphraseFileEmpty, .echoUnavailable, .nothingTyped, .noCodeSource: .authentication
        case .passphraseFileUnreadable, .passphraseFileIsDirectory: .notFound
        case .passphrasesDiffer, .nothingGiven, .nothingTypedFor, .confirmationNeedsTerminal, .confirmationMismatch,
            .batchFailed, .severalLinesPasted, .inputTooLong:
            .invalidInput
        }
    }

    /// Whether the person at the command line asked for something that cannot work (a
    /// confirmation that does not match, a value left out): a front end that tells usage errors
    /// apart (the CLI's 64) reports these as one.
    public var isUsage: Bool {
        switch self {
        case .passphrasesDiffer, .nothingGiven, .nothingTypedFor, .confirmationNeedsTerminal, .confirmationMismatch: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .noPassphraseSource(let variable, let fileVariable):
            "No passphrase is available and there is no terminal to ask on; set \(fileVariable) to a file holding it (or \(variable))."
        case .passphraseFileUnreadable(let path, let variable):
            "Cannot read the passphrase file \(path) named by \(variable); check the path and its permissions."
        case .passphraseFileIsDirectory(let path, let variable):
            "\(variable) names \(path), which is a directory; name the file in it that holds the passphrase."
        case .passphraseFileEmpty(let path, let variable):
            "The first line of \(path) (named by \(variable)) is empty; put the passphrase on it."
        case .passphrasesDiffer:
            "The two passphrases differ; run the command again and type the same one twice."
        case .echoUnavailable:
            "Cannot switch off echo on the terminal; set SMSGW_PASSPHRASE_FILE instead."
        case .nothingTyped:
            "No passphrase was typed; run the command again."
        case .noCodeSource(let variable):
            "Two-factor login is on and there is no terminal to ask for the code; set \(variable) to the current code."
        case .nothingGiven(let what):
            "No \(what) was given; type it at the prompt or pipe it in on stdin."
        case .nothingTypedFor(let what):
            "No \(what) was typed; run the command again, or pipe it in on stdin."
        case .confirmationNeedsTerminal:
            "Confirmation needs a terminal; add --yes to confirm from a script."
        case .confirmationMismatch(let expected):
            "The confirmation did not match \"\(expected)\"; nothing was deleted."
        case .batchFailed(let failures, let total):
            "\(failures) of \(total) lines failed; see the messages above."
        case .severalLinesPasted:
            "The pasted text has several lines but the prompt takes one, so nothing was encrypted and the rest of the paste was discarded; pipe the text in on stdin to keep its line breaks."
        case .inputTooLong(let limit):
            "More than \(limit / 1_048_576) MiB came on stdin, far more than a message holds, so nothing was done with it; check what is piped in."
        }
    }
}
