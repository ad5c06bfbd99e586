import ArgumentParser
import Foundation
import Gateway
import SMSCipher
import Store

/// Prints an error as one sentence on stderr and exits with its documented status.
enum ErrorReport {
    /// The sysexits(3) status for an error, or nil when swift-argument-parser owns it
    /// (help, version, usage errors).
    static func exitStatus(for error: any Error) -> Int32? {
        switch error {
        case let error as CLIError: error.status.rawValue
        case let error as StoreError: error.exitCode
        case let error as GatewayError: error.exitCode
        case let error as ConfigurationError: error.exitCode
        case is CipherError: CLIStatus.dataError.rawValue
        default: nil
        }
    }

    /// The one-sentence message for an error the tool itself raised.
    static func message(for error: any Error) -> String {
        switch error {
        case let error as CLIError: error.message
        case let error as StoreError: error.description
        case let error as GatewayError: error.message
        case let error as ConfigurationError: error.message
        case let error as CipherError: error.description
        default: String(describing: error)
        }
    }

    /// Reports `error` and ends the process.
    static func exit(with error: any Error) -> Never {
        if let status = exitStatus(for: error) {
            // Under systemd the line that ends the daemon is an error to journald too (`-p err`).
            Output.error((StandardErrorLogHandler.isJournal ? "<3>" : "") + "smsgw: " + message(for: error))
            Output.flush()
            Foundation.exit(status)
        }
        SMSGW.exit(withError: error)
    }
}
