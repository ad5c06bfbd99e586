public import Failures

/// Why an account operation (creating, unlocking, two-factor login) refused, in words every front
/// end can show; a front end that has a better hint (a command, a page) matches the case.
public enum AccountError: Error, Sendable, Hashable {
    /// No account exists in the data directory yet.
    case noAccount(directory: String)
    /// Creating an account where one exists already.
    case accountExists(directory: String)
    /// Two-factor login is on and the caller gave no code; refused before the passphrase is
    /// checked, so the answer says nothing about the passphrase and counts no attempt.
    case codeRequired
    /// Enrolling a second factor while one is on.
    case twoFactorAlreadyOn
    /// The first code of a new enrolment does not match its secret; nothing was stored.
    case enrolmentCodeMismatch
    /// The stored login enrolment cannot be decoded.
    case twoFactorUnreadable
}

extension AccountError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .noAccount: .notFound
        case .accountExists, .twoFactorAlreadyOn: .conflict
        case .codeRequired: .authentication
        case .enrolmentCodeMismatch: .verificationFailed
        case .twoFactorUnreadable: .corrupted
        }
    }

    public var description: String {
        switch self {
        case .noAccount(let directory):
            "No account exists in \(directory); create one first."
        case .accountExists(let directory):
            "An account already exists in \(directory); use it, or choose another data directory."
        case .codeRequired:
            "Two-factor login is on and no code was given; give the current code from your authenticator app."
        case .twoFactorAlreadyOn:
            "Two-factor login is already on; turn it off first to enrol a new secret."
        case .enrolmentCodeMismatch:
            "That code does not match the new secret; nothing changed, so start the enrolment again."
        case .twoFactorUnreadable:
            "The two-factor login secret cannot be read; restore the database from a backup."
        }
    }
}
