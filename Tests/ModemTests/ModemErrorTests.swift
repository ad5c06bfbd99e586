import Testing

@testable import Modem

@Suite("ModemError classification")
struct ModemErrorTests {
    @Test(arguments: [17, 22, 27, 38, 41, 42, 47, 81, 98, 111, 127, 192, 194, 208, 300, 314, 320, 322, 331, 332, 500, 512])
    func temporaryCMS(code: Int) {
        #expect(ModemError.sendRejected(cms: code).isRetryable)
    }

    @Test(arguments: [
        1, 8, 10, 21, 28, 29, 30, 50, 69, 95, 96, 97, 99, 128, 144, 160, 193, 195, 196, 303, 310, 311, 313, 316, 321, 330,
    ])
    func permanentCMS(code: Int) {
        #expect(!ModemError.sendRejected(cms: code).isRetryable)
    }

    /// A PDU checked bit for bit before it went out, refused as not allowed or invalid: the
    /// exchange was out of step (a loaded machine), not the SMS wrong. Outside a send the same
    /// numbers stay permanent.
    @Test(arguments: [302, 304, 305])
    func aVerifiedPDURefusedByTheModemIsRetried(code: Int) {
        let refused = ModemError.sendRejected(cms: code)
        #expect(refused.isRetryable && !refused.needsRecovery)
        #expect(refused.description.contains("temporary"))
        #expect(!ModemError(.modemFailure, "Reading messages failed.", cmsError: code).isRetryable)
    }

    @Test func aCMENumberInTheSendStatusIsClassifiedAsCME() {
        // CME 30 is "no network service" (temporary); read as CMS 30 it was "unknown subscriber".
        let noNetwork = ModemError.sendRefused(status: 30, cms: nil, cme: 30)
        #expect(noNetwork.isRetryable && noNetwork.cmeError == 30 && noNetwork.cmsError == nil)
        #expect(noNetwork.description.contains("+CME ERROR 30"))
        #expect(!ModemError.sendRefused(status: 10, cms: nil, cme: 10).isRetryable)
        #expect(!ModemError.sendRefused(status: 30, cms: 30, cme: nil).isRetryable)
        #expect(ModemError.sendRefused(status: 42, cms: 42, cme: 30).cmsError == 42)
    }

    @Test func descriptionsSayWhatToDo() {
        #expect(ModemError.sendRejected(cms: 330).description.contains("SMSC"))
        #expect(ModemError.sendRejected(cms: 1).description.contains("destination number"))
        #expect(ModemError.ambiguousSend(after: .seconds(3)).description.contains("never encrypt new text"))
        #expect(ModemError.ambiguousSend(after: .seconds(3)).mayHaveBeenSent)
        #expect(ModemError.timeout("probing", after: .seconds(2)).needsRecovery)
    }

    @Test func wrongPINIsPermanent() {
        let error = GammuSession.wrongPIN(device: "/dev/ttyUSB0", again: false)
        #expect(error.code == .wrongPIN)
        #expect(!error.isRetryable)
        #expect(error.description.contains("PUK"))
    }

    @Test func cmsNumbersAreFoundInLibgammuDebugText() {
        let context = GammuCallbackContext()
        "2 \"+CMS ERROR: 38\"".withCString { context.scanDebugText($0) }
        #expect(context.lastCMSError == 38)
        "CME Error 16: \"Incorrect password\"".withCString { context.scanDebugText($0) }
        #expect(context.lastCMEError == 16)
    }

    @Test func configurationNeverShowsThePIN() {
        let configuration = ModemConfiguration(device: "/dev/ttyUSB0", pin: "2468")
        #expect(!configuration.description.contains("2468"))
        #expect(configuration.description.contains("pin: set"))
    }

    @Test func outgoingTextIsValidated() throws {
        let sms = try OutgoingSMS(text: "€ uses two", number: " +4915112345678 ", statusReport: true)
        #expect(sms.septets.count == 11)
        #expect(sms.number == "+4915112345678")
        #expect(throws: ModemError.self) { try OutgoingSMS(text: "ok", number: "+49 151", statusReport: false) }
        #expect(throws: ModemError.self) { try OutgoingSMS(text: "😀", number: "+49151", statusReport: false) }
    }
}
