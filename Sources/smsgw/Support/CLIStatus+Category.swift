import Failures

extension CLIStatus {
    /// The documented exit status for a kind of failure (docs/CLI.md, "Exit status"): the one
    /// place where the application layer's categories become sysexits(3) codes.
    init(_ category: ErrorCategory) {
        switch category {
        case .invalidInput, .verificationFailed, .conflict, .corrupted: self = .dataError
        case .notFound: self = .notFound
        case .unavailable: self = .unavailable
        case .authentication, .forbidden, .locked: self = .authentication
        case .configuration: self = .configuration
        case .busy: self = .temporaryFailure
        case .storage: self = .ioError
        case .internalFault: self = .internalFault
        }
    }
}
