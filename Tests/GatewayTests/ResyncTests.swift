import Foundation
import Gateway
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

extension GatewayIntegrationTests {
    @Suite("Resync over SMS between two gateways")
    struct ResyncTests {
        @Test func aDesyncIsRepairedOnceTheOperatorAcceptsAndReplaysAreAnsweredAtMostOnce() async throws {
            let pair = try GatewayPair(test: "resync")
            try await pair.run {
                // Alice's state before anything was sent: restoring it later rewinds her chains, as a
                // restored backup would.
                let rewound = try pair.a.store.read { try $0.session(for: $0.contact(named: "bob")) }
                #expect(try await pair.waitUntilReady())
                for index in 0..<3 {
                    try Messages.queue("before \(index)", to: "bob", store: pair.a.store)
                }
                #expect(await eventually { try pair.b.store.incoming(.decrypted).count == 3 })

                try pair.a.store.write { tx in try tx.setSession(#require(rewound), for: tx.contact(named: "bob")) }
                for index in 0..<3 {
                    try Messages.queue("desynced \(index)", to: "bob", store: pair.a.store)
                }
                #expect(await eventually { try pair.b.store.incoming(.rejected).count == 3 })
                let failing = try #require(try GatewayStatus.read(from: pair.b.store).contacts.first)
                #expect(failing.sync.state == .failing)
                #expect(failing.sync.advice == .resync(failures: 3))
                #expect(failing.quarantined == 3)

                // Bob's operator runs `smsgw resync alice`; alice's gateway keeps the request for her operator.
                let started = try Resync.start(with: "alice", store: pair.b.store)
                #expect(try GatewayStatus.read(from: pair.b.store).contacts.first?.sync.state == .resyncPending)
                let handshake = try pair.b.store.read { try $0.outboxItem(id: started.outboxID) }
                #expect(handshake.kind == .handshake)
                #expect(handshake.body.count == 160)
                #expect(await eventually { try GatewayStatus.read(from: pair.a.store).contacts.first?.sync.state == .resyncRequested })
                let requested = try #require(try GatewayStatus.read(from: pair.a.store).contacts.first)
                #expect(requested.epoch == 0 && requested.sync.advice == .decideResyncRequest(code: started.code))
                #expect(try pair.a.store.outbox().filter { $0.kind == .handshake }.isEmpty, "alice answered before her operator accepted")
                #expect(try pair.a.store.incoming(.resync).contains { $0.text?.contains("waiting for the operator") == true })

                let accepted = try Resync.accept(from: "bob", store: pair.a.store)
                #expect(accepted.epoch == 1 && accepted.outboxID != nil)
                let completed = await eventually(timeout: .seconds(30)) {
                    let bob = try GatewayStatus.read(from: pair.b.store).contacts.first
                    let alice = try GatewayStatus.read(from: pair.a.store).contacts.first
                    return bob?.sync.isOK == true && bob?.epoch == 1 && alice?.epoch == 1 && alice?.sync.isOK == true
                }
                #expect(completed)
                // A completed resync is its own event in the log and in the status, on both sides.
                #expect(try pair.a.store.log(limit: 1000).contains { $0.direction == .outgoing && $0.status == .resynced })
                #expect(try pair.b.store.incoming(.resynced).contains { $0.text?.contains("new keys in force (epoch 1)") == true })
                for store in [pair.a.store, pair.b.store] {
                    let last = try #require(try GatewayStatus.read(from: store).contacts.first?.lastResync)
                    #expect(last.epoch == 1 && last.completedAt.map { abs($0.timeIntervalSinceNow) < 120 } == true)
                }

                try Messages.queue("after the resync", to: "bob", store: pair.a.store)
                try Messages.queue("and back", to: "alice", store: pair.b.store)
                #expect(
                    await eventually(timeout: .seconds(30)) {
                        try pair.b.store.incoming(.decrypted).contains { $0.text == "after the resync" }
                            && pair.a.store.incoming(.decrypted).contains { $0.text == "and back" }
                    })

                // Bob's handshake replayed five times, as an attacker would: at most one more answer
                // leaves alice's gateway in all (a retry of bob's may have used it already).
                let epochBefore = try pair.a.store.read { try $0.loadSession(for: $0.contact(named: "bob")) }?.epoch
                let rowsBefore = try pair.a.store.log(limit: 10_000).count
                for _ in 0..<5 {
                    try pair.network.inject(text: handshake.body, from: GatewayPair.numberB, to: GatewayPair.numberA)
                }
                #expect(await eventually { try pair.a.store.log(limit: 10_000).count >= rowsBefore + 5 })
                let replays = try pair.a.store.log(limit: 10_000).suffix(from: rowsBefore).filter { $0.direction == .incoming }
                #expect(replays.allSatisfy { [.duplicate, .resync].contains($0.status) })
                #expect(replays.filter { $0.status == .duplicate }.count >= 4)
                let answers = try pair.a.store.outbox().filter { $0.kind == .handshake }
                #expect((1...2).contains(answers.count), "alice sent \(answers.count) handshake answers")
                #expect(try pair.a.store.read { try $0.loadSession(for: $0.contact(named: "bob")) }?.epoch == epochBefore)
                try Messages.queue("still in sync", to: "bob", store: pair.a.store)
                #expect(await eventually { try pair.b.store.incoming(.decrypted).contains { $0.text == "still in sync" } })
            }
        }

        /// `[resync] accept = "auto"`: the peer's gateway answers by itself, within the budget of
        /// automatic replies; over it, the answer is withheld once with a note.
        @Test func withAutomaticAcceptanceThePeerAnswersWithinItsReplyBudget() async throws {
            let pair = try GatewayPair(test: "resync-auto", resync: ResyncSettings(accept: .auto, automaticRepliesPerHour: 1))
            try await pair.run {
                #expect(try await pair.waitUntilReady())
                let started = try Resync.start(with: "alice", store: pair.b.store)
                let handshake = try pair.b.store.read { try $0.outboxItem(id: started.outboxID) }
                #expect(
                    await eventually(timeout: .seconds(30)) {
                        try [pair.a.store, pair.b.store].allSatisfy { try GatewayStatus.read(from: $0).contacts.first?.epoch == 1 }
                    })
                #expect(try pair.a.store.incoming(.resynced).contains { $0.text?.contains("answered automatically") == true })
                #expect(try pair.b.store.incoming(.resynced).count == 1)

                // The one automatic reply of the hour is spent: copies of bob's handshake get none.
                let rowsBefore = try pair.a.store.log(limit: 10_000).count
                for _ in 0..<3 {
                    try pair.network.inject(text: handshake.body, from: GatewayPair.numberB, to: GatewayPair.numberA)
                }
                #expect(await eventually { try pair.a.store.log(limit: 10_000).count >= rowsBefore + 3 })
                #expect(try pair.a.store.incoming(.resync).contains { $0.text?.contains("repeated") == true })
                #expect(try pair.a.store.outbox().filter { $0.kind == .handshake }.count == 1)
                let notes = try pair.a.store.log(limit: 10_000).compactMap(\.error).filter { $0.contains("withheld") }
                #expect(notes.count == 1, "the withheld reply was noted \(notes.count) times")
                try Messages.queue("fresh keys", to: "bob", store: pair.a.store)
                #expect(await eventually { try pair.b.store.incoming(.decrypted).contains { $0.text == "fresh keys" } })
            }
        }
    }
}
