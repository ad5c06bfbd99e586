public import Foundation

/// The login second factor as the account stores it: a secret (with its parameters) and a
/// verification state, both opaque to the store and encrypted under the data key.
///
/// The CLI defines what the blobs hold (a TOTP enrolment and its last accepted step).
public struct SecondFactorEnrolment: Sendable, Hashable {
    /// The secret and parameters.
    public var secret: Data
    /// The verification state, or nil before the first check.
    public var state: Data?

    public init(secret: Data, state: Data?) {
        self.secret = secret
        self.state = state
    }
}

extension SecondFactorEnrolment: CustomStringConvertible, CustomReflectable {
    /// Never shows the secret or the state.
    public var description: String { "SecondFactorEnrolment(<redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// What the caller's check of a second-factor code concluded.
public struct SecondFactorVerdict: Sendable, Hashable {
    /// Accepted, or why not.
    public var failure: SecondFactorFailure?
    /// The verification state to store (the replay boundary moves on acceptance); nil keeps it.
    public var state: Data?

    public init(failure: SecondFactorFailure?, state: Data?) {
        self.failure = failure
        self.state = state
    }

    /// An accepted code, with the state to store.
    public static func accepted(state: Data?) -> SecondFactorVerdict { SecondFactorVerdict(failure: nil, state: state) }
}

/// Why a second factor was refused; each has its own sentence in ``StoreError``.
public enum SecondFactorFailure: Sendable, Hashable {
    /// Two-factor login is on and the caller gave no code.
    case missing
    /// The code does not match.
    case wrong
    /// The code matched but was already accepted once.
    case replayed

    /// Whether the refusal counts toward the lockout. A replayed code is the owner's own code
    /// from a moment ago, no guess (only a code that matched is replayed): given with the right
    /// passphrase or password it is refused but not counted, so that entering one code twice
    /// cannot lock its owner out. The account's unlock and the console's operators follow this.
    public var countsTowardLockout: Bool { self != .replayed }
}

/// The check ``GatewayStore/unlock(passphrase:now:secondFactor:)`` runs, under the unlock lock
/// and inside its transaction, once the passphrase is known to be right: it compares a code the
/// caller read *before* unlocking with the stored enrolment. It must not prompt.
public typealias SecondFactorCheck = (SecondFactorEnrolment) throws -> SecondFactorVerdict

extension StoreError {
    static let twoFactorSecretMissing = StoreError.corrupted(
        "Two-factor login is on but its secret is missing from the database; restore the database from a backup."
    )
    static let twoFactorSettingAltered = StoreError.corrupted(
        "The two-factor setting in the database was altered, so the data key does not open; restore the database from a backup."
    )
}
