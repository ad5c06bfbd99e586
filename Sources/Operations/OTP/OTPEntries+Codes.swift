public import Foundation
import OTP
public import Store

extension OTPEntries {
    /// The entry's code: a TOTP entry's for `time` (default `now`), or an HOTP entry's next
    /// code, whose counter moves on in the same transaction so no code is given twice.
    ///
    /// - Parameters:
    ///   - time: The time to compute a TOTP code for; refused for an HOTP entry.
    ///   - now: The current time.
    /// - Throws: ``OTPEntryError/timeForCounterEntry(_:)``, ``OTPEntryError/counterExhausted(_:)``,
    ///   ``OTPEntryError/invalid(_:)`` for a time TOTP cannot use; the store's
    ///   ``StoreError/notFound(_:)``.
    public static func code(named name: String, in store: UnlockedStore, at time: Date?, now: Date) throws -> String {
        try currentCode(named: name, in: store, at: time, now: now).code
    }

    /// ``code(named:in:at:now:)`` with how many more seconds a TOTP code stays valid at `time`
    /// (default `now`), as `vault code` tells; nil for an HOTP code, valid until it is used.
    public static func currentCode(named name: String, in store: UnlockedStore, at time: Date?, now: Date) throws -> (
        code: String, validFor: Int64?
    ) {
        try requireUserName(name)
        return try store.write { tx in
            let entry = try tx.otpEntry(named: name)
            var enrolment = try enrolment(of: entry)
            let uri = try enrolment.uri()
            if let totp = uri.totp {
                let moment = TOTP.unixTime(time ?? now)
                let code = try OTPEntryError.mapping { try totp.code(at: moment) }
                return (code, totp.period - (moment - totp.startTime) % totp.period)
            }
            if time != nil { throw OTPEntryError.timeForCounterEntry(entry.name) }
            let counter = enrolment.counter ?? 0
            guard counter < .max else { throw OTPEntryError.counterExhausted(entry.name) }
            enrolment.counter = counter + 1
            try tx.updateOTPEntry(named: entry.name, secret: enrolment.encoded())
            return (uri.hotp.code(counter: counter), nil)
        }
    }

    /// Checks a code as typed (spaces ignored): a TOTP code one step either side of `now`, an
    /// HOTP code up to 10 counters ahead. The verification state (last accepted step, failures,
    /// refusal time) is committed whatever the outcome, before the outcome is thrown, so a code
    /// is accepted at most once across processes and failures count.
    ///
    /// A code that is not the entry's number of digits is a typing slip: refused before it is
    /// compared, and not counted as a failure.
    ///
    /// - Throws: ``OTPEntryError/malformedCode(_:digits:length:)``, ``OTPEntryError/codeRejected(_:)``,
    ///   ``OTPEntryError/codeReplayed(_:)``, ``OTPEntryError/throttled(_:until:now:)``; the
    ///   store's ``StoreError/notFound(_:)``.
    public static func verify(_ code: String, named name: String, in store: UnlockedStore, now: Date) throws {
        try requireUserName(name)
        let (entryName, result) = try store.write { tx in
            let entry = try tx.otpEntry(named: name)
            let enrolment = try enrolment(of: entry)
            let typed = code.utf8.filter { $0 != UInt8(ascii: " ") }
            guard typed.count == enrolment.digits, typed.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                throw OTPEntryError.malformedCode(entry.name, digits: enrolment.digits, length: typed.count)
            }
            let state = try OTPEnrolment.decodeState(
                entry.state, initial: enrolment.initialState, unreadable: OTPEntryError.stateUnreadable(entry.name))
            let outcome = try enrolment.verifier().verify(code, state: state, now: TOTP.unixTime(now))
            if outcome.state != state {
                try tx.updateOTPEntry(named: entry.name, state: OTPEnrolment.encodeState(outcome.state))
            }
            return (entry.name, outcome.result)
        }
        switch result {
        case .accepted: return
        case .rejected: throw OTPEntryError.codeRejected(entryName)
        case .replayed: throw OTPEntryError.codeReplayed(entryName)
        case .throttled(let until):
            throw OTPEntryError.throttled(entryName, until: Date(timeIntervalSince1970: TimeInterval(until)), now: now)
        }
    }
}
