import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Store

/// Writes scoped to contacts (``WriteScope``): on PostgreSQL, two stores on one database (two
/// nodes) step different contacts at once and one contact in turn (issue 18, item 2).
@Suite("Writes scoped to contacts", .blockingOffPool)
struct ContactLockTests {
    /// Adds `names` as paired contacts whose session is the counter "0".
    static func counters(_ names: [String], in store: UnlockedStore) throws {
        for name in names {
            let contact = try store.addContact(name: name, number: nil, pairingCode: Data())
            try store.write { try $0.setPaired(contact, session: Data("0".utf8)) }
        }
    }

    /// Adds one to the contact's counter in one write scoped to the contact; `inside` runs
    /// within the transaction, after the increment.
    @discardableResult
    static func increment(_ name: String, in store: UnlockedStore, inside: () -> Void = {}) throws -> Int {
        try store.write(.contact(named: name)) { tx in
            let contact = try tx.contact(named: name)
            let next = (Int(String(decoding: try tx.session(for: contact) ?? Data(), as: UTF8.self)) ?? -1) + 1
            try tx.setSession(Data(String(next).utf8), for: contact)
            inside()
            return next
        }
    }

    @Test("Writes on two contacts from two stores, many threads each, never lose a step", arguments: StoreBackendKind.allCases)
    func contactWritersNeverLoseAStep(_ backend: StoreBackendKind) throws {
        let location = try location(backend)
        let (_, a) = try location.unlockedStore()
        try Self.counters(["alice", "bob"], in: a)
        let b = try location.open().unlock(passphrase: TestStore.passphrase)
        let stores = [a, b]
        let perThread = 20
        let failures = Mutex<[String]>([])
        // Each thread steps one contact; both contacts are stepped from both stores.
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<perThread {
                do {
                    try Self.increment(thread % 4 < 2 ? "alice" : "bob", in: stores[thread % 2])
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        for name in ["alice", "bob"] {
            let final = try b.read { try $0.session(for: $0.contact(named: name)) }
            #expect(final == Data(String(4 * perThread).utf8), "\(name)")
        }
    }

    @Test("On PostgreSQL another contact's write goes on while one contact's is open; the same contact's and the whole database's wait")
    func otherContactsGoOn() throws {
        let location = try location(.postgresql)
        let (gateway, a) = try location.unlockedStore()
        try Self.counters(["alice", "bob"], in: a)
        let b = try location.open().unlock(passphrase: TestStore.passphrase)

        // a holds alice's step open until released.
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Completion {
            try Self.increment("alice", in: a) {
                inside.signal()
                release.wait()
            }
        }
        #expect(inside.wait(timeout: .now() + 120) == .success)
        defer { release.signal() }

        // b steps bob meanwhile: its write does not wait for alice's.
        let bob = Completion { try Self.increment("bob", in: b) }
        #expect(bob.wait(seconds: 120) == .success(1), "bob's step waited for alice's")

        // b's step of alice and a write over the whole database both wait for the lock.
        let secondAlice = Completion { try Self.increment("alice", in: b) }
        try eventuallyWaiting(advisoryLocks: 1, on: gateway)
        let whole = Completion { try b.write { tx in try tx.contacts().count } }
        try eventuallyWaiting(advisoryLocks: 2, on: gateway)
        #expect(secondAlice.result == nil && whole.result == nil)

        release.signal()
        #expect(holder.wait(seconds: 120) == .success(1))
        // Alice's second step started from the first's committed state.
        #expect(secondAlice.wait(seconds: 120) == .success(2))
        #expect(whole.wait(seconds: 120) == .success(2))
    }

    @Test("Lock keys: one per contact found by name or number, sorted; unknown names and numbers lock nothing")
    func lockKeys() throws {
        let location = try location(.postgresql)
        let (gateway, a) = try location.unlockedStore()
        let alice = try a.addContact(name: "Alice", number: try PhoneNumber("+15550001"), pairingCode: Data())
        let bob = try a.addContact(name: "bob", number: try PhoneNumber("+15550002"), pairingCode: Data())
        let scope = WriteScope.contacts(
            named: ["ALICE", "bob", "nobody"], numbers: [try PhoneNumber("+15550002"), try PhoneNumber("+15559999")])
        let keys = try gateway.readTransaction { try scope.contactLockKeys($0) }
        #expect(keys == [WriteScope.lockKey(for: alice.id), WriteScope.lockKey(for: bob.id)].sorted())
        #expect(keys.allSatisfy { $0 >> 32 == WriteScope.contactLockSpace >> 32 })
        #expect(try gateway.readTransaction { try WriteScope.database.contactLockKeys($0) } == [])
        #expect(try gateway.readTransaction { try WriteScope.contact(number: nil).contactLockKeys($0) } == [])
    }

    /// Waits until `count` of this database's sessions wait for an advisory lock.
    private func eventuallyWaiting(advisoryLocks count: Int, on gateway: GatewayStore) throws {
        let query = """
            SELECT count(*) FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """
        let deadline = Date().addingTimeInterval(120)
        while try gateway.readTransaction({ try $0.value(Int64.self, sql: query) }) != Int64(count) {
            try #require(Date() < deadline, "\(count) sessions never waited for a lock")
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}

/// A throwing closure run on a thread of its own, whose result can be awaited with a deadline.
private final class Completion<T: Equatable & Sendable>: Sendable {
    private let outcome = Mutex<Result<T, StoreTestFailure>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () throws -> T) {
        Thread.detachNewThread { [self] in
            let result = Result { try body() }.mapError { StoreTestFailure(description: "\($0)") }
            outcome.withLock { $0 = result }
            done.signal()
        }
    }

    /// The result so far, nil while the body runs.
    var result: Result<T, StoreTestFailure>? { outcome.withLock { $0 } }

    /// The result, or a failure saying the body did not end within `seconds`.
    func wait(seconds: Double) -> Result<T, StoreTestFailure> {
        guard done.wait(timeout: .now() + seconds) == .success else {
            return .failure(StoreTestFailure(description: "did not end within \(seconds) s"))
        }
        done.signal()
        return result!
    }
}

private struct StoreTestFailure: Error, Equatable, Sendable {
    var description: String
}
