public import Failures

/// A configuration file or environment variable the gateway cannot use.
///
/// The message names the offending key (as written in the file, for example `intervals.poll_seconds`
/// or `modem[2].device`, or the environment variable) and says what is expected. Its category is
/// always ``Failures/ErrorCategory/configuration``.
public struct ConfigurationError: CategorizedError, Sendable, Equatable {
    /// The key at fault (`log_level`, `intervals.poll_seconds`, `modem[1].pin_file`,
    /// `SMSGW_LOG_LEVEL`), or nil when the whole file is at fault.
    public var key: String?
    /// What is wrong and what to do, in plain sentences.
    public var message: String

    public init(key: String?, _ message: String) {
        self.key = key
        self.message = message
    }

    public var category: ErrorCategory { .configuration }

    public var description: String { message }
}
