import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Store

/// `claim_sequence`, the outbox's fairness counter, from two nodes claiming at once: each claim
/// is numbered `MAX + 1` inside a write over the whole store (on PostgreSQL under the store's
/// exclusive lock, taken before the serialisable snapshot), so no two claims share a number.
@Suite("Claim numbers from two nodes at once")
struct ClaimSequenceTests {
    @Test(
        "Two nodes claiming at once from two stores take each row once, each with a number of its own", arguments: StoreBackendKind.allCases
    )
    func claimNumbersNeverRepeat(_ backend: StoreBackendKind) throws {
        let location = try location(backend)
        let (_, a) = try location.unlockedStore()
        let contacts = try (1...4).map { index in
            try a.addContact(name: "c\(index)", number: TestStore.number("+4477009005\(index)0"), pairingCode: Data())
        }
        try a.write { tx in
            for contact in contacts {
                for row in 1...6 { _ = try tx.enqueueOutbox("ROW \(row) TO \(contact.name)", to: contact, now: Date()) }
            }
        }
        let b = try location.open().unlock(passphrase: TestStore.passphrase)
        let stores = [a, b]
        let nodes = [GatewayNode(name: "alpha", healthSeconds: 10), GatewayNode(name: "beta", healthSeconds: 10)]
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let (store, node) = (stores[thread % 2], nodes[thread % 2])
            var busy = 0
            while busy < 50 {
                do {
                    let claimed = try store.write { try $0.claimNextOutbox(modem: "\(node.name)-\(thread)", node: node) }
                    if claimed == nil { return }
                } catch StoreError.database(_, cause: .busy) {
                    busy += 1  // a serialisable conflict: the claim rolled back, try again
                } catch {
                    failures.withLock { $0.append("\(error)") }
                    return
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let numbers = try b.read { try $0.db.values(Int64.self, sql: "SELECT claim_sequence FROM outbox WHERE state = 'submitting'") }
        #expect(numbers.count == 24)
        #expect(Set(numbers).count == numbers.count, "a claim number repeated: \(numbers.sorted())")
    }
}
