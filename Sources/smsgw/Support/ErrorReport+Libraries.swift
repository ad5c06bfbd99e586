import Foundation
import GSM7
import Gateway
import SMSCipher
import Store

extension ErrorReport {
    /// The CLI's sentence for an error of the libraries below the application layer, or nil to
    /// keep the error's own: where the library only says what to do in general ("check the list of
    /// contacts"), this names the command or option that does it, as the sentences always have.
    static func librarySentence(for error: any Error) -> String? {
        switch error {
        case StoreError.notFound(let missing):
            missingSentence(missing)
        case StoreError.daemonRunning(let pid):
            "\(pid > 0 ? "smsgw serve (process \(pid))" : "smsgw serve") is running on this data directory and holds the current data key; stop it first (systemctl stop smsgw), then run the command again."
        case StoreError.inUse(.open(let directory)):
            "Another smsgw process has the store in \(directory) open (a command still running or waiting for input, or `smsgw log --follow`); stop it, then run `smsgw restore` again."
        case StoreError.readOnly(let directory, let reason):
            "The store in \(directory) is read-only (\(reason.words)); back it up with `smsgw backup FILE` and restore it on a writable disk (`smsgw restore FILE`)."
        case GatewayError.noModem:
            "No modem is configured; add a [[modem]] table to the configuration (see config/smsgw.toml.example) or run `smsgw serve --sim`."
        case CipherError.conflictingHandshake:
            CipherError.conflictingHandshake.description.replacingOccurrences(
                of: "(a manual re-pairing)", with: "(`smsgw resync NAME --manual`)")
        case GSM7Error.unsupportedCharacters, CipherError.unsupportedText(.unsupportedCharacters):
            gsm7Sentence(error)
        default:
            nil
        }
    }

    private static func missingSentence(_ missing: StoreError.Missing) -> String {
        switch missing {
        case .account:
            "No account exists in this data directory; create one with `smsgw init --username NAME`."
        case .store(let directory):
            "There is no store in \(directory); create one with `smsgw init --username NAME`, or, if this node's store is on PostgreSQL, set SMSGW_CONFIG to the configuration file that names it (`smsgw serve` takes --config FILE)."
        case .contact(let name):
            "No contact is named \"\(name)\"; see `smsgw contact list` for the names."
        case .node(let name):
            "No node named \"\(name)\" ran on this store; see `smsgw status` for the nodes."
        case .removedContact(let name?):
            "The contact \"\(name)\" no longer exists; see `smsgw contact list`."
        case .removedContact(nil):
            "The contact no longer exists; see `smsgw contact list`."
        case .message(let id):
            "No message has id \(id); see `smsgw log` for the ids."
        case .otpEntry(let name):
            "No OTP entry is named \"\(name)\"; see `smsgw otp list` for the names."
        case .outboxEntry(let id):
            "No outbox entry has id \(id); see `smsgw status` for the queue."
        case .webhookEndpoint(let url):
            "No webhook endpoint \(url) has been delivered to yet; see `smsgw webhook list`."
        case .webhookDelivery(let id):
            "No webhook delivery has id \(id); see `smsgw webhook deliveries` for the ids."
        }
    }

    private static func gsm7Sentence(_ error: any Error) -> String? {
        switch error {
        case let error as GSM7Error: Transliterated.sentence(for: error, transliterated: false)
        case CipherError.unsupportedText(let error): Transliterated.sentence(for: error, transliterated: false)
        default: nil
        }
    }
}
