public import Foundation

/// Failed authentications counted per client address: after ``limit`` failures within
/// ``window``, a request from the address whose token is missing or fails is refused as
/// throttled until the window has passed since its first failure.
///
/// A request with a valid token is served whatever its address's count: clients behind one
/// address (loopback, a reverse proxy) must not lock each other out. That gives a guesser
/// nothing: a token is 256 random bits, so learning that one guess was wrong does not bring the
/// next closer. A valid token leaves the count as it is, so that a working client on the same
/// address cannot reset the throttle for a guesser beside it.
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

    /// The error to answer a failed authentication from `address` with: `error`, counted against
    /// the address, or ``APITokenError/throttled(until:)`` once the address has used up its
    /// failures.
    public func refusal(_ error: APITokenError, from address: String, now: Date) -> APITokenError {
        if let until = counts.blockedUntil(address, now: now) { return .throttled(until: until) }
        counts.fail(address, now: now)
        return error
    }
}
