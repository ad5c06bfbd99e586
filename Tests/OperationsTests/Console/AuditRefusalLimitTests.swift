import Foundation
import Operations
import Store
import TestSupport
import Testing

/// Refusals in the audit list: at most ``Audit/refusalLimit`` of one actor within a minute, so a
/// client repeating a refused request cannot grow the list without bound.
@Suite("Audit refusal limit")
struct AuditRefusalLimitTests {
    /// On both backends: the cap's count (``StoreReader/recentRefusals(actorKind:actorName:since:among:)``)
    /// is one statement with a subquery, which each must run as written.
    @Test(
        "Refusals of one actor beyond the limit within a minute are not written; other actors, other outcomes and a later minute are",
        arguments: StoreBackendKind.allCases)
    func refusalsPerActorAndMinute(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            let now = Date(timeIntervalSince1970: 1_900_000_000)
            for index in 0..<(Audit.refusalLimit + 5) {
                try Audit.record(
                    .send, by: .token("script"), target: "/v1/messages/\(index)", outcome: .refused, address: "192.0.2.1", in: store,
                    now: now.addingTimeInterval(Double(index)))
            }
            let refused = {
                try Audit.list(limit: 1000, in: store).filter { $0.actor == "token" && $0.actorName == "script" && $0.outcome == "refused" }
            }
            #expect(try refused().count == Audit.refusalLimit, "the first ones show what it tried")
            try Audit.record(.send, by: .token("other"), target: "/v1/messages", outcome: .refused, in: store, now: now)
            try Audit.record(.send, by: .operator("script"), target: "/send", outcome: .refused, in: store, now: now)
            try Audit.record(.send, by: .token("script"), target: "bob", in: store, now: now)
            let others = try Audit.list(limit: 1000, in: store).filter {
                $0.actorName != "script" || $0.outcome != "refused" || $0.actor != "token"
            }
            #expect(others.count == 3, "another token, an operator of the same name and a send done are written: \(others)")
            try Audit.record(
                .send, by: .token("script"), target: "/v1/messages", outcome: .refused, in: store, now: now.addingTimeInterval(120))
            #expect(try refused().count == Audit.refusalLimit + 1, "a minute later it is written again")
            // The command line is an actor without a name, stored as NULL.
            for index in 0..<(Audit.refusalLimit + 5) {
                try Audit.record(
                    .nodeForgotten, by: .commandLine, target: "node-\(index)", outcome: .refused, in: store,
                    now: now.addingTimeInterval(Double(index)))
            }
            let commandLine = try Audit.list(limit: 1000, in: store).filter { $0.actor == "command-line" }
            #expect(commandLine.count == Audit.refusalLimit, "the command line's refusals are capped too: \(commandLine.count)")
        }
    }
}
