public import ArgumentParser
public import Operations

/// `--older-than 30` parses itself: a whole number of days ≥ 0, else a usage error naming the
/// option. The conformance lives here, so Operations does not import ArgumentParser.
extension RetentionAge: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(parsing: argument)
    }

    public var defaultValueDescription: String { "\(days)" }

    /// Parses an option's value, failing with what to give instead: "invalid" alone does not say.
    static func parsing(_ argument: String) throws -> RetentionAge {
        guard let age = RetentionAge(argument: argument) else {
            throw ValidationError("It takes a whole number of days, 0 or more, e.g. 30.")
        }
        return age
    }
}
