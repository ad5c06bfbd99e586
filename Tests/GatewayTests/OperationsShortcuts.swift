import Foundation
import Operations
import Store

// The operations as the daemon's tests call them: the system's clock and randomness, as the CLI passes.

extension Messages {
    @discardableResult
    static func queue(_ text: String, to contact: String, store: UnlockedStore) throws -> QueuedMessage {
        var rng = SystemRandomNumberGenerator()
        return try queue(text, to: contact, store: store, now: Date(), using: &rng)
    }
}

extension Resync {
    static func start(with contact: String, store: UnlockedStore) throws -> StartedResync {
        var rng = SystemRandomNumberGenerator()
        return try start(with: contact, store: store, now: Date(), using: &rng)
    }

    static func accept(from contact: String, store: UnlockedStore) throws -> AcceptedResync {
        var rng = SystemRandomNumberGenerator()
        return try accept(from: contact, store: store, now: Date(), using: &rng)
    }
}

extension GatewayStatus {
    static func read(from store: UnlockedStore) throws -> GatewayStatus {
        try read(from: store, now: Date())
    }
}
