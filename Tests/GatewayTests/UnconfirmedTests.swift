import Foundation
import ModemSimulator
import Operations
import Store
import TestSupport
import Testing

extension GatewayIntegrationTests {
    /// An SMS the network drops gets no delivery report; status counts it once the threshold passed.
    @Suite("Sent SMS never confirmed")
    struct UnconfirmedTests {
        @Test func aDroppedSMSShowsInStatusAfterTheThreshold() async throws {
            let pair = try GatewayPair(test: "unconfirmed")
            try await pair.run {
                #expect(try await pair.waitUntilReady())
                let confirmed = try Messages.queue("this one arrives", to: "bob", store: pair.a.store)
                #expect(await eventually { try pair.a.store.read { try $0.outboxItem(id: confirmed.outboxID) }.state == .delivered })

                pair.a.sim.faults = FaultPlan(dropRate: 1)
                let dropped = try Messages.queue("the network drops this one", to: "bob", store: pair.a.store)
                #expect(await eventually { try pair.a.store.read { try $0.outboxItem(id: dropped.outboxID) }.state == .sent })
                let sentAt = try #require(try pair.a.store.read { try $0.outboxItem(id: dropped.outboxID) }.sentAt)

                let early = sentAt.addingTimeInterval(GatewayStatus.Unconfirmed.threshold - 60)
                #expect(try GatewayStatus.read(from: pair.a.store, now: early).unconfirmed == nil)
                let late = sentAt.addingTimeInterval(GatewayStatus.Unconfirmed.threshold + 60)
                let status = try GatewayStatus.read(from: pair.a.store, now: late)
                let unconfirmed = try #require(status.unconfirmed)
                #expect(unconfirmed.count == 1 && unconfirmed.oldestSentAt == sentAt)
                #expect(unconfirmed.sentence.hasPrefix("1 sent SMS has had no delivery report or acknowledgement"))
                // A week after it went out it is history: the count clears by itself.
                let history = sentAt.addingTimeInterval(GatewayStatus.Unconfirmed.window + 60)
                #expect(try GatewayStatus.read(from: pair.a.store, now: history).unconfirmed == nil)
                #expect(try GatewayStatus.readForBanners(from: pair.a.store, now: late).unconfirmed == unconfirmed)
                let json = try OperationsJSON.string(status)
                #expect(json.contains("\"unconfirmed\":{\"count\":1,\"oldestSentAt\":"))
            }
        }
    }
}
