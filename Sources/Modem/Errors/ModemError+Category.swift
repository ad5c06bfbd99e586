public import Failures

extension ModemError: CategorizedError {
    /// What kind of failure this is for a front end: a modem that cannot be reached or refused the
    /// SMS is unavailable, a wrong or missing PIN is an authentication failure, a PUK-locked SIM
    /// is locked, a text or number the modem cannot take is invalid input.
    public var category: ErrorCategory {
        switch code {
        case .wrongPIN, .pinRequired: .authentication
        case .simLocked: .locked
        case .invalidMessage, .invalidNumber: .invalidInput
        case .invalidLocation: .notFound
        case .configuration: .configuration
        default: .unavailable
        }
    }
}
