public import OTP
public import Store

/// What ``OTPEntries/add(_:named:to:using:)`` enrolled.
public struct AddedOTPEntry: Sendable {
    /// The entry as listed.
    public var summary: OTPEntrySummary
    /// Its enrolment URI, which holds the secret: shown once for a generated secret.
    public var uri: OTPAuthURI
}

extension OTPEntries {
    /// Enrols a generator under `name`, in one transaction.
    ///
    /// - Parameters:
    ///   - request: The secret's source and the parameters.
    ///   - name: 1 to 64 characters, unique without regard to case, not the reserved login name.
    ///   - rng: The source of a generated secret; pass `SystemRandomNumberGenerator` outside tests.
    /// - Throws: ``OTPEntryError/reservedName(_:)``, ``OTPEntryError/parametersWithURI``,
    ///   ``OTPEntryError/invalid(_:)``; the store's errors for a taken or refused name.
    @discardableResult
    public static func add(
        _ request: OTPEnrolmentRequest, named name: String, to store: UnlockedStore,
        using rng: inout some RandomNumberGenerator
    ) throws -> AddedOTPEntry {
        try requireUserName(name)
        // A command line reads a name starting with a dash as options: no `otp code NAME` would work.
        if name.trimmingCharacters(in: .whitespaces).hasPrefix("-") { throw OTPEntryError.nameStartsWithDash(name) }
        let enrolment = try request.enrolment(named: name, using: &rng)
        let uri = try enrolment.uri()
        let entry = try store.write { tx in
            try tx.addOTPEntry(
                name: name, secret: enrolment.encoded(), state: OTPEnrolment.encodeState(enrolment.initialState))
        }
        return AddedOTPEntry(
            summary: OTPEntrySummary(name: entry.name, enrolment: enrolment, createdAt: entry.createdAt), uri: uri)
    }
}
