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

        /// A modem with `status_reports = false` asks for no report: an SMS to a contact whose
        /// gateway does not acknowledge can never be confirmed, so it never counts; one sent while
        /// the contact has acknowledgements on counts when neither comes. What counts is what was
        /// true when the SMS went out, not the contact's settings now.
        @Test(arguments: StoreBackendKind.allCases)
        func aModemWithoutReportsCountsOnlyWhatAnAcknowledgementCouldConfirm(_ backend: StoreBackendKind) async throws {
            let pair = try GatewayPair(test: "unconfirmed-no-reports", sideA: backend, statusReportsA: false)
            try await pair.run {
                #expect(try await pair.waitUntilReady())
                let unanswerable = try Messages.queue("no report, no acknowledgement", to: "bob", store: pair.a.store)
                #expect(await eventually { try pair.b.store.incoming(.decrypted).count == 1 })
                #expect(await eventually { try pair.a.store.read { try $0.outboxItem(id: unanswerable.outboxID) }.state == .sent })
                let first = try pair.a.store.read { try $0.outboxItem(id: unanswerable.outboxID) }
                let firstSent = try #require(first.sentAt)
                #expect(first.confirmable == false)
                let late = firstSent.addingTimeInterval(GatewayStatus.Unconfirmed.threshold + 60)
                #expect(try GatewayStatus.read(from: pair.a.store, now: late).unconfirmed == nil)

                // Acknowledgements on for bob on this side only: bob's gateway never sends one.
                _ = try Contacts.edit("bob", changes: .init(acknowledgements: true), store: pair.a.store)
                let awaited = try Messages.queue("an acknowledgement could confirm this", to: "bob", store: pair.a.store)
                #expect(await eventually { try pair.b.store.incoming(.decrypted).count == 2 })
                #expect(await eventually { try pair.a.store.read { try $0.outboxItem(id: awaited.outboxID) }.state == .sent })
                let secondSent = try #require(try pair.a.store.read { try $0.outboxItem(id: awaited.outboxID) }.sentAt)
                let later = secondSent.addingTimeInterval(GatewayStatus.Unconfirmed.threshold + 60)
                let unconfirmed = try #require(try GatewayStatus.read(from: pair.a.store, now: later).unconfirmed)
                #expect(unconfirmed.count == 1 && unconfirmed.oldestSentAt == secondSent)
            }
        }

        /// An operator who asked the contact marks the unconfirmed SMS checked: they stop counting,
        /// the audit list says who did it, and the delivery report that comes later (the contact's
        /// phone was off, the SMS waited at the SMSC) is still recorded.
        @Test(arguments: StoreBackendKind.allCases)
        func aCheckedSMSStopsCountingAndItsLateReportIsRecorded(_ backend: StoreBackendKind) async throws {
            let pair = try GatewayPair(test: "unconfirmed-checked", sideA: backend)
            try await pair.run {
                #expect(try await pair.waitUntilReady())
                pair.b.sim.unplug()
                let waiting = try Messages.queue("bob's phone is off", to: "bob", store: pair.a.store)
                #expect(await eventually { try pair.a.store.read { try $0.outboxItem(id: waiting.outboxID) }.state == .sent })
                let sentAt = try #require(try pair.a.store.read { try $0.outboxItem(id: waiting.outboxID) }.sentAt)
                let late = sentAt.addingTimeInterval(GatewayStatus.Unconfirmed.threshold + 60)
                #expect(try GatewayStatus.read(from: pair.a.store, now: late).unconfirmed?.count == 1)

                let marked = try GatewayStatus.Unconfirmed.markChecked(
                    .all, by: .operator("ops"), address: "192.0.2.1", store: pair.a.store, now: late)
                #expect(marked == 1)
                #expect(try GatewayStatus.read(from: pair.a.store, now: late).unconfirmed == nil)
                let audit = try Audit.list(limit: 1, in: pair.a.store)
                #expect(audit.first?.action == "unconfirmed-checked" && audit.first?.actorName == "ops" && audit.first?.target == "all")

                try pair.b.sim.replug()
                #expect(
                    await eventually(timeout: .seconds(180)) {
                        try pair.a.store.read { try $0.outboxItem(id: waiting.outboxID) }.state == .delivered
                    })
                #expect(try pair.a.store.read { try $0.logEntry(id: waiting.logID) }.status == .delivered)
            }
        }
    }
}
