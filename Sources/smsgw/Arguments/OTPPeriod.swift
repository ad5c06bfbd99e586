import ArgumentParser

/// `otp add --period 30` parses itself: a TOTP step of a positive whole number of seconds (as an
/// otpauth URI's `period`); anything else is a usage error naming the option.
struct OTPPeriod: ExpressibleByArgument {
    let seconds: Int64

    init?(argument: String) {
        guard let seconds = Int64(argument.trimmingCharacters(in: .whitespaces)), seconds > 0 else { return nil }
        self.seconds = seconds
    }

    var defaultValueDescription: String { "\(seconds)" }

    /// Parses an option's value, failing with what to give instead: "invalid" alone does not say.
    static func parsing(_ argument: String) throws -> OTPPeriod {
        guard let period = OTPPeriod(argument: argument) else {
            throw ValidationError("It takes a whole number of seconds above 0, e.g. 30.")
        }
        return period
    }
}
