import ArgumentParser

/// Whole-number options that take no negative value (`init --kdf-memory`, `otp add --counter`,
/// `sim --seed`): `-1` is refused saying what the option takes, where the integer parser's
/// "invalid" alone does not. Declared with `parsing: .unconditional`, as every numeric option is,
/// so a negative value reaches this check instead of being read as an option.
enum WholeNumber {
    /// 1 or more.
    static func aboveZero<Value: FixedWidthInteger>(_ argument: String) throws -> Value {
        guard let value = Value(argument.trimmingCharacters(in: .whitespaces)), value > 0 else {
            throw ValidationError("It takes a whole number above 0.")
        }
        return value
    }

    /// 0 or more.
    static func zeroOrMore<Value: FixedWidthInteger>(_ argument: String) throws -> Value {
        guard let value = Value(argument.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw ValidationError("It takes a whole number, 0 or more.")
        }
        return value
    }
}
