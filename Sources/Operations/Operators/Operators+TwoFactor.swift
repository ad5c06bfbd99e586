public import Foundation
import OTP
public import Store

extension Operators {
    /// The issuer authenticator apps show for an operator's login secret.
    public static let twoFactorIssuer = "smsgw console"

    /// A new TOTP enrolment for the operator (SHA-1, 6 digits, 30 s), not stored yet: its URI
    /// (and QR code) go into the operator's authenticator app, whose first code
    /// ``enableTwoFactor(_:proposal:code:by:in:now:)`` checks.
    ///
    /// - Throws: ``OperatorError/notFound(_:)``, ``OperatorError/twoFactorAlreadyOn(_:)`` (before
    ///   anything is shown).
    public static func proposeTwoFactor(
        for name: String, in store: UnlockedStore, using rng: inout some RandomNumberGenerator
    ) throws -> TwoFactorProposal {
        let current = try store.read { try record(name, in: $0) }
        if current.secondFactor != nil { throw OperatorError.twoFactorAlreadyOn(current.name) }
        let key = OTPEnrolment.randomSecret(byteCount: 20, using: &rng)
        let uri = try OTPEntryError.mapping {
            try OTPAuthURI(totp: TOTP(secret: key), issuer: twoFactorIssuer, account: current.name)
        }
        return TwoFactorProposal(uri: uri, enrolment: OTPEnrolment(uri: uri))
    }

    /// Turns two-factor login on for the operator once `code` proves the authenticator has the
    /// proposal's secret; the accepted code cannot log in afterwards.
    /// - Throws: ``OperatorError/enrolmentCodeMismatch`` (nothing stored),
    ///   ``OperatorError/twoFactorAlreadyOn(_:)`` when it was turned on meanwhile.
    public static func enableTwoFactor(
        _ name: String, proposal: TwoFactorProposal, code: String, by actor: AuditActor, in store: UnlockedStore, now: Date
    ) throws {
        let enrolment = proposal.enrolment
        let verification = try enrolment.verifier().verify(code, state: enrolment.initialState, now: TOTP.unixTime(now))
        guard verification.result.isAccepted else { throw OperatorError.enrolmentCodeMismatch }
        let stored = SecondFactorEnrolment(secret: try enrolment.encoded(), state: try OTPEnrolment.encodeState(verification.state))
        try store.write { tx in
            let current = try record(name, in: tx)
            if current.secondFactor != nil { throw OperatorError.twoFactorAlreadyOn(current.name) }
            try tx.updateOperator(current, OperatorChange(secondFactor: .some(stored)))
            try Audit.record(.operatorTwoFactorChanged, by: actor, target: "\(current.name) (on)", in: tx, now: now)
        }
    }

    /// Turns the operator's two-factor login off (an admin's remedy for a lost authenticator).
    /// - Returns: false when it was already off.
    @discardableResult
    public static func disableTwoFactor(_ name: String, by actor: AuditActor, in store: UnlockedStore, now: Date) throws -> Bool {
        try store.write { tx in
            let current = try record(name, in: tx)
            guard current.secondFactor != nil else { return false }
            try tx.updateOperator(current, OperatorChange(secondFactor: .some(nil)))
            try Audit.record(.operatorTwoFactorChanged, by: actor, target: "\(current.name) (off)", in: tx, now: now)
            return true
        }
    }
}
