/// The faults a simulated network or modem injects into SMS traffic.
///
/// A modem's plan and the network's global plan both apply to a message: probabilities are
/// tried one after the other (so a 10% global drop and a 10% modem drop lose 19%), a modem's
/// delay range wins over the global one, and a send error is tried for the modem first.
public struct FaultPlan: Sendable, Equatable, Codable {
    /// Probability, 0...1, that the SMSC silently loses a submitted SMS (no status report).
    public var dropRate: Double
    /// Probability, 0...1, that the recipient gets the SMS twice.
    public var duplicateRate: Double
    /// A random delay in seconds before delivery; independent per message, so it reorders them.
    public var delay: ClosedRange<Double>?
    /// Probability, 0...1, that one character of the user data is changed in transit.
    public var corruptRate: Double
    /// A `+CMS ERROR` answered to AT+CMGS instead of accepting the SMS.
    public var sendError: SendErrorFault?

    public init(
        dropRate: Double = 0, duplicateRate: Double = 0, delay: ClosedRange<Double>? = nil,
        corruptRate: Double = 0, sendError: SendErrorFault? = nil
    ) {
        self.dropRate = dropRate
        self.duplicateRate = duplicateRate
        self.delay = delay
        self.corruptRate = corruptRate
        self.sendError = sendError
    }

    /// No faults at all.
    public static let none = FaultPlan()

    /// Whether the plan injects anything.
    public var isEmpty: Bool { self == .none }
}

/// A `+CMS ERROR: <code>` that AT+CMGS answers with the given probability.
///
/// Codes worth knowing (3GPP TS 27.005 §3.2.5, TS 24.011 annex E): 38 network out of order
/// (temporary), 41 temporary failure, 42 congestion, 21 short message transfer rejected
/// (permanent), 1 unassigned number (permanent), 500 unknown error.
public struct SendErrorFault: Sendable, Equatable, Codable {
    public var cmsCode: Int
    public var probability: Double

    public init(cmsCode: Int, probability: Double = 1) {
        self.cmsCode = cmsCode
        self.probability = probability
    }
}
