import Dispatch
import Foundation
import Store
import TestSupport
import Testing

@testable import Gateway

/// ``StoreClosing``: `serve` closes its store after its services stopped, and a close that does
/// not return (a hung PostgreSQL server) no longer holds the exit.
@Suite("The store's close at the daemon's exit")
struct StoreClosingTests {
    @Test("A close that never returns is abandoned after the grace, and the exit goes on")
    func aHungCloseIsAbandoned() async {
        let hung = DispatchSemaphore(value: 0)
        // Released once the test has its answer, so the close's thread ends with the test.
        defer { hung.signal() }
        let outcome = await StoreClosing.close(within: 0.2) { hung.wait() }
        #expect(outcome == .abandoned)
    }

    @Test("A close that returns or throws within the grace is waited for", arguments: [true, false])
    func aCloseWithinTheGrace(fails: Bool) async {
        struct Refused: Error, CustomStringConvertible { var description: String { "the disk refused the checkpoint" } }
        let outcome = await StoreClosing.close(within: 600) { if fails { throw Refused() } }
        #expect(outcome == (fails ? .failed("the disk refused the checkpoint") : .closed))
    }

    @Test("A real store closes, its -wal folded into the database file", arguments: StoreBackendKind.allCases)
    func aRealStoreCloses(backend: StoreBackendKind) async throws {
        let location = try location(backend)
        let (_, store) = try location.unlockedStore()
        _ = try store.addContact(name: "bob", number: nil, pairingCode: Data("code".utf8))
        let outcome = await StoreClosing.close(store, logger: TestStore.logger)
        #expect(outcome == .closed)
        if backend == .sqlite {
            let wal = location.directory.url.appendingPathComponent("smsgw.sqlite-wal").path
            let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            #expect(size == 0, "the -wal still holds \(size) bytes")
        }
        withExtendedLifetime(location) {}
    }
}
