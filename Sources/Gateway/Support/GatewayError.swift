/// An error of the gateway's own (not the store's, the modem's or the configuration's), with a
/// sentence saying what to do and the sysexits(3) code the CLI exits with.
public struct GatewayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which kind of failure; decides ``exitCode``.
    public enum Kind: Sendable, Equatable {
        /// A contact is not paired, has no number, or the text cannot be sent. Exit 65.
        case dataError
        /// A named thing does not exist. Exit 66.
        case notFound
        /// No modem can be used (none configured, all stopped). Exit 69.
        case unavailable
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// 65 (EX_DATAERR), 66 (EX_NOINPUT) or 69 (EX_UNAVAILABLE), as in the CLI's ExitCode.swift.
    public var exitCode: Int32 {
        switch kind {
        case .dataError: 65
        case .notFound: 66
        case .unavailable: 69
        }
    }

    public var description: String { message }
}
