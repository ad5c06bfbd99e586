import Foundation
import Operations
import SMSCipher
import Store
import TestSupport

/// Several people, each with a store, paired two by two as `contact pair` does on both sides
/// (numbers and acknowledgements on), who exchange ciphertexts by hand: what one side's "modem"
/// sends is opened by the peer's store with ``Messages/decrypt(_:from:store:now:using:)``.
final class Gateways {
    private var directories: [TemporaryDirectory] = []
    private var stores: [String: UnlockedStore] = [:]
    private var numbers: [String: String] = [:]

    /// `names` each get a store; each pair in `pairs` becomes paired contacts on both sides.
    init(_ names: [String], pairs: [(String, String)]) throws {
        for (index, name) in names.enumerated() {
            let directory = TemporaryDirectory()
            directories.append(directory)
            stores[name] = try directory.unlockedStore()
            numbers[name] = "+1555000\(index + 1)"
        }
        var rng = SystemRandomNumberGenerator()
        for (left, right) in pairs {
            let rightOnLeft = try Contacts.add(name: right, numbers: [try PhoneNumber(numbers[right]!)], store: self[left], using: &rng)
            let leftOnRight = try Contacts.add(name: left, numbers: [try PhoneNumber(numbers[left]!)], store: self[right], using: &rng)
            _ = try Contacts.pair(right, code: try PairingCode(parsing: leftOnRight.pairingCode), store: self[left], now: Date())
            _ = try Contacts.pair(left, code: try PairingCode(parsing: rightOnLeft.pairingCode), store: self[right], now: Date())
            _ = try Contacts.edit(right, changes: .init(acknowledgements: true), store: self[left])
            _ = try Contacts.edit(left, changes: .init(acknowledgements: true), store: self[right])
        }
    }

    subscript(name: String) -> UnlockedStore { stores[name]! }

    /// Claims every queued SMS of `sender` as its modem would, records it sent, and returns each
    /// with the name of the peer it is for.
    func send(from sender: String, at time: Date) throws -> [(to: String, ciphertext: String)] {
        var sent: [(String, String)] = []
        let store = self[sender]
        func claim() throws -> (String, String)? {
            try store.write { tx in
                guard let item = try tx.claimNextOutbox(modem: "m1", now: time) else { return nil }
                try tx.markOutboxSent(item.id, reference: Int(item.id), modem: "m1", now: time)
                return (try tx.contact(id: item.contactID).name, item.body)
            }
        }
        while let item = try claim() {
            sent.append(item)
        }
        return sent
    }

    /// Sends everything `sender` queued and opens it at each peer, in `order` (duplicates kept);
    /// a copy the peer's cipher refuses as a duplicate is dropped, as the daemon drops it.
    @discardableResult
    func deliver(
        from sender: String, at time: Date, order: ([(to: String, ciphertext: String)]) -> [(to: String, ciphertext: String)] = { $0 }
    ) throws -> [AppliedMessage] {
        var rng = SystemRandomNumberGenerator()
        var applied: [AppliedMessage] = []
        for message in order(try send(from: sender, at: time)) {
            do {
                applied.append(try Messages.decrypt(message.ciphertext, from: sender, store: self[message.to], now: time, using: &rng))
            } catch CipherError.duplicate {
                continue
            }
        }
        return applied
    }

    /// The acknowledgements `receiver` owes, sent at `time` and opened by their senders.
    func acknowledge(from receiver: String, at time: Date) throws {
        var rng = SystemRandomNumberGenerator()
        try self[receiver].write { tx in _ = try Acknowledgements.sendDue(in: tx, delay: 0, now: time, using: &rng) }
        try deliver(from: receiver, at: time)
    }
}
