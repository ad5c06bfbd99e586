import Foundation
import SMSCipher
import Store
import Testing

@testable import Operations

/// Sharing vault items between gateways (docs/VAULT.md, "Sharing over SMS"), with the stores
/// exchanging ciphertexts by hand: a share arrives with its owner, permission and expiry, the
/// permission is enforced on the holder, an expired copy deletes itself and is reported, and the
/// owner's list of holders follows the acknowledgements.
@Suite("Vault sharing")
struct VaultSharingTests {
    let start = Date(timeIntervalSince1970: 1_900_000_000)

    func alicesMail(_ gateways: Gateways, notes: String? = nil) throws {
        try Vault.add(
            VaultDraft(
                title: "Mail", username: "me@example.org", url: "https://mail.example.org", notes: notes, password: "s3cret-Pässword"),
            to: gateways["alice"], now: start)
    }

    func share(
        _ gateways: Gateways, _ permission: SharePermission, title: String = "Mail", from owner: String = "alice",
        to holder: String = "bob", expiresAt: Date? = nil
    ) throws {
        var rng = SystemRandomNumberGenerator()
        try VaultSharing.share(
            title, with: holder, permission: permission, expiresAt: expiresAt, store: gateways[owner], now: start, using: &rng)
    }

    @Test("A share arrives with its owner, permission and expiry; use cannot reveal, edit or export, only use")
    func useShare() throws {
        let gateways = try Gateways(["alice", "bob"], pairs: [("alice", "bob")])
        try alicesMail(gateways)
        try share(gateways, .use, expiresAt: start + 86_400)
        #expect(try VaultSharing.shares(of: "Mail", in: gateways["alice"]).map(\.state) == [.sending])
        try gateways.deliver(from: "alice", at: start + 1)

        let bob = gateways["bob"]
        let listed = try #require(try Vault.list(in: bob, now: start + 2).first)
        #expect(listed.title == "Mail" && listed.username == "me@example.org")
        #expect(listed.received?.sender == "alice" && listed.received?.permission == .use && listed.received?.level == 1)
        #expect(listed.received?.expiresAt == start + 86_400)
        #expect(throws: VaultError.self) { try Vault.item(titled: "Mail", reveal: true, in: bob, now: start + 2) }
        #expect(try Vault.item(titled: "Mail", reveal: false, in: bob, now: start + 2).password == nil)
        #expect(try Vault.use(titled: "Mail", for: .copy, in: bob, now: start + 2).password == "s3cret-Pässword")
        #expect(throws: VaultError.self) { try Vault.edit(titled: "Mail", VaultChanges(username: "x"), in: bob, now: start + 2) }
        let export = try Vault.export(format: .bitwardenJSON, from: bob, now: start + 2)
        #expect(!String(decoding: export, as: UTF8.self).contains("s3cret"))
        #expect(try Vault.log(titled: "Mail", in: bob).map(\.kind).contains(.received))
        // The holder's message log names the share once: "Vault share 1a2b3c4d, part 1 of 1."
        let row = try #require(try MessageLog.recent(limit: 10, store: bob).messages.first { $0.status == .typed })
        #expect(row.text?.range(of: #"^Vault share [0-9a-f]+, part 1 of 1\.$"#, options: .regularExpression) != nil, "\(row)")

        #expect(try VaultSharing.shares(of: "Mail", in: gateways["alice"]).map(\.acknowledged) == [false])
        try gateways.acknowledge(from: "bob", at: start + 3)
        let holders = try VaultSharing.shares(of: "Mail", in: gateways["alice"])
        #expect(holders.map(\.holder) == ["bob"] && holders.map(\.acknowledged) == [true] && holders.map(\.state) == [.held])
    }

    @Test("use+change+share may reveal and export; a title taken on the holder's side gets the owner's name")
    func changeShareAndTitles() throws {
        let gateways = try Gateways(["alice", "bob"], pairs: [("alice", "bob")])
        try alicesMail(gateways)
        try Vault.add(VaultDraft(title: "mail", password: "bobs-own-pass"), to: gateways["bob"], now: start)
        try share(gateways, .useChangeAndShare)
        try gateways.deliver(from: "alice", at: start + 1)
        let bob = gateways["bob"]
        #expect(try Vault.list(in: bob, now: start + 2).map(\.title) == ["mail", "Mail (from alice)"])
        #expect(try Vault.item(titled: "Mail (from alice)", reveal: true, in: bob, now: start + 2).password == "s3cret-Pässword")
        #expect(String(decoding: try Vault.export(format: .bitwardenJSON, from: bob, now: start + 2), as: UTF8.self).contains("s3cret"))
    }

    @Test("A share of several SMS arrives whole out of order and duplicated, once")
    func partsOutOfOrder() throws {
        let gateways = try Gateways(["alice", "bob"], pairs: [("alice", "bob")])
        let notes = String(repeating: "Unicode notes: Grüße, 日本語. ", count: 12)
        try alicesMail(gateways, notes: notes)
        try share(gateways, .useAndShare)
        let applied = try gateways.deliver(from: "alice", at: start + 1) { sent in sent.reversed() + sent }
        #expect(applied.count >= 3)
        let items = try Vault.list(in: gateways["bob"], now: start + 2)
        #expect(items.count == 1 && items.first?.hasNotes == true)
        #expect(try Vault.use(titled: "Mail", for: .copy, in: gateways["bob"], now: start + 2).notes == notes)
        #expect(try gateways["bob"].read { try $0.vaultParts() }.isEmpty)
    }

    @Test("Parts of a share that never completes are discarded after a week")
    func staleParts() throws {
        let gateways = try Gateways(["alice", "bob"], pairs: [("alice", "bob")])
        try alicesMail(gateways, notes: String(repeating: "Long notes. ", count: 30))
        try share(gateways, .use)
        try gateways.deliver(from: "alice", at: start + 1) { sent in Array(sent.dropLast()) }
        #expect(try !gateways["bob"].read { try $0.vaultParts() }.isEmpty)
        #expect(try Vault.list(in: gateways["bob"], now: start + VaultSharing.partTimeout).isEmpty)
        #expect(try !gateways["bob"].read { try $0.vaultParts() }.isEmpty)
        _ = try Vault.list(in: gateways["bob"], now: start + VaultSharing.partTimeout + 2)
        #expect(try gateways["bob"].read { try $0.vaultParts() }.isEmpty)
    }

    @Test("At expiry the holder's copy deletes itself, offline, and the owner learns of it")
    func expiry() throws {
        let gateways = try Gateways(["alice", "bob"], pairs: [("alice", "bob")])
        try alicesMail(gateways)
        try share(gateways, .use, expiresAt: start + 3600)
        try gateways.deliver(from: "alice", at: start + 1)
        #expect(try gateways["bob"].read { try VaultSharing.nextExpiry(in: $0) } == start + 3600)
        #expect(try Vault.list(in: gateways["bob"], now: start + 3599).count == 1)
        #expect(throws: VaultError.notFound("Mail")) {
            try Vault.use(titled: "Mail", for: .copy, in: gateways["bob"], now: start + 3600)
        }
        #expect(try Vault.list(in: gateways["bob"], now: start + 3601).isEmpty)
        #expect(try gateways["bob"].read { try VaultSharing.nextExpiry(in: $0) } == nil)
        #expect(try Vault.log(titled: "Mail", in: gateways["bob"]).map(\.kind).last == .expired)
        try gateways.deliver(from: "bob", at: start + 3700)
        #expect(try VaultSharing.shares(of: "Mail", in: gateways["alice"]).map(\.state) == [.expired])
    }

    @Test("use+share shares onward at level 2 with use or use+share; a use copy, a level-2 copy and more permission are refused")
    func levels() throws {
        let gateways = try Gateways(["alice", "bob", "carol", "dave"], pairs: [("alice", "bob"), ("bob", "carol"), ("carol", "dave")])
        try alicesMail(gateways)
        try share(gateways, .useAndShare)
        try gateways.deliver(from: "alice", at: start + 1)
        #expect(throws: VaultError.self) { try share(gateways, .useChangeAndShare, from: "bob", to: "carol") }
        try share(gateways, .useAndShare, from: "bob", to: "carol")
        try gateways.deliver(from: "bob", at: start + 2)
        let carols = try #require(try Vault.list(in: gateways["carol"], now: start + 3).first)
        #expect(carols.received?.level == 2 && carols.received?.sender == "bob")
        #expect(throws: VaultError.self) { try share(gateways, .use, from: "carol", to: "dave") }
        #expect(try VaultSharing.shares(of: "Mail", in: gateways["bob"]).map(\.level) == [2])
    }

    @Test("A revocation or expiry report from a contact with no say over the share is refused and logged")
    func forgedNotices() throws {
        let gateways = try Gateways(["alice", "bob"], pairs: [("alice", "bob")])
        try alicesMail(gateways)
        try share(gateways, .use)
        try gateways.deliver(from: "alice", at: start + 1)
        let share = try #require(try gateways["bob"].read { try Vault.items(in: $0) }.first?.received?.share)
        // Bob claims to revoke the copy of a share he holds, and reports expired a share alice never gave him.
        try notify(
            gateways, from: "bob", to: "alice", [VaultNotice(kind: .revoke, share: share), VaultNotice(kind: .expired, share: share ^ 1)])
        let applied = try gateways.deliver(from: "bob", at: start + 2)
        let notes = try applied.map { message in try gateways["alice"].read { try $0.logEntry(id: message.logID) }.error ?? "" }
        #expect(notes.count == 2 && notes.allSatisfy { $0.contains("refused") })
        #expect(try Vault.list(in: gateways["alice"], now: start + 3).map(\.title) == ["Mail"])
        #expect(try VaultSharing.shares(of: "Mail", in: gateways["alice"]).map(\.state) == [.sending])
        #expect(try Vault.list(in: gateways["bob"], now: start + 3).count == 1)

        // The same revocation from the owner deletes bob's copy.
        try notify(gateways, from: "alice", to: "bob", [VaultNotice(kind: .revoke, share: share)])
        try gateways.deliver(from: "alice", at: start + 4)
        #expect(try Vault.list(in: gateways["bob"], now: start + 5).isEmpty)
        #expect(try Vault.log(titled: "Mail", in: gateways["bob"]).map(\.kind).last == .revoked)
    }

    func notify(_ gateways: Gateways, from sender: String, to receiver: String, _ notices: [VaultNotice]) throws {
        var rng = SystemRandomNumberGenerator()
        try gateways[sender].write { tx in
            let contact = try tx.contact(named: receiver)
            for notice in notices {
                _ = try VaultSharing.send(
                    [VaultMessage.notice(notice).payload], to: contact, logText: "A notice.", in: tx, now: start, using: &rng)
            }
        }
    }
}
