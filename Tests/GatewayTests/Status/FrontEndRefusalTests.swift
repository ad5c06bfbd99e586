import Foundation
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// The daemon's front ends (the HTTP API, the console) write through the application layer on
/// the daemon's store, not through its services: the status still says when the store refuses them.
@Suite("Live status: writes of the daemon's front ends")
struct FrontEndRefusalTests {
    @Test("A send the store refuses sets the store's refusal and readiness fails; the next write it takes clears both")
    func aRefusedSendShowsAndClears() async throws {
        let rig = try await MemoryRig.make()
        let live = LiveStatusTests.live(rig, context: rig.context)
        try rig.refuseWrites("INSERT", on: "outbox")
        let before = Date()
        #expect(throws: StoreError.self) { try Self.submit("hello bob", to: "bob", on: rig) }
        let status = try live.read(now: Date())
        let refusal = try #require(status.storeRefusal, "the refused send shows in the status")
        #expect(refusal.waiting == 0 && refusal.since >= before && refusal.error?.contains("full") == true)
        #expect(status.readiness == .notReady(refusal.sentence), "/health/ready answers 503")

        // Another front-end write, which the store takes (sends are still refused).
        var rng = SystemRandomNumberGenerator()
        _ = try APITokens.create(name: "after", scopes: [.read], lifetime: nil, store: rig.store, now: Date(), using: &rng)
        #expect(try live.read(now: Date()).storeRefusal == nil)
        #expect(try live.read(now: Date()).readiness == .ready(modems: ["m1"]))
    }

    @Test("A send refused for its own reasons (an unknown contact) is not the store refusing")
    func anOperationsRefusalIsNoStoreRefusal() async throws {
        let rig = try await MemoryRig.make()
        let live = LiveStatusTests.live(rig, context: rig.context)
        #expect(throws: (any Error).self) { try Self.submit("hello", to: "nobody", on: rig) }
        #expect(try live.read(now: Date()).storeRefusal == nil)
    }

    /// What the API's POST /v1/messages and the console's send page call, on `rig`'s store.
    static func submit(_ text: String, to contact: String, on rig: MemoryRig) throws {
        var rng = SystemRandomNumberGenerator()
        _ = try Messages.submit(text, to: contact, idempotencyKey: nil, queueLimit: nil, store: rig.store, now: Date(), using: &rng)
    }
}
