public import Failures

/// One line of the daemon's preflight: what was checked, what was found, and whether it stops
/// `serve` (and of which kind the problem is, for the front end's exit status).
public struct PreflightFinding {
    /// How the check came out.
    public enum Outcome {
        /// Fine as it is.
        case ok
        /// A problem of this kind; ``PreflightFinding/detail`` says what to fix.
        case problem(ErrorCategory)
        /// An error the front end words itself (a wrong passphrase, a bad modem table); the detail is empty.
        case failed(any Error)
    }

    /// What to do about a problem that a front end names in its own words (its commands).
    public enum Remedy: Sendable, Equatable {
        /// Create the data directory and the account.
        case createAccount
        /// Run the check as the owner of the data directory (the service user).
        case runAsOwner
        /// Give the service user access to the device (its group, or the udev rule).
        case grantDevice
    }

    /// What was checked: "configuration", "modem north", "data directory", "daemon", "passphrase".
    public var subject: String
    /// What was found, one sentence without its final full stop when a ``remedy`` follows.
    public var detail: String
    public var outcome: Outcome
    public var remedy: Remedy?

    public init(_ subject: String, _ detail: String, _ outcome: Outcome = .ok, remedy: Remedy? = nil) {
        self.subject = subject
        self.detail = detail
        self.outcome = outcome
        self.remedy = remedy
    }

    /// Whether this finding stops `serve`.
    public var isProblem: Bool {
        if case .ok = outcome { return false }
        return true
    }
}
