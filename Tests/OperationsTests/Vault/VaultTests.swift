import Foundation
import Operations
import Store
import TestSupport
import Testing

/// The vault's items on a real store: titles unique as the store compares names, fields
/// validated, earlier passwords kept (bounded), typed passwords checked for reuse, every use
/// logged, and nothing of an item in the clear in the database files.
@Suite("Vault items")
struct VaultTests {
    static let now = Date(timeIntervalSince1970: 1_900_000_000)

    static func draft(_ title: String, _ password: String, username: String? = nil) -> VaultDraft {
        VaultDraft(title: title, username: username, password: password)
    }

    @Test("Items are added, listed by title, shown masked unless revealed, edited and removed", arguments: StoreBackendKind.allCases)
    func lifecycle(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { directory, _, store in
            try Vault.add(Self.draft("Mail", "first-Passw0rd", username: "me@example.org"), to: store, now: Self.now)
            try Vault.add(
                VaultDraft(title: "bank", url: "https://bank.example", password: "x", generatedBits: 80), to: store, now: Self.now)
            #expect(try Vault.list(in: store).map(\.title) == ["bank", "Mail"])

            let masked = try Vault.item(titled: "mail", reveal: false, in: store, now: Self.now)
            #expect(masked.password == nil && masked.passwordLength == 14 && masked.summary.username == "me@example.org")
            #expect(try Vault.item(titled: "MAIL", reveal: true, in: store, now: Self.now).password == "first-Passw0rd")
            #expect(try Vault.item(titled: "bank", reveal: false, in: store, now: Self.now).strength.source == .generated)

            try Vault.edit(titled: "mail", VaultChanges(title: "E-mail", username: ""), in: store, now: Self.now + 1)
            let reopened = try directory.open().unlock(passphrase: TestStore.passphrase)
            let edited = try Vault.item(titled: "e-mail", reveal: true, in: reopened, now: Self.now)
            #expect(edited.summary.title == "E-mail" && edited.summary.username == nil && edited.password == "first-Passw0rd")

            try Vault.remove(titled: "E-MAIL", from: store, now: Self.now + 2)
            #expect(throws: VaultError.notFound("E-mail")) { try Vault.item(titled: "E-mail", reveal: false, in: store, now: Self.now) }
            #expect(try Vault.list(in: store).map(\.title) == ["bank"])
        }
    }

    @Test("Titles are unique under the store's name normalisation (case, width, spaces, NFC)", arguments: StoreBackendKind.allCases)
    func titlesUnique(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            try Vault.add(Self.draft("Café Mail", "pw-1"), to: store, now: Self.now)
            for spelling in ["café mail", "  CAFÉ MAIL ", "Cafe\u{301} Mail", "Ｃａｆé Ｍａｉｌ"] {
                #expect(throws: VaultError.self) { try Vault.add(Self.draft(spelling, "pw-2"), to: store, now: Self.now) }
            }
            try Vault.add(Self.draft("Other", "pw-3"), to: store, now: Self.now)
            #expect(throws: VaultError.titleTaken("CAFÉ mail")) {
                try Vault.edit(titled: "other", VaultChanges(title: "CAFÉ mail"), in: store, now: Self.now)
            }
            // A change of case alone is the same item.
            try Vault.edit(titled: "café mail", VaultChanges(title: "CAFÉ MAIL"), in: store, now: Self.now)
            #expect(try Vault.list(in: store).map(\.title) == ["CAFÉ MAIL", "Other"])
        }
    }

    @Test(
        "Fields are validated: empty or control-character passwords, long fields, HOTP URIs are refused",
        arguments: StoreBackendKind.allCases)
    func fieldsValidated(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            for draft in [
                Self.draft("a", ""), Self.draft("b", "two\nlines"), Self.draft("", "pw"),
                VaultDraft(title: "c", username: String(repeating: "u", count: 257), password: "pw"),
                VaultDraft(title: "d", password: "pw", totp: "otpauth://hotp/x?secret=GEZDGNBV&counter=1"),
                VaultDraft(title: "e", password: "pw", totp: "not a uri"),
            ] {
                #expect(throws: (any Error).self) { try Vault.add(draft, to: store, now: Self.now) }
            }
            let items = try Vault.list(in: store)
            #expect(items.isEmpty)
        }
    }

    @Test("A new password keeps the old one in the history, bounded to the newest ten", arguments: StoreBackendKind.allCases)
    func historyBounded(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            try Vault.add(Self.draft("site", "password-0"), to: store, now: Self.now)
            for index in 1...12 {
                try Vault.edit(titled: "site", VaultChanges(password: "password-\(index)"), in: store, now: Self.now + Double(index))
            }
            // password-2 … password-11 are kept; 0 and 1 fell out.
            #expect(
                try Vault.edit(titled: "site", VaultChanges(password: "password-2"), in: store, now: Self.now).check?.previouslyUsed == true
            )
            #expect(
                try Vault.edit(titled: "site", VaultChanges(password: "password-0"), in: store, now: Self.now).check?.previouslyUsed
                    == false)
            let item = try Vault.item(titled: "site", reveal: true, in: store, now: Self.now)
            #expect(item.password == "password-0")
        }
    }

    @Test(
        "A typed password is checked against every other item and their histories; a generated one is not",
        arguments: StoreBackendKind.allCases)
    func reuseFlagged(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            try Vault.add(Self.draft("one", "shared-secret-1"), to: store, now: Self.now)
            try Vault.add(Self.draft("two", "old-secret"), to: store, now: Self.now)
            try Vault.edit(titled: "two", VaultChanges(password: "new-secret"), in: store, now: Self.now)
            let three = try Vault.add(Self.draft("three", "shared-secret-1"), to: store, now: Self.now)
            #expect(three.check?.reusedBy == ["one"])
            let four = try Vault.add(Self.draft("four", "old-secret"), to: store, now: Self.now)
            #expect(four.check?.reusedBy == ["two"])
            let five = try Vault.add(VaultDraft(title: "five", password: "shared-secret-1", generatedBits: 100), to: store, now: Self.now)
            #expect(five.check == nil)
            let six = try Vault.add(Self.draft("six", "unique-Secret-6!"), to: store, now: Self.now)
            #expect(six.check?.reusedBy == [] && six.check?.previouslyUsed == false)
        }
    }

    @Test("Every change and use is logged, encrypted, and filtered by title", arguments: StoreBackendKind.allCases)
    func eventsLogged(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            try Vault.add(Self.draft("mail", "pw-1"), to: store, now: Self.now)
            try Vault.add(Self.draft("bank", "pw-2"), to: store, now: Self.now)
            _ = try Vault.item(titled: "mail", reveal: true, in: store, now: Self.now + 1)
            _ = try Vault.item(titled: "mail", reveal: false, in: store, now: Self.now + 1)
            _ = try Vault.use(titled: "mail", for: .copy, in: store, now: Self.now + 2)
            _ = try Vault.use(titled: "mail", for: .exec(command: "curl"), in: store, now: Self.now + 3)
            try Vault.edit(titled: "mail", VaultChanges(password: "pw-3"), in: store, now: Self.now + 4)
            try Vault.remove(titled: "mail", from: store, now: Self.now + 5)
            let events = try Vault.log(titled: "mail", in: store)
            #expect(events.map(\.kind) == [.created, .revealed, .copied, .executed, .passwordChanged, .removed])
            #expect(events[3].detail == "curl")
            #expect(try Vault.log(in: store).count == 7)
            #expect(try Vault.log(titled: "bank", in: store).map(\.kind) == [.created])
        }
    }

    @Test("The TOTP code of an item is RFC 6238's; an item without a URI says so", arguments: StoreBackendKind.allCases)
    func totpCode(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            let uri = "otpauth://totp/Example:me?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&digits=8"
            try Vault.add(VaultDraft(title: "site", password: "pw", totp: uri), to: store, now: Self.now)
            let code = try Vault.code(titled: "site", in: store, now: Date(timeIntervalSince1970: 59))
            #expect(code.code == "94287082" && code.validFor == 1)
            try Vault.add(Self.draft("plain", "pw"), to: store, now: Self.now)
            #expect(throws: VaultError.noTOTP("plain")) { _ = try Vault.code(titled: "plain", in: store, now: Self.now) }
        }
    }
}
