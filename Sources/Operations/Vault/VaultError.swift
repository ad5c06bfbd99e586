public import Failures
public import Foundation

/// Why a vault operation refused, in words every front end can show.
public enum VaultError: Error, Sendable, Hashable {
    /// No item has this title (compared as the store compares names).
    case notFound(String)
    /// Another item already has this title.
    case titleTaken(String)
    /// A title, username, address, note or password the vault refuses; the sentence says why.
    case invalid(String)
    /// The item's TOTP URI is missing.
    case noTOTP(String)
    /// A stored item, earlier password or event opened but cannot be decoded.
    case unreadable
    /// A generator request that cannot be met (too short for its classes, no class, too many).
    case generator(String)
    /// A received copy's permission does not allow this; the sentence says what it allows.
    case notPermitted(String)
    /// The item (its title) is not shared with the contact (its name), or no longer.
    case notShared(title: String, contact: String)
}

extension VaultError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .notFound, .noTOTP: .notFound
        case .titleTaken: .conflict
        case .invalid, .generator, .notShared: .invalidInput
        case .notPermitted: .conflict
        case .unreadable: .corrupted
        }
    }

    public var description: String {
        switch self {
        case .notFound(let title):
            "No vault item is titled \"\(title)\"; check the title against the list of items."
        case .notShared(let title, let contact):
            "\"\(title)\" is not shared with \(contact), or no longer; only a share that holds can be revoked."
        case .titleTaken(let title):
            "A vault item titled \"\(title)\" already exists; choose another title or edit that item."
        case .invalid(let sentence), .generator(let sentence), .notPermitted(let sentence):
            sentence
        case .noTOTP(let title):
            "The vault item \"\(title)\" has no TOTP secret; add an otpauth:// URI to it first."
        case .unreadable:
            "A vault record opened but cannot be read; restore the database from a backup."
        }
    }
}
