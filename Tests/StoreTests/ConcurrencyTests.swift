import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Store

@Suite("Two processes on one file", .blockingOffPool)
struct ConcurrencyTests {
    @Test("Two stores on the same file, many threads each, never lose an increment", arguments: StoreBackendKind.allCases)
    func concurrentWritersSerialize(_ backend: StoreBackendKind) throws {
        let directory = try location(backend)
        let first = try directory.open()
        let a = try first.createAccount(username: "u", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
        let alice = try a.addContact(name: "alice", number: nil, pairingCode: Data())
        try a.write { try $0.setPaired(alice, session: Data("0".utf8)) }

        // A second GatewayStore has its own connections, as a second process would.
        let b = try directory.open().unlock(passphrase: TestStore.passphrase)
        let stores = [a, b]
        let threads = 8
        let incrementsPerThread = 25
        let failures = Mutex<[String]>([])

        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let store = stores[thread % 2]
            for _ in 0..<incrementsPerThread {
                do {
                    try store.write { tx in
                        let contact = try tx.contact(named: "alice")
                        let current = Int(String(decoding: try tx.session(for: contact) ?? Data(), as: UTF8.self)) ?? -1
                        try tx.setSession(Data(String(current + 1).utf8), for: contact)
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }

        #expect(failures.withLock { $0.isEmpty })
        let final = try b.read { try $0.session(for: $0.contact(named: "alice")) }
        #expect(final == Data(String(threads * incrementsPerThread).utf8))
    }

    @Test("A write waits for the other store's open transaction instead of failing", arguments: StoreBackendKind.allCases)
    func writerWaitsForOtherProcess(_ backend: StoreBackendKind) throws {
        let directory = try location(backend)
        let a = try directory.open().createAccount(username: "u", passphrase: TestStore.passphrase, parameters: .minimum)
        let b = try directory.open().unlock(passphrase: TestStore.passphrase)
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? a.write { tx in
                _ = try tx.addContact(name: "first", number: nil, pairingCode: Data())
                started.signal()
                Thread.sleep(forTimeInterval: 0.3)
            }
            done.signal()
        }
        started.wait()
        let names = try b.write { tx in
            _ = try tx.addContact(name: "second", number: nil, pairingCode: Data())
            return try tx.contacts().map(\.name)
        }
        done.wait()
        // b's IMMEDIATE transaction began only after a's committed, so it saw "first".
        #expect(names == ["first", "second"])
    }
}
