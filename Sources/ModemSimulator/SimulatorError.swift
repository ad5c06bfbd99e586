import Foundation

/// Why the simulator could not do what was asked: a pseudo-terminal, symlink or socket that
/// could not be set up, an unknown number, a control socket that does not answer.
public struct SimulatorError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
