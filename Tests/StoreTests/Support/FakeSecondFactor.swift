import Foundation

@testable import Store

/// A stand-in for the CLI's TOTP check: the secret lists the codes that are right, and the state
/// lists the codes already accepted, so a second use of one is a replay.
enum FakeSecondFactor {
    static let codes = ["111111", "222222", "333333", "444444"]
    static let enrolment = SecondFactorEnrolment(secret: Data(codes.joined(separator: ",").utf8), state: nil)

    /// The check the store runs for a code read before unlocking; `calls` counts its runs.
    static func check(_ code: String, calls: Counter? = nil) -> SecondFactorCheck {
        { stored in
            calls?.value += 1
            let right = String(decoding: stored.secret, as: UTF8.self).split(separator: ",")
            let used = stored.state.map { String(decoding: $0, as: UTF8.self) } ?? ""
            guard right.contains(Substring(code)) else { return SecondFactorVerdict(failure: .wrong, state: nil) }
            guard !used.split(separator: ",").contains(Substring(code)) else {
                return SecondFactorVerdict(failure: .replayed, state: nil)
            }
            return .accepted(state: Data((used.isEmpty ? code : used + "," + code).utf8))
        }
    }

    /// A counter the check closures can bump (the store runs them synchronously).
    final class Counter: @unchecked Sendable {
        var value = 0
    }
}
