public import Failures

extension OTPError: CategorizedError {
    /// Always ``Failures/ErrorCategory/invalidInput``: every OTP error is about a secret, URI,
    /// parameter or time the caller gave.
    public var category: ErrorCategory { .invalidInput }
}
