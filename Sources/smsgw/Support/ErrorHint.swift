import Failures
import Operations
import SMSCipher
import TerminalIO

/// The command-line side of errors from below it: the hint naming the `smsgw` command that helps,
/// which the errors themselves never carry (other front ends read them too). The exit status for
/// each ``Failures/ErrorCategory`` is `CLIStatus(_:)`.
enum ErrorHint {
    /// The command to run next, for the errors of the application layer that call for one.
    static func hint(for error: any Error) -> String? {
        switch error {
        case ContactError.notPaired(let contact):
            "Enter it with `smsgw contact pair \(Shell.quote(contact))`."
        case ContactError.alreadyPaired(let contact):
            "For new codes run `smsgw resync \(Shell.quote(contact)) --manual` first."
        case ContactError.codeFromBeforeRestore(let contact):
            "Run `smsgw resync \(Shell.quote(contact)) --manual` for a new code, and have \(contact) do the same."
        case ContactError.noNumber(let contact, .message):
            "Add it with `smsgw contact edit \(Shell.quote(contact)) --number +E164`, or use `smsgw encrypt \(Shell.quote(contact))` to copy and paste."
        case ContactError.noNumberNorPairing(let contact):
            "Add it with `smsgw contact edit \(Shell.quote(contact)) --number +E164` and enter the code with `smsgw contact pair \(Shell.quote(contact))`."
        case ContactError.noNumber(let contact, .resync):
            "Re-pair with `smsgw resync \(Shell.quote(contact)) --manual`, or add the number with `smsgw contact edit \(Shell.quote(contact)) --number +E164`."
        case CipherError.malformed(.invalidCharacter(let character, _)) where "‘’“”".contains(character):
            "\(character) is a typographic quote that an app's smart punctuation put for ' or \": copy the SMS again from where it arrived, with smart punctuation off."
        case CipherError.textTooLong(let septets, _) where septets <= LongText.capacity(parts: TextPart.maxCount):
            "`--max-parts \((2...TextPart.maxCount).first { LongText.capacity(parts: $0) >= septets } ?? TextPart.maxCount)` lets it go as that many SMS (at most \(TextPart.maxCount))."
        case VaultError.notShared(let title, _):
            "`smsgw vault shares \(Shell.quote(title))` lists its holders."
        case VaultError.noTOTP(let title):
            "Add it with `smsgw vault edit \(Shell.quote(title)) --totp -` (the URI is asked for, masked)."
        case MessageError.severalMessages:
            "To decrypt several at once, pipe them in one per line with `--lines`."
        case MessageError.ownMessage(let id, _):
            "`smsgw log show \(id)` shows it."
        case MessageError.fromAnotherContact(let name, _, false):
            "Run `smsgw decrypt \(Shell.quote(name))`."
        case MessageError.fromAnotherContact(let name, _, true):
            "`smsgw log --contact \(Shell.quote(name))` shows it."
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
