import Failures
import Operations
import TerminalIO

extension ErrorReport {
    /// The exit status of an application-layer error: its category's (``CLIStatus/init(_:)``),
    /// except the few the CLI reports as a wrong command line (64), as it always has.
    static func status(for error: any CategorizedError) -> CLIStatus {
        switch error {
        case OTPEntryError.reservedName, OTPEntryError.parametersWithURI, OTPEntryError.timeForCounterEntry: .usage
        case let error as TerminalInputError where error.isUsage: .usage
        default: CLIStatus(error.category)
        }
    }

    /// The sentence for an application-layer error: the layer's own, or, where its advice stays
    /// neutral, the same sentence naming the command or option that helps.
    static func sentence(for error: any CategorizedError) -> String {
        switch error {
        case AccountError.noAccount(let directory):
            "No account exists in \(directory); create one with `smsgw init --username NAME`."
        case AccountError.accountExists(let directory):
            "An account already exists in \(directory); use it, or choose another --data-dir."
        case AccountError.twoFactorAlreadyOn:
            "Two-factor login is already on; turn it off with `smsgw account 2fa disable` first."
        case AccountError.enrolmentCodeMismatch:
            "That code does not match the new secret; nothing changed. Run `smsgw account 2fa enable` again."
        case OTPEntryError.reservedName(let name):
            "\"\(name)\" is reserved for two-factor login; manage it with `smsgw account 2fa`."
        case OTPEntryError.parametersWithURI:
            OTPCommand.Add.uriParameters
        case OTPEntryError.timeForCounterEntry(let name):
            "\"\(name)\" is an HOTP entry, whose codes follow a counter; leave out --at."
        case OTPEntryError.unreadable(let name):
            "The OTP entry \"\(name)\" cannot be read; remove it with `smsgw otp remove \(Shell.quote(name))` and add it again."
        case OTPEntryError.stateUnreadable(let name):
            "The verification state of \"\(name)\" cannot be read; remove the entry with `smsgw otp remove \(Shell.quote(name))` and add it again."
        case OperatorError.notFound(let name):
            "No operator is named \"\(name)\"; see them with `smsgw operator list`."
        case VaultError.notFound(let title):
            "No vault item is titled \"\(title)\"; see the titles with `smsgw vault list`."
        case APITokenError.notFound(let name):
            "No API token is named \"\(name)\"; see them with `smsgw api token list`."
        case OperatorError.lastAdmin(let name):
            "\(name) is the last admin; make another operator an admin first (`smsgw operator role NAME admin`)."
        case OperatorError.twoFactorAlreadyOn(let name):
            "\(name) already has two-factor login on; turn it off with `smsgw operator 2fa disable \(Shell.quote(name))` first."
        case MaintenanceError.unreadableStore(let path, let reason):
            "The store \(path) cannot be read (\(reason)), so it cannot be kept as a complete copy; nothing was changed. To replace it anyway, run the restore again with --replace-unreadable: the store is then kept aside byte for byte (with its -wal and -shm)."
        case MaintenanceError.noDatabase(let path):
            "There is no database at \(path); check --data-dir (or SMSGW_DATA_DIR), or, if this node's store is on PostgreSQL, set SMSGW_CONFIG to the configuration file that names it (`smsgw serve` takes --config FILE)."
        default:
            librarySentence(for: error) ?? error.description
        }
    }
}
