import Foundation
import Operations
import Store
import TestSupport
import Testing

/// `smsgw store migrate` run again after its last step completed the target but could not record
/// the move on the source (the connection lost at that moment).
@Suite("Store migration run again after the record failed")
struct StoreMigrationRerunTests {
    @Test(
        "A rerun finds the complete target equal to the source and only records the move",
        arguments: StoreBackendKind.allCases)
    func rerunRecordsTheMove(backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, gateway, unlocked in
            try TestStore.withDirectory { other in
                var rng = SystemRandomNumberGenerator()
                _ = try Contacts.add(name: "bob", numbers: [TestStore.number("+15550002")], store: unlocked, using: &rng)
                let target = try GatewayStore.open(directory: other.url, logger: TestStore.logger)
                // What a run leaves when its record fails: the target complete, the source unrecorded.
                try gateway.copyRows(to: target)
                try gateway.finishCopy(to: target)
                #expect(try gateway.movedRefusal() == nil)

                let report = try StoreMigration.copy(from: unlocked, to: target) { _ in }
                #expect(report.tables.allSatisfy { $0.matches })
                #expect(try gateway.movedRefusal() != nil)
            }
        }
    }

    @Test("A complete target that changed since the copy is refused as not empty, and the source stays unrecorded")
    func changedTargetRefused() throws {
        try TestStore.withAccount { _, gateway, unlocked in
            try TestStore.withDirectory { other in
                let target = try GatewayStore.open(directory: other.url, logger: TestStore.logger)
                try gateway.copyRows(to: target)
                try gateway.finishCopy(to: target)
                var rng = SystemRandomNumberGenerator()
                let used = try target.unlock(passphrase: TestStore.passphrase)
                _ = try Contacts.add(name: "carol", store: used, using: &rng)
                #expect {
                    _ = try StoreMigration.copy(from: unlocked, to: target) { _ in }
                } throws: { error in
                    guard case StoreError.alreadyExists(let sentence) = error else { return false }
                    return sentence.contains("not empty")
                }
                #expect(try gateway.movedRefusal() == nil)
            }
        }
    }
}
