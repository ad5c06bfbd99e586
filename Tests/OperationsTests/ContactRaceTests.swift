import Foundation
import Operations
import SMSCipher
import Synchronization
import TestSupport
import Testing

@testable import Store

/// Two nodes racing on one contact (issue 18, item 4): two stores on one PostgreSQL database,
/// each sending to the same contact from several threads at once, by `send` and by the API.
@Suite("Two nodes racing on one contact")
struct ContactRaceTests {
    @Test("Every text gets a position of its own, and the peer reads each one", arguments: StoreBackendKind.allCases)
    func racingNodesNeverShareAPosition(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        // A second store on alice's database stands for a second node.
        let nodes = [couple.alice, try couple.aliceLocation.open().unlock(passphrase: TestStore.passphrase)]
        let perThread = 6
        let threads = 6
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var rng = SystemRandomNumberGenerator()
            let node = nodes[thread % 2]
            for index in 0..<perThread {
                let text = "thread \(thread) text \(index)"
                do {
                    // Half the threads queue as `smsgw send` does, half through the API's submit.
                    if thread % 4 < 2 {
                        try Messages.queue(text, to: "bob", store: node, now: Date(), using: &rng)
                    } else {
                        _ = try Messages.submit(
                            text, to: "bob", idempotencyKey: "\(thread)-\(index)", queueLimit: nil, store: node, now: Date(),
                            using: &rng)
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])

        let total = threads * perThread
        let seals = try couple.alice.gateway.readTransaction { db in
            try db.row(
                sql: "SELECT count(*) AS rows, count(DISTINCT position) AS positions FROM outbox WHERE kind = 'text'")
        }
        #expect(seals?["rows"] == Int64(total))
        #expect(seals?["positions"] == Int64(total), "two texts were sealed at one position")

        // Bob opens every ciphertext in the order they were sealed: a pad used twice would not open.
        let bodies = try couple.alice.read { try $0.outboxItems() }.sorted { $0.id < $1.id }.map(\.body)
        var rng = SystemRandomNumberGenerator()
        var texts: Set<String> = []
        for body in bodies {
            let applied = try Messages.decrypt(body, from: "alice", store: couple.bob, now: Date(), using: &rng)
            if case .text(let message) = applied.content { texts.insert(message.text) }
        }
        #expect(texts.count == total)
    }
}
