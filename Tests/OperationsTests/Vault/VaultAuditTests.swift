import Foundation
import Operations
import Store
import TestSupport
import Testing

/// `Vault.audit`: reused, weak, old and exposed passwords, each found and each cleared.
@Suite("Vault audit")
struct VaultAuditTests {
    static let now = Date(timeIntervalSince1970: 1_900_000_000)
    static let day = 86_400.0

    @Test("Reused, weak, old and exposed items are reported with their reasons; a good item is not", arguments: StoreBackendKind.allCases)
    func findings(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            let strong = "Vq7#mZ2!rT9@kL4$"
            try Vault.add(VaultDraft(title: "a", password: strong), to: store, now: Self.now)
            try Vault.add(VaultDraft(title: "b", password: strong), to: store, now: Self.now)
            try Vault.add(VaultDraft(title: "weak", password: "hunter2"), to: store, now: Self.now)
            try Vault.add(VaultDraft(title: "old", password: "Xy8%pQ3&wE6*bN1!"), to: store, now: Self.now - 400 * Self.day)
            try Vault.add(VaultDraft(title: "good", password: "Gh5^jK8(lM2)nB7?"), to: store, now: Self.now)
            try Vault.add(VaultDraft(title: "seen", password: "Rt4[yU7]iO1{pA9}"), to: store, now: Self.now)
            try Vault.edit(titled: "seen", VaultChanges(markExposed: true), in: store, now: Self.now)

            let audit = try Vault.audit(in: store, now: Self.now)
            let problems = Dictionary(uniqueKeysWithValues: audit.findings.map { ($0.title, $0.problems) })
            #expect(problems == ["a": [.reused], "b": [.reused], "weak": [.weak], "old": [.old], "seen": [.exposed]])
            #expect(audit.findings.first { $0.title == "a" }?.reusedWith == ["b"])
            #expect(audit.items == 6)
            #expect(try Vault.audit(in: store, oldAfterDays: 500, now: Self.now).findings.allSatisfy { !$0.problems.contains(.old) })

            // Changing the password clears reuse, age and exposure.
            try Vault.edit(titled: "b", VaultChanges(password: "Zx3!cV6@bN9#mQ2$"), in: store, now: Self.now)
            try Vault.edit(titled: "old", VaultChanges(password: "Wd2)fG5(hJ8*kL1&"), in: store, now: Self.now)
            try Vault.edit(titled: "seen", VaultChanges(password: "Pl0-oK9=iJ8+uH7_"), in: store, now: Self.now)
            #expect(try Vault.audit(in: store, now: Self.now).findings.map(\.title) == ["weak"])
        }
    }
}
