import Failures
import Operations

/// The command-line side of errors from below it: the sysexits(3) status for each
/// ``Failures/ErrorCategory``, and the hint naming the `smsgw` command that helps, which the
/// errors themselves never carry (other front ends read them too).
enum ErrorHint {
    /// The documented exit status for an error of `category` (docs/CLI.md, "Exit status").
    static func status(for category: ErrorCategory) -> Int32 {
        switch category {
        case .invalidInput, .verificationFailed, .conflict, .corrupted: CLIStatus.dataError.rawValue
        case .notFound: CLIStatus.notFound.rawValue
        case .unavailable: CLIStatus.unavailable.rawValue
        case .authentication, .locked: CLIStatus.authentication.rawValue
        case .configuration: CLIStatus.configuration.rawValue
        case .busy: CLIStatus.temporaryFailure.rawValue
        case .storage: 74  // EX_IOERR
        }
    }

    /// The command to run next, for the errors of the application layer that call for one.
    static func hint(for error: any Error) -> String? {
        switch error {
        case ContactError.notPaired(let contact):
            "Enter it with `smsgw contact pair \(Shell.quote(contact))`."
        case ContactError.alreadyPaired(let contact):
            "For new codes run `smsgw resync \(Shell.quote(contact)) --manual` first."
        case ContactError.noNumber(let contact, .message):
            "Add it with `smsgw contact edit \(Shell.quote(contact)) --number +E164`, or use `smsgw encrypt \(Shell.quote(contact))` to copy and paste."
        case ContactError.noNumber(let contact, .resync):
            "Re-pair with `smsgw resync \(Shell.quote(contact)) --manual`, or add the number with `smsgw contact edit \(Shell.quote(contact)) --number +E164`."
        case ResyncError.requestWaiting(let contact, _):
            "Run `smsgw resync \(Shell.quote(contact)) --accept`, or `--reject`."
        case let error as DaemonError:
            daemonHint(error.failure)
        default:
            nil
        }
    }

    private static func daemonHint(_ failure: StatusClient.Failure) -> String? {
        switch failure {
        case .notPermitted: "Run smsgw as the service's user, e.g. `runuser -u smsgw -- smsgw status`."
        case .notListening, .noAnswer: "Its log: `journalctl -u smsgw`."
        case .unreadable: "Restart it with `systemctl restart smsgw`."
        case .refused: nil
        }
    }
}
