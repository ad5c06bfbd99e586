import Foundation
import Store
import Testing

@testable import Operations

/// What happens to shares after they arrive: a re-share reported to the owner, a new password
/// pushed to every holder (directly and through the level-1 holder), a holder's change going back
/// to the owner and out to the others, a revocation cascading, and a rotation.
@Suite("Vault sharing: updates, changes and revocation")
struct VaultSharingChangeTests {
    let start = Date(timeIntervalSince1970: 1_900_000_000)

    /// alice owns "Mail"; bob holds it with `bobs` permission and shared it onward to carol; dave
    /// holds it with `use` from alice. Everything delivered.
    func network(bob bobs: SharePermission = .useChangeAndShare) throws -> Gateways {
        let gateways = try Gateways(["alice", "bob", "carol", "dave"], pairs: [("alice", "bob"), ("bob", "carol"), ("alice", "dave")])
        var rng = SystemRandomNumberGenerator()
        try Vault.add(VaultDraft(title: "Mail", username: "me@example.org", password: "first-Pässword"), to: gateways["alice"], now: start)
        try VaultSharing.share("Mail", with: "bob", permission: bobs, expiresAt: nil, store: gateways["alice"], now: start, using: &rng)
        try VaultSharing.share("Mail", with: "dave", permission: .use, expiresAt: nil, store: gateways["alice"], now: start, using: &rng)
        try gateways.deliver(from: "alice", at: start + 1)
        try VaultSharing.share("Mail", with: "carol", permission: .use, expiresAt: nil, store: gateways["bob"], now: start + 2, using: &rng)
        try gateways.deliver(from: "bob", at: start + 3)
        return gateways
    }

    func password(_ gateways: Gateways, _ name: String, at time: Date) throws -> String? {
        try? Vault.use(titled: "Mail", for: .copy, in: gateways[name], now: time).password
    }

    @Test("The owner lists the indirect holder its level-1 holder reported")
    func resharedReport() throws {
        let gateways = try network()
        let holders = try VaultSharing.shares(of: "Mail", in: gateways["alice"])
        #expect(holders.map(\.holder) == ["bob", "dave", "carol"])
        #expect(holders.map(\.level) == [1, 1, 2] && holders.last?.via == "bob" && holders.last?.permission == .use)
    }

    @Test("vault update reaches every holder, the second level through the first")
    func update() throws {
        let gateways = try network()
        var rng = SystemRandomNumberGenerator()
        try Vault.edit(titled: "Mail", VaultChanges(password: "second-Pässword"), in: gateways["alice"], now: start + 10)
        #expect(try VaultSharing.update("Mail", store: gateways["alice"], now: start + 10, using: &rng) == 2)
        try gateways.deliver(from: "alice", at: start + 11)
        try gateways.deliver(from: "bob", at: start + 12)
        for name in ["bob", "carol", "dave"] { #expect(try password(gateways, name, at: start + 13) == "second-Pässword") }
    }

    @Test("A use+change+share holder's change reaches the owner and the other holders; a use holder cannot change")
    func change() throws {
        let gateways = try network()
        var rng = SystemRandomNumberGenerator()
        #expect(throws: VaultError.self) {
            try Vault.edit(titled: "Mail", VaultChanges(password: "daves-Pässword"), in: gateways["dave"], now: start + 10)
        }
        #expect(throws: VaultError.self) { try VaultSharing.update("Mail", store: gateways["dave"], now: start + 10, using: &rng) }
        try Vault.edit(titled: "Mail", VaultChanges(password: "bobs-Pässword"), in: gateways["bob"], now: start + 10)
        try VaultSharing.update("Mail", store: gateways["bob"], now: start + 10, using: &rng)
        try gateways.deliver(from: "bob", at: start + 11)
        #expect(try password(gateways, "alice", at: start + 12) == "bobs-Pässword")
        try gateways.deliver(from: "alice", at: start + 12)
        #expect(try password(gateways, "dave", at: start + 13) == "bobs-Pässword")
        #expect(try Vault.log(titled: "Mail", in: gateways["alice"]).map(\.kind).contains(.changed))
        let notes = try MessageLog.recent(limit: 50, store: gateways["alice"]).messages.compactMap(\.error)
        #expect(notes.contains("A new password from bob; kept and pushed to 1 other holder."), "\(notes)")
    }

    @Test("An update from a contact that did not share the copy, and a change from a use holder, are refused and logged")
    func forgedPasswords() throws {
        let gateways = try network()
        var rng = SystemRandomNumberGenerator()
        let daves = try #require(try gateways["dave"].read { try Vault.items(in: $0) }.first?.received?.share)
        let bobs = try #require(try gateways["bob"].read { try Vault.items(in: $0) }.first?.received?.share)
        try gateways["dave"].write { tx in
            try VaultSharing.sendRecord(
                .password(changedAt: start, password: "daves-Pässword"), kind: .change, share: daves, to: try tx.contact(named: "alice"),
                logText: "A change.", in: tx, now: start, using: &rng)
        }
        try gateways["carol"].write { tx in
            try VaultSharing.sendRecord(
                .password(changedAt: start, password: "carols-Pässword"), kind: .update, share: bobs, to: try tx.contact(named: "bob"),
                logText: "An update.", in: tx, now: start, using: &rng)
        }
        let applied = try gateways.deliver(from: "dave", at: start + 10) + gateways.deliver(from: "carol", at: start + 10)
        #expect(applied.count == 2)
        #expect(try password(gateways, "alice", at: start + 11) == "first-Pässword")
        #expect(try password(gateways, "bob", at: start + 11) == "first-Pässword")
        let notes = try gateways["alice"].read { try $0.logEntry(id: applied[0].logID) }.error ?? ""
        #expect(notes.contains("refused"))
    }

    @Test("A revocation removes the copy from the contact and from those it shared with, and marks the item exposed")
    func revokeCascades() throws {
        let gateways = try network(bob: .useAndShare)
        var rng = SystemRandomNumberGenerator()
        #expect(throws: VaultError.self) { try VaultSharing.revoke("Mail", from: "alice", store: gateways["bob"], now: start, using: &rng) }
        let lost = try VaultSharing.revoke("Mail", from: "bob", store: gateways["alice"], now: start + 10, using: &rng)
        #expect(lost == ["bob", "carol"])
        try gateways.deliver(from: "alice", at: start + 11)
        try gateways.deliver(from: "bob", at: start + 12)
        #expect(try Vault.list(in: gateways["bob"], now: start + 13).isEmpty)
        #expect(try Vault.list(in: gateways["carol"], now: start + 13).isEmpty)
        #expect(try password(gateways, "dave", at: start + 13) == "first-Pässword")
        let states = try VaultSharing.shares(of: "Mail", in: gateways["alice"]).map(\.state)
        #expect(states == [.removed, .held, .revoked] || states == [.removed, .sending, .revoked])
        #expect(try Vault.audit(in: gateways["alice"], now: start + 14).findings.first?.problems.contains(.exposed) == true)
    }

    @Test("A rotation generates a new password and pushes it to the remaining holders")
    func rotate() throws {
        let gateways = try network(bob: .useAndShare)
        var rng = SystemRandomNumberGenerator()
        try VaultSharing.revoke("Mail", from: "bob", store: gateways["alice"], now: start + 10, using: &rng)
        let rotated = try VaultSharing.rotate("Mail", store: gateways["alice"], now: start + 11, using: &rng)
        #expect(rotated.holders == 1 && rotated.password.bits >= 100)
        let updated = try #require(try Vault.log(titled: "Mail", in: gateways["alice"]).last)
        #expect(updated.kind == .updated && updated.detail == "1 holder", "\(updated)")
        try gateways.deliver(from: "alice", at: start + 12)
        #expect(try password(gateways, "dave", at: start + 13) == rotated.password.password)
        #expect(try password(gateways, "bob", at: start + 13) == nil)
    }
}
