public import Failures
public import Foundation

/// Why an operation on the console's operators refused, in words every front end can show.
public enum OperatorError: Error, Sendable, Hashable {
    /// No operator has this name.
    case notFound(String)
    /// The password breaks a rule (``Operators/checkPassword(_:name:)``); the sentence says which
    /// and what to choose instead.
    case weakPassword(PasswordRule)
    /// A new operator without a role (a console form sent without one).
    case noRole
    /// The change would leave no admin, so nobody could manage operators from the console.
    case lastAdmin(String)
    /// The name or the password is wrong (never which one).
    case loginFailed
    /// The operator has two-factor login on and no code was given.
    case codeRequired
    /// The code is wrong.
    case codeRejected
    /// The code matched but was used already; with the right password, not counted as a failure
    /// (``Store/SecondFactorFailure/countsTowardLockout``).
    case codeReplayed
    /// Too many failed logins: locked until this time.
    case lockedOut(until: Date)
    /// Enrolling a second factor while one is on.
    case twoFactorAlreadyOn(String)
    /// The first code of a new enrolment does not match; nothing was stored.
    case enrolmentCodeMismatch
    /// The stored second factor cannot be decoded.
    case twoFactorUnreadable(String)
    /// No live console session: never signed in, signed out, or timed out.
    case notSignedIn
}

extension OperatorError {
    /// Whether a failed sign-in with this error counts toward the operator's lockout and the
    /// address's throttle: not a code merely asked for after a right password, nor the owner's
    /// own code entered again with it (``Store/SecondFactorFailure/countsTowardLockout``).
    public var countsTowardLockout: Bool {
        switch self {
        case .codeRequired, .codeReplayed: false
        default: true
        }
    }
}

extension OperatorError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .notFound: .notFound
        case .weakPassword, .noRole: .invalidInput
        case .lastAdmin, .twoFactorAlreadyOn: .conflict
        case .loginFailed, .codeRequired, .codeRejected, .codeReplayed, .notSignedIn: .authentication
        case .lockedOut: .locked
        case .enrolmentCodeMismatch: .verificationFailed
        case .twoFactorUnreadable: .corrupted
        }
    }

    public var description: String {
        switch self {
        case .notFound(let name):
            "No operator is named \"\(name)\"; check the spelling against the list of operators."
        case .weakPassword(.tooShort(let length, let least)):
            "The password is too short: it has \(length) characters and \(least) is the least; choose a longer one (a passphrase of several words works well)."
        case .weakPassword(.tooLong(let most)):
            "The password is longer than \(most) bytes; choose a shorter one."
        case .weakPassword(.containsName):
            "The password contains the operator's name, the first thing a guesser tries; choose one without it (a passphrase of several words works well)."
        case .noRole:
            "Choose the new operator's role: viewer, operator or admin."
        case .lastAdmin(let name):
            "\(name) is the last admin; make another operator an admin first, so someone can still manage operators."
        case .loginFailed:
            "The name or the password is wrong; try again (repeated failures lock the operator out for a while)."
        case .codeRequired:
            "This operator has two-factor login on; give the current code from the authenticator app."
        case .codeRejected:
            "The code is wrong; check the code and the clock and try again (repeated failures lock the operator out for a while)."
        case .codeReplayed:
            "That code was already used (a code signs in once, and this try was not counted as a failure); wait until the authenticator app shows the next code and enter that."
        case .lockedOut(let until):
            "Too many failed logins; this operator is locked until \(until.formatted(.iso8601)). Try again then."
        case .twoFactorAlreadyOn(let name):
            "\(name) already has two-factor login on; turn it off first to enrol a new secret."
        case .enrolmentCodeMismatch:
            "That code does not match the new secret; nothing changed, so start the enrolment again."
        case .twoFactorUnreadable(let name):
            "\(name)'s two-factor secret cannot be read; turn two-factor login off for them and enrol again."
        case .notSignedIn:
            "You are not signed in, or your session ended; sign in again."
        }
    }
}

/// The rule a refused operator password breaks.
public enum PasswordRule: Sendable, Hashable {
    /// Fewer characters than ``Operators/minimumPasswordLength``.
    case tooShort(length: Int, least: Int)
    /// More bytes than the most a password may have.
    case tooLong(most: Int)
    /// The operator's name is in it.
    case containsName
}
