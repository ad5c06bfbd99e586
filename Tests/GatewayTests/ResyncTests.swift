import Foundation
import Gateway
import SMSCipher
import Store
import Testing

extension GatewayIntegrationTests {
    @Suite("Resync over SMS between two gateways")
    struct ResyncTests {
        @Test func aDesyncIsRepairedOnceTheOperatorAcceptsAndReplaysAreAnsweredAtMostOnce() async throws {
            let pair = try GatewayPair(test: "resync")
            defer { Task { await pair.stop() } }
            // Alice's state before anything was sent: restoring it later rewinds her chains, as a
            // restored backup would.
            let rewound = try pair.a.store.read { try $0.session(for: $0.contact(named: "bob")) }
            #expect(try await pair.waitUntilReady())
            for index in 0..<3 {
                try GatewayActions.queueText("before \(index)", to: "bob", store: pair.a.store, transliterate: false)
            }
            #expect(await eventually { try pair.b.store.incoming(.decrypted).count == 3 })

            try pair.a.store.write { tx in try tx.setSession(#require(rewound), for: tx.contact(named: "bob")) }
            for index in 0..<3 {
                try GatewayActions.queueText("desynced \(index)", to: "bob", store: pair.a.store, transliterate: false)
            }
            #expect(await eventually { try pair.b.store.incoming(.rejected).count == 3 })
            let failing = try #require(try GatewayActions.status(store: pair.b.store).contacts.first)
            #expect(failing.sync.state == "failing")
            #expect(failing.sync.advice?.contains("smsgw resync alice") == true)
            #expect(failing.quarantined == 3)

            // Bob's operator runs `smsgw resync alice`; alice's gateway keeps the request for her operator.
            let started = try GatewayActions.startResync(contactName: "alice", store: pair.b.store)
            #expect(try GatewayActions.status(store: pair.b.store).contacts.first?.sync.state == "resync pending")
            let handshake = try pair.b.store.read { try $0.outboxItem(id: started.outboxID) }
            #expect(handshake.kind == .handshake)
            #expect(handshake.body.count == 160)
            #expect(await eventually { try GatewayActions.status(store: pair.a.store).contacts.first?.sync.state == "resync requested" })
            let requested = try #require(try GatewayActions.status(store: pair.a.store).contacts.first)
            #expect(requested.epoch == 0 && requested.sync.advice?.contains("code \(started.code)") == true)
            #expect(requested.sync.advice?.contains("smsgw resync bob --accept") == true)
            #expect(try pair.a.store.outbox().filter { $0.kind == .handshake }.isEmpty, "alice answered before her operator accepted")
            #expect(try pair.a.store.incoming(.resync).contains { $0.text?.contains("waiting for the operator") == true })

            let accepted = try GatewayActions.acceptResync(contactName: "bob", store: pair.a.store)
            #expect(accepted.epoch == 1 && accepted.outboxID != nil)
            let completed = await eventually(timeout: .seconds(30)) {
                let bob = try GatewayActions.status(store: pair.b.store).contacts.first
                let alice = try GatewayActions.status(store: pair.a.store).contacts.first
                return bob?.sync.isOK == true && bob?.epoch == 1 && alice?.epoch == 1 && alice?.sync.isOK == true
            }
            #expect(completed)
            // A completed resync is its own event in the log and in the status, on both sides.
            #expect(try pair.a.store.log(limit: 1000).contains { $0.direction == .outgoing && $0.status == .resynced })
            #expect(try pair.b.store.incoming(.resynced).contains { $0.text?.contains("new keys in force (epoch 1)") == true })
            for store in [pair.a.store, pair.b.store] {
                let last = try #require(try GatewayActions.status(store: store).contacts.first?.lastResync)
                #expect(last.epoch == 1 && last.completedAt.map { abs($0.timeIntervalSinceNow) < 120 } == true)
            }

            try GatewayActions.queueText("after the resync", to: "bob", store: pair.a.store, transliterate: false)
            try GatewayActions.queueText("and back", to: "alice", store: pair.b.store, transliterate: false)
            #expect(await eventually(timeout: .seconds(30)) {
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
            try GatewayActions.queueText("still in sync", to: "bob", store: pair.a.store, transliterate: false)
            #expect(await eventually { try pair.b.store.incoming(.decrypted).contains { $0.text == "still in sync" } })
            await pair.stop()
        }

        /// `[resync] accept = "auto"`: the peer's gateway answers by itself, within the budget of
        /// automatic replies; over it, the answer is withheld once with a note.
        @Test func withAutomaticAcceptanceThePeerAnswersWithinItsReplyBudget() async throws {
            let pair = try GatewayPair(test: "resync-auto", resync: ResyncSettings(accept: .auto, automaticRepliesPerHour: 1))
            defer { Task { await pair.stop() } }
            #expect(try await pair.waitUntilReady())
            let started = try GatewayActions.startResync(contactName: "alice", store: pair.b.store)
            let handshake = try pair.b.store.read { try $0.outboxItem(id: started.outboxID) }
            #expect(await eventually(timeout: .seconds(30)) {
                try [pair.a.store, pair.b.store].allSatisfy { try GatewayActions.status(store: $0).contacts.first?.epoch == 1 }
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
            try GatewayActions.queueText("fresh keys", to: "bob", store: pair.a.store, transliterate: false)
            #expect(await eventually { try pair.b.store.incoming(.decrypted).contains { $0.text == "fresh keys" } })
            await pair.stop()
        }

        @Test func aStateFromANewerVersionSaysToUpgradeNotToPairAgain() throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-gateway-state-\(UUID().uuidString.prefix(8))")
            defer { try? FileManager.default.removeItem(at: root) }
            let a = try GatewayPair.makeStore(root.appendingPathComponent("a"))
            let b = try GatewayPair.makeStore(root.appendingPathComponent("b"))
            try GatewayPair.pair(a, named: "bob", number: "+15550002", with: b, named: "alice", number: "+15550001")
            let stored = try #require(try a.read { try $0.session(for: $0.contact(named: "bob")) })

            var newer = stored
            newer[newer.startIndex + 1] = 99  // the version byte of the stored form
            try a.write { tx in try tx.setSession(newer, for: tx.contact(named: "bob")) }
            let upgrade = #expect(throws: StoreError.self) { try a.read { try $0.loadSession(for: $0.contact(named: "bob")) } }
            #expect(upgrade.map { "\($0)".contains("upgrade smsgw") && "\($0)".contains("Do not pair again") } == true)

            try a.write { tx in try tx.setSession(stored.dropLast(3), for: tx.contact(named: "bob")) }
            let damaged = #expect(throws: StoreError.self) { try a.read { try $0.loadSession(for: $0.contact(named: "bob")) } }
            #expect(damaged.map { "\($0)".contains("resync bob --manual") } == true)
        }

        @Test func actionsCommitBeforeAnyModemAndExplainErrors() throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-gateway-actions-\(UUID().uuidString.prefix(8))")
            defer { try? FileManager.default.removeItem(at: root) }
            let a = try GatewayPair.makeStore(root.appendingPathComponent("a"))
            let b = try GatewayPair.makeStore(root.appendingPathComponent("b"))
            try GatewayPair.pair(a, named: "bob", number: "+15550002", with: b, named: "alice", number: "+15550001")

            let queued = try GatewayActions.queueText("Hello “Bob”", to: "BOB", store: a, transliterate: true)
            #expect(queued.position == 0)
            #expect(!queued.replacements.isEmpty)
            let item = try a.read { try $0.outboxItem(id: queued.outboxID) }
            #expect(item.state == .queued && item.kind == .text && item.body.count == 160)
            let entry = try a.read { try $0.logEntry(id: queued.logID) }
            #expect(entry.status == .queued && entry.text == "Hello \"Bob\"" && entry.ciphertext == item.body)
            #expect(try GatewayActions.queueText("second", to: "bob", store: a, transliterate: false).position == 1)

            #expect(throws: StoreError.self) { try GatewayActions.queueText("x", to: "carol", store: a, transliterate: false) }
            #expect(throws: CipherError.self) { try GatewayActions.queueText("Hello “Bob”", to: "bob", store: a, transliterate: false) }
            #expect(throws: CipherError.self) { try GatewayActions.queueText(String(repeating: "x", count: 200), to: "bob", store: a, transliterate: false) }
            // A failed queue changes nothing.
            #expect(try a.read { try $0.outboxItems() }.count == 2)
            #expect(try GatewayActions.status(store: a).contacts.first?.sendPosition == 2)

            try a.write { tx in _ = try tx.addContact(name: "dave", number: nil, pairingCode: Data("x".utf8)) }
            do {
                try GatewayActions.queueText("x", to: "dave", store: a, transliterate: false)
                Issue.record("queued to a contact without a number")
            } catch let error as StoreError {
                #expect(error.description.contains("smsgw contact edit dave"))
            }
            let status = try GatewayActions.status(store: a)
            #expect(status.modems.isEmpty && !status.hasReadyModem)
            #expect(status.outbox["queued"] == 2)
            #expect(status.contacts.map(\.name) == ["bob", "dave"])
            #expect(status.contacts[1].sync.state == "not paired")
        }
    }
}
