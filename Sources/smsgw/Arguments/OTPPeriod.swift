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
}
