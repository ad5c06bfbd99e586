import Foundation
import Gateway
import ModemSimulator
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

/// Two gateways through the real libgammu AT driver against one in-process simulated network.
extension GatewayIntegrationTests {
    @Suite("Two gateways exchanging over the simulator")
    struct ExchangeTests {
        @Test(arguments: StoreBackendKind.allCases)
        func twentyMessagesEachWayDecryptAndAreDelivered(_ backend: StoreBackendKind) async throws {
            let pair = try GatewayPair(test: "exchange", sideA: backend)
            try await pair.run {
                #expect(try await pair.waitUntilReady())

                let started = ContinuousClock.now
                try await pair.exchange(20, toBob: { "from alice #\($0) {€}" }, toAlice: { "from bob #\($0)" })
                print("exchange: 40 SMS decrypted in \(ContinuousClock.now - started)")

                let delivered = await eventually(timeout: .seconds(30)) {
                    try pair.a.store.outbox([.delivered]).count == 20 && pair.b.store.outbox([.delivered]).count == 20
                }
                #expect(delivered)
                let outgoing = try pair.a.store.log(limit: 100).filter { $0.direction == .outgoing }
                #expect(outgoing.allSatisfy { $0.status == .delivered })

                let status = try GatewayStatus.read(from: pair.a.store)
                #expect(status.modems.count == 1)
                #expect(status.modems.first?.state == .ready)
                #expect(status.modems.first?.sentCount == 20)
                #expect((status.modems.first?.receivedCount ?? 0) >= 20)
                #expect(status.outbox[.delivered] == 20)
                #expect(status.outbox[.queued] == 0)
                let bob = try #require(status.contacts.first)
                #expect(bob.name == "bob" && bob.sync.isOK && bob.sendPosition == 20)
                #expect(bob.lastSentAt != nil && bob.lastReceivedAt != nil)
                // The JSON form for `smsgw status --json`.
                let json = try JSONEncoder().encode(status)
                #expect(try JSONDecoder().decode(GatewayStatus.self, from: json) == status)

                // A permanent CMS error fails one message, and the next one still goes out.
                pair.a.sim.faults = FaultPlan(sendError: SendErrorFault(cmsCode: 21))
                let doomed = try Messages.queue("refused by the SMSC", to: "bob", store: pair.a.store)
                #expect(await eventually { try pair.a.store.outbox([.failed]).count == 1 })
                pair.a.sim.faults = .none
                let failed = try pair.a.store.read { try $0.outboxItem(id: doomed.outboxID) }
                #expect(failed.state == .failed && failed.lastErrorIsPermanent && failed.attempts == 1)
                #expect(failed.lastError?.contains("21") == true)
                #expect(try pair.a.store.read { try $0.logEntry(id: doomed.logID) }.status == .failed)
                try Messages.queue("after the refusal", to: "bob", store: pair.a.store)
                #expect(await eventually { try pair.b.store.incoming(.decrypted).contains { $0.text == "after the refusal" } })

                // A temporary error is retried with the SAME stored ciphertext, never sealed again.
                pair.a.sim.faults = FaultPlan(sendError: SendErrorFault(cmsCode: 38))
                let retried = try Messages.queue("retried as is", to: "bob", store: pair.a.store)
                let original = try pair.a.store.read { try $0.outboxItem(id: retried.outboxID) }.body
                #expect(await eventually { try pair.a.store.read { try $0.outboxItem(id: retried.outboxID) }.attempts >= 2 })
                pair.a.sim.faults = .none
                #expect(await eventually { try pair.b.store.incoming(.decrypted).contains { $0.text == "retried as is" } })
                let after = try pair.a.store.read { try $0.outboxItem(id: retried.outboxID) }
                #expect(after.body == original)
                #expect(after.attempts >= 2)
                #expect(try pair.a.store.read { try $0.logEntry(id: retried.logID) }.ciphertext == original)
                #expect(try pair.b.store.incoming(.decrypted).first { $0.text == "retried as is" }?.ciphertext == original)
            }
        }

        @Test(arguments: StoreBackendKind.allCases)
        func lossDuplicationAndReorderingNeedNoManualAction(_ backend: StoreBackendKind) async throws {
            let faults = FaultPlan(dropRate: 0.10, duplicateRate: 0.05, delay: 0...2)
            let pair = try GatewayPair(test: "faults", faults: faults, sideA: backend)
            try await pair.run {
                #expect(try await pair.waitUntilReady())
                for index in 0..<20 {
                    try Messages.queue("lossy a\(index)", to: "bob", store: pair.a.store)
                    try Messages.queue("lossy b\(index)", to: "alice", store: pair.b.store)
                }
                // Everything leaves the modems; then the network's delays (≤ 2 s) run out.
                #expect(
                    await eventually(timeout: .seconds(90)) {
                        try pair.a.store.outbox([.queued, .submitting]).isEmpty && pair.b.store.outbox([.queued, .submitting]).isEmpty
                    })
                let settled = await eventually(timeout: .seconds(20)) {
                    pair.network.pendingCount(for: pair.a.sim) == 0 && pair.network.pendingCount(for: pair.b.sim) == 0
                        && pair.a.sim.storedMessageCount == 0 && pair.b.sim.storedMessageCount == 0
                }
                #expect(settled)
                try await Task.sleep(for: .seconds(3))

                for (side, prefix) in [(pair.b, "lossy a"), (pair.a, "lossy b")] {
                    let texts = try side.store.incoming(.decrypted).compactMap(\.text)
                    #expect(Set(texts).count == texts.count, "a message decrypted twice")
                    #expect(texts.allSatisfy { $0.hasPrefix(prefix) })
                    #expect(texts.count >= 12, "only \(texts.count) of 20 arrived with 10% loss (seed \(pair.seed))")
                    #expect(try side.store.incoming(.rejected).isEmpty, "a message failed verification (seed \(pair.seed))")
                    let duplicates = try side.store.incoming(.duplicate)
                    print("faults: \(side.peer) side decrypted \(texts.count)/20, refused \(duplicates.count) duplicates")
                    #expect(duplicates.allSatisfy { $0.error != nil })
                    let contact = try side.store.read { try $0.contact(named: side.peer) }
                    #expect(contact.verificationFailures == 0)
                }
            }
        }
    }
}
