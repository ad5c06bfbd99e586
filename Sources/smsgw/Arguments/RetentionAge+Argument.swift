public import ArgumentParser
public import Operations

/// `--older-than 30` parses itself: a whole number of days ≥ 0, else a usage error naming the
/// option. The conformance lives here, so Operations does not import ArgumentParser.
extension RetentionAge: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(parsing: argument)
    }

    public var defaultValueDescription: String { "\(days)" }
}
