import Foundation
import Gateway
import ModemSimulator
import Operations
import Store
import TestSupport
import Testing

extension GatewayIntegrationTests {
    /// One gateway with several modems talking to one peer gateway with several modems: the
    /// contact has all of the peer's numbers, the outbox is shared by the modems, and a contact
    /// pinned to a modem fails over to the others while that modem is away.
    @Suite("Gateways with two modems each")
    struct MultiModemTests {
        @Test func messagesUseEveryModemAndEveryNumberAndAllDecrypt() async throws {
            let pair = try GatewayPair(test: "multi-modem", modemsPerSide: 2)
            try await pair.run {
                #expect(try await pair.waitUntilReady())

                try await pair.exchange(8, toBob: { "to bob #\($0)" }, toAlice: { "to alice #\($0)" })
                // Nothing from the peer's second number was taken for an unknown sender.
                #expect(try pair.b.store.incoming(.plain).isEmpty && pair.a.store.incoming(.plain).isEmpty)

                for side in [pair.a, pair.b] {
                    let sent = try side.store.outbox([.sent, .delivered])
                    #expect(sent.count == 8)
                    // Both of this side's modems sent, to both of the peer's numbers, half each.
                    #expect(Set(sent.compactMap(\.modem)) == Set(side.modemNames))
                    let numbers = Dictionary(grouping: sent, by: \.number.e164).mapValues(\.count)
                    #expect(numbers.count == 2 && numbers.values.allSatisfy { $0 == 4 })
                }
                // Each modem of the receiving side took its share, and delivery reports came back to
                // the modem that sent each SMS.
                let received = await eventually {
                    try GatewayStatus.read(from: pair.b.store).modems.allSatisfy { $0.receivedCount > 0 }
                }
                #expect(received)
                // A report whose +CDS notice was missed is read at the storage's fallback read (10 ×
                // health_seconds); under a loaded machine that can take more than half a minute, and
                // once in a full run beside heavy builds more than a minute.
                let delivered = await eventually(timeout: .seconds(180)) {
                    try pair.a.store.outbox([.delivered]).count == 8 && pair.b.store.outbox([.delivered]).count == 8
                }
                #expect(delivered)
            }
        }

        @Test func aPinnedContactUsesItsModemAndFailsOverWhileItIsAway() async throws {
            let pair = try GatewayPair(test: "multi-modem-pin", modemsPerSide: 2)
            try await pair.run {
                let (first, second) = (pair.a.modemNames[0], pair.a.modemNames[1])
                _ = try pair.a.store.write { try $0.setModem(first, forContactNamed: "bob") }
                #expect(try await pair.waitUntilReady())

                for index in 0..<4 {
                    try Messages.queue("pinned #\(index)", to: "bob", store: pair.a.store)
                }
                #expect(await eventually(timeout: .seconds(60)) { try pair.b.store.incoming(.decrypted).count == 4 })
                #expect(try pair.a.store.outbox([.sent, .delivered]).allSatisfy { $0.modem == first })

                // The pinned modem goes away: its contact's SMS leave through the other modem.
                pair.a.sims[0].unplug()
                #expect(
                    await eventually(timeout: .seconds(60)) {
                        try GatewayStatus.read(from: pair.a.store).modems.first { $0.name == first }?.state != .ready
                    })
                let ids = try Set(
                    (0..<4).map { index in
                        try Messages.queue("failover #\(index)", to: "bob", store: pair.a.store).outboxID
                    })
                #expect(await eventually(timeout: .seconds(60)) { try pair.b.store.incoming(.decrypted).count == 8 })
                // The sender records each SMS as sent just after the network took it, so a moment after bob may have it.
                #expect(await eventually { try pair.a.store.outbox([.sent, .delivered]).filter { ids.contains($0.id) }.count == 4 })
                let failedOver = try pair.a.store.outbox([.sent, .delivered]).filter { ids.contains($0.id) }
                #expect(failedOver.map(\.modem) == Array(repeating: second, count: 4))

                // Back again: the pinned modem takes its contact's SMS once more.
                try pair.a.sims[0].replug()
                #expect(
                    await eventually(timeout: .seconds(90)) {
                        try GatewayStatus.read(from: pair.a.store).modems.allSatisfy { $0.state == .ready }
                    })
                let last = try Messages.queue("back on the pinned modem", to: "bob", store: pair.a.store)
                #expect(
                    await eventually(timeout: .seconds(60)) {
                        try pair.b.store.incoming(.decrypted).contains { $0.text == "back on the pinned modem" }
                            && pair.a.store.outbox([.sent, .delivered]).contains { $0.id == last.outboxID }
                    })
                #expect(try pair.a.store.read { try $0.outboxItem(id: last.outboxID) }.modem == first)
            }
        }
    }
}
