import Failures
import Foundation
import GSM7
import Gateway
import Modem
import Operations
import SMSCipher
import Store
import Testing

/// The errors and advice below the CLI speak to every front end: a sentence that says what to do,
/// a category, and no command or option of the CLI (which adds its own hints).
@Suite("Sentences below the CLI")
struct NeutralSentenceTests {
    static let errors: [any CategorizedError] = [
        StoreError.notFound(.account), StoreError.notFound(.contact(named: "bob")),
        StoreError.notFound(.removedContact("bob")), StoreError.notFound(.removedContact(nil)),
        StoreError.notFound(.message(id: 42)), StoreError.notFound(.otpEntry(named: "bank")),
        StoreError.notFound(.outboxEntry(id: 7)), StoreError.daemonRunning(pid: 1234), StoreError.daemonRunning(pid: 0),
        GatewayError.noModem, GatewayError.statusSocketPathTooLong("/run/x.sock"),
        GatewayError.modemOfAnotherNode(modem: "m1", node: "alpha"),
        GSM7Error.unsupportedCharacters([.init(character: "☃", position: 6)]), GSM7Error.invalidSeptets(position: 3),
        CipherError.unsupportedText(.unsupportedCharacters([.init(character: "☃", position: 6)])),
        CipherError.conflictingHandshake, CipherError.notAuthentic, CipherError.beyondWindow(ahead: 900),
    ]

    @Test("Each error names no front-end command or option")
    func neutralErrors() {
        for error in Self.errors {
            let sentence = error.description
            #expect(sentence.hasSuffix("."), "\(sentence)")
            #expect(!sentence.contains("smsgw ") && !sentence.contains("`") && !sentence.contains(" --"), "\(sentence)")
        }
    }

    @Test("Each error has the category the CLI's documented exit status follows from")
    func categories() {
        #expect(StoreError.notFound(.contact(named: "bob")).category == .notFound)
        #expect(StoreError.daemonRunning(pid: 1).category == .conflict)
        #expect(GatewayError.noModem.category == .unavailable)
        #expect(GSM7Error.invalidSeptets(position: 0).category == .invalidInput)
        #expect(CipherError.duplicate.category == .verificationFailed && CipherError.corruptedState.category == .corrupted)
        #expect(ModemError(.wrongPIN, "The SIM refused the PIN.").category == .authentication)
        #expect(ModemError(.configuration, "No gammurc.").category == .configuration)
        #expect(ModemError(.deviceGone, "Unplugged.").category == .unavailable)
        #expect(ConfigurationError(key: "log_level", "log_level must be a level.").category == .configuration)
    }

    static let advice: [SyncAdvice] = [
        .pair, .decideResyncRequest(code: "123 456"), .restartUnansweredResync(code: "123 456"),
        .awaitResyncAnswer(code: "123 456"), .resync(failures: 3),
        .resyncAfterRestore(restoredAt: Date(timeIntervalSince1970: 1_800_000_000)),
        .pairAgainAfterRestore(restoredAt: Date(timeIntervalSince1970: 1_800_000_000)),
    ]

    @Test("Sync advice says what to do without a command, and round-trips through its JSON")
    func syncAdvice() throws {
        for advice in Self.advice {
            #expect(!advice.sentence.contains("smsgw") && !advice.sentence.contains("`"), "\(advice.sentence)")
            var restoredAt: Date?
            if case .resyncAfterRestore(let time) = advice { restoredAt = time }
            if case .pairAgainAfterRestore(let time) = advice { restoredAt = time }
            let state = GatewayStatus.SyncState(state: .failing, consecutiveFailures: 3, advice: advice, keysRestoredAt: restoredAt)
            let json = try OperationsJSON.encoder.encode(state)
            let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            #expect(object["action"] as? String == advice.action.rawValue && object["advice"] as? String == advice.sentence)
            #expect((object["keysRestoredAt"] as? String) == restoredAt.map(OperationsJSON.timestamp))
            // The CLI reads the daemon's status with dates as seconds (the status socket's coding).
            let wire = JSONEncoder()
            wire.dateEncodingStrategy = .secondsSince1970
            let reader = JSONDecoder()
            reader.dateDecodingStrategy = .secondsSince1970
            #expect(try reader.decode(GatewayStatus.SyncState.self, from: wire.encode(state)) == state)
        }
        let ok = try OperationsJSON.string(GatewayStatus.SyncState(state: .ok, consecutiveFailures: 0, advice: nil))
        #expect(ok == #"{"action":null,"advice":null,"consecutiveFailures":0,"keysRestoredAt":null,"resyncCode":null,"state":"ok"}"#)
    }
}
