import Foundation
import OTP

extension Vault {
    /// The rules for an item's fields, checked before anything is stored.
    enum Fields {
        /// An optional field and its limits.
        enum Optional {
            case username, url, notes

            var name: String {
                switch self {
                case .username: "username"
                case .url: "website address"
                case .notes: "notes"
                }
            }

            var limit: Int {
                switch self {
                case .username: 256
                case .url: 2048
                case .notes: 10_000
                }
            }

            /// Notes may span lines; the other fields are one line.
            var allowsNewlines: Bool { self == .notes }
        }

        /// The longest password the vault keeps.
        static let passwordLimit = 1024

        /// The field, or nil when absent or empty (an empty value clears the field).
        static func optional(_ value: String?, _ field: Optional) throws -> String? {
            guard let value, !value.isEmpty else { return nil }
            guard value.count <= field.limit else {
                throw VaultError.invalid("The \(field.name) has \(value.count) characters; shorten it to \(field.limit) at most.")
            }
            let allowed: (Unicode.Scalar) -> Bool = { scalar in
                !CharacterSet.controlCharacters.contains(scalar) || (field.allowsNewlines && (scalar == "\n" || scalar == "\t"))
            }
            guard value.unicodeScalars.allSatisfy(allowed) else {
                throw VaultError.invalid("The \(field.name) contains control characters; use printable characters only.")
            }
            return value
        }

        /// A password: 1 to ``passwordLimit`` characters on one line, no control characters.
        static func password(_ value: String) throws -> String {
            guard !value.isEmpty else { throw VaultError.invalid("The password is empty; give one, or ask for a generated one.") }
            guard value.count <= passwordLimit else {
                throw VaultError.invalid("The password has \(value.count) characters; the vault keeps \(passwordLimit) at most.")
            }
            guard !value.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
                throw VaultError.invalid("The password contains control characters (a line break, a tab); give it on one line.")
            }
            return value
        }

        /// An `otpauth://totp/` URI the OTP module accepts, or nil.
        static func totp(_ value: String?) throws -> String? {
            guard let value, !value.isEmpty else { return nil }
            let uri: OTPAuthURI
            do {
                uri = try OTPAuthURI(parsing: value.trimmingCharacters(in: .whitespaces))
            } catch {
                throw VaultError.invalid(OTPEntryError.sentence("the TOTP URI is refused: \(error.message)"))
            }
            guard uri.totp != nil else {
                throw VaultError.invalid("The URI is for a counter-based (HOTP) code; the vault keeps time-based (TOTP) ones.")
            }
            return uri.string
        }
    }
}
