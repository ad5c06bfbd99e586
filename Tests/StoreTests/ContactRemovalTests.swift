import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("Removing a contact leaves nothing of it on disk", .blockingOffPool)
struct ContactRemovalTests {
    static let name = "Quillon-Unique-Contact"
    static let number = "+447700900456"
    static let ciphertext = "CIPHERTEXT-OF-QUILLON-7Yq2kP"

    /// A contact with a number, a session, a logged message and a queued SMS, all still in the -wal.
    func contactInTheLog() throws -> (TemporaryDirectory, GatewayStore, UnlockedStore) {
        let (directory, store, unlocked) = try TestStore.unlockedStore()
        let contact = try unlocked.addContact(name: Self.name, number: TestStore.number(Self.number), pairingCode: Data("code".utf8))
        try unlocked.write { tx in
            try tx.setPaired(contact, session: Data(repeating: 7, count: 64))
            let id = try tx.appendLog(
                NewLogEntry(direction: .outgoing, contact: contact, status: .queued, text: "hello", ciphertext: Self.ciphertext))
            try tx.enqueueOutbox(Self.ciphertext, to: contact, messageID: id)
        }
        let needles = [Self.name, Self.number, Self.ciphertext].map { Data($0.utf8) }
        #expect(needles.contains { !directory.filesContaining($0).isEmpty }, "the test needs the contact on disk first")
        return (directory, store, unlocked)
    }

    func expectGone(_ directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation) {
        for needle in [Self.name, Self.number, Self.ciphertext] {
            #expect(directory.filesContaining(Data(needle.utf8)).isEmpty, "\(needle) is still on disk", sourceLocation: sourceLocation)
        }
    }

    @Test("The name, the number and the ciphertext are in neither the -wal nor the database once remove returns")
    func nothingLeft() throws {
        let (directory, _, unlocked) = try contactInTheLog()
        try unlocked.removeContact(named: Self.name)
        expectGone(directory)
    }

    @Test("Another process reading at the moment of removal only delays the wipe")
    func readerElsewhere() throws {
        let (directory, _, unlocked) = try contactInTheLog()
        // A second pool on the same file stands for the daemon: it holds a read transaction open
        // (pinning the -wal) for a moment after the removal has started. Plain threads, not
        // tasks: the removal blocks this one while it waits.
        let other = try directory.open()
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? other.pool.read { db in
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM contacts")
                started.signal()
                Thread.sleep(forTimeInterval: 0.3)
            }
            done.signal()
        }
        started.wait()
        try unlocked.removeContact(named: Self.name)
        done.wait()
        expectGone(directory)
    }
}
