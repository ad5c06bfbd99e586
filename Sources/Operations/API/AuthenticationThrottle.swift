public import Foundation

/// Failed authentications counted per client address: after ``limit`` failures within
/// ``window`` an address is refused, without looking at its token, until the window has passed
/// since its first failure. A success clears the address's count.
///
/// One per API listener, in memory: a restart forgets the counts, which costs an attacker a
/// daemon restart they cannot cause.
public final class AuthenticationThrottle: Sendable {
    public var limit: Int { counts.limit }
    public var window: TimeInterval { counts.window }
    /// The per-address counting, shared with the console's sign-in (``AddressThrottle``).
    private let counts: AddressThrottle

    public init(limit: Int = 10, window: TimeInterval = 60) {
        counts = AddressThrottle(limit: limit, window: window)
    }

    /// Throws ``APITokenError/throttled(until:)`` while `address` has used up its failures.
    public func check(_ address: String, now: Date) throws(APITokenError) {
        if let until = counts.blockedUntil(address, now: now) { throw .throttled(until: until) }
    }

    /// Counts a failed authentication from `address`.
    public func recordFailure(_ address: String, now: Date) {
        counts.fail(address, now: now)
    }

    /// Forgets the address's failures after a success.
    public func recordSuccess(_ address: String) {
        counts.succeed(address)
    }
}
