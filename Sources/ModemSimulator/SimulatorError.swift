public import Failures
import Foundation

/// Why the simulator could not do what was asked: a pseudo-terminal, symlink or socket that
/// could not be set up, an unknown number, a control socket that does not answer.
public struct SimulatorError: CategorizedError, Sendable {
    public var message: String
    /// What kind of failure it is, for the front end's status: by default the simulator, or
    /// what it needs from the system, is unavailable.
    public var category: ErrorCategory

    public init(_ message: String, category: ErrorCategory = .unavailable) {
        self.message = message
        self.category = category
    }

    public var description: String { message }
}
