public import ArgumentParser
public import OTP

/// `--algorithm sha256` parses itself, in any case and with or without the hyphen (`SHA-256`);
/// a wrong name is a usage error listing the three. The conformance lives here, so OTP does not
/// import ArgumentParser.
extension OTPAlgorithm: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(name: argument)
    }

    /// The spellings help and completion offer: the lower-case names.
    public static var allValueStrings: [String] { allCases.map { $0.rawValue.lowercased() } }

    public var defaultValueDescription: String { rawValue.lowercased() }

    /// None: the option's help names the three, and argument-parser would otherwise list each
    /// name again under it with an empty description (its raw value differs from its spelling).
    public static var allValueDescriptions: [String: String] { [:] }
}
