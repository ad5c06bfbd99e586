import Failures
import Foundation
import TestSupport
import Testing

@testable import Store

/// The hold a migration keeps on a SQLite store's writes (``GatewayStore/holdingWrites(_:)``)
/// gives its database errors back as ``StoreError``s, with a category and the database's words,
/// as on PostgreSQL: those of its own connection and those of the store's reads inside it.
@Suite("A SQLite store's write hold: its errors")
struct WriteHoldErrorTests {
    @Test("A read of the store that fails inside the hold comes back as a StoreError naming no path")
    func aFailedReadInsideTheHoldIsAStoreError() throws {
        let directory = TemporaryDirectory()
        let store = try directory.open()
        #expect {
            try store.holdingWrites { _ in
                try store.readTransaction { db in try db.execute(sql: "SELECT missing FROM no_such_table") }
            }
        } throws: { error in
            guard let error = error as? StoreError, case .database(let message, _) = error else { return false }
            return message.contains("no such table") && !message.contains(directory.url.path) && error.category == .storage
        }
        // The hold ended: the store takes writes again.
        try store.writeTransaction { db in try db.execute(sql: "CREATE TABLE after_the_hold (id INTEGER)") }
    }
}
