public import ArgumentParser
public import Store

/// `log --state failed`: one of the statuses the log writes, offered by help and completion; any
/// other is a usage error listing them, before the passphrase is asked for.
extension MessageStatus: ExpressibleByArgument {
    public init?(argument: String) {
        guard let known = Self.known.first(where: { $0.rawValue == argument }) else { return nil }
        self = known
    }

    public static var allValueStrings: [String] { known.map(\.rawValue) }
}

/// `log --direction in|out`.
extension MessageDirection: ExpressibleByArgument {}
