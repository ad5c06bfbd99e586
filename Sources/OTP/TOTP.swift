public import Foundation

/// A time-based one-time passcode generator (RFC 6238).
///
/// TOTP is HOTP whose counter is the number of whole ``period``s elapsed since the start time
/// ``startTime`` (T0): `T = floor((now - T0) / period)`. Time is a signed 64-bit count of Unix
/// seconds, so dates far past 2038 (RFC 6238's test time 20000000000, in the year 2603) work.
///
/// ```swift
/// let totp = try TOTP(secret: secret, algorithm: .sha256, digits: 8)
/// let code = try totp.code(at: 1_111_111_109)   // "68084774" for the RFC 6238 SHA-256 seed
/// ```
public struct TOTP: Sendable, Hashable {
    /// The usual period, 30 seconds, as recommended by RFC 6238 §5.2.
    public static let defaultPeriod: Int64 = 30

    /// The HOTP generator that turns time steps into codes.
    public let hotp: HOTP
    /// The length of one time step in seconds (X in RFC 6238).
    public let period: Int64
    /// The Unix time at which step 0 begins (T0 in RFC 6238), usually 0.
    public let startTime: Int64

    /// Creates a generator.
    /// - Parameters:
    ///   - secret: The shared secret key.
    ///   - algorithm: The HMAC hash.
    ///   - digits: Code length, 6 to 8.
    ///   - period: Seconds per step; any positive value.
    ///   - startTime: T0, the Unix time of step 0.
    /// - Throws: ``OTPError`` for a digit count outside 6...8 or a period that is not positive.
    public init(
        secret: OTPSecret,
        algorithm: OTPAlgorithm = .sha1,
        digits: Int = 6,
        period: Int64 = TOTP.defaultPeriod,
        startTime: Int64 = 0
    ) throws(OTPError) {
        guard period > 0 else { throw OTPError.invalidPeriod(period) }
        self.hotp = try HOTP(secret: secret, algorithm: algorithm, digits: digits)
        self.period = period
        self.startTime = startTime
    }

    /// The shared secret key.
    public var secret: OTPSecret { hotp.secret }
    /// The hash under the HMAC.
    public var algorithm: OTPAlgorithm { hotp.algorithm }
    /// The number of decimal digits in each code.
    public var digits: Int { hotp.digits }

    /// The time step containing a moment: `floor((unixTime - T0) / period)`.
    /// - Parameter unixTime: Seconds since 1970-01-01 00:00:00 UTC.
    /// - Returns: The step, which is the HOTP counter.
    /// - Throws: ``OTPError`` with code ``OTPError/Code/timeOutOfRange`` for a time before T0.
    public func step(at unixTime: Int64) throws(OTPError) -> UInt64 {
        let (elapsed, overflow) = unixTime.subtractingReportingOverflow(startTime)
        guard !overflow, elapsed >= 0 else {
            throw OTPError(
                code: .timeOutOfRange,
                message: "time \(unixTime) is before the TOTP start time \(startTime); "
                    + "check the system clock and the configured start time"
            )
        }
        return UInt64(elapsed / period)
    }

    /// The Unix time at which a step begins.
    /// - Parameter step: A time step.
    /// - Returns: `T0 + step * period`, or `nil` if that does not fit in 64 bits.
    public func startOfStep(_ step: UInt64) -> Int64? {
        guard let signedStep = Int64(exactly: step) else { return nil }
        let (offset, overflow) = signedStep.multipliedReportingOverflow(by: period)
        guard !overflow else { return nil }
        let (start, overflow2) = startTime.addingReportingOverflow(offset)
        return overflow2 ? nil : start
    }

    /// The passcode valid at a moment.
    /// - Parameter unixTime: Seconds since 1970-01-01 00:00:00 UTC.
    /// - Returns: The code for the step containing that moment, leading zeros kept.
    /// - Throws: ``OTPError`` with code ``OTPError/Code/timeOutOfRange`` for a time before T0.
    public func code(at unixTime: Int64) throws(OTPError) -> String {
        try hotp.code(counter: step(at: unixTime))
    }

    /// The passcode valid at a date, whose fraction of a second is dropped.
    /// - Parameter date: The moment.
    /// - Returns: The code for the step containing that moment.
    /// - Throws: ``OTPError`` with code ``OTPError/Code/timeOutOfRange`` for a date before T0.
    public func code(at date: Date) throws(OTPError) -> String {
        try code(at: Self.unixTime(date))
    }

    /// The passcode for a given time step.
    /// - Parameter step: The step, as returned by ``step(at:)``.
    /// - Returns: The code, leading zeros kept.
    public func code(step: UInt64) -> String {
        hotp.code(counter: step)
    }

    /// Whole Unix seconds of a date, rounded down so a moment belongs to the step it falls in.
    /// - Parameter date: The moment.
    /// - Returns: Seconds since 1970-01-01 00:00:00 UTC, clamped to the range of `Int64`.
    public static func unixTime(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite else { return seconds < 0 ? .min : .max }
        return Int64(exactly: seconds) ?? (seconds < 0 ? .min : .max)
    }
}
