import AsyncHTTPClient
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// The HTTP API of a real `smsgw serve --sim`, through a real HTTP client over loopback: tokens
/// and scopes, the errors every client meets, idempotent sends under concurrent retries, and the
/// event stream's resume.
@Suite("HTTP API", .serialized)
struct HTTPAPITests {
    /// alice, paired with bob (bob reachable at the simulated +15550002), runs `serve --sim`.
    struct Fixture {
        let alice: Peer
        let daemon: ServeProcess
        let base: String

        /// - Parameter restored: Whether alice's store is restored from a backup of itself first
        ///   (her keys for bob marked restored).
        static func start(in root: URL, environment: [String: String] = [:], restored: Bool = false) async throws -> Fixture {
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+15550002"])
            if restored {
                let backup = root.appendingPathComponent("alice-backup.sqlite")
                try alice.expect(["backup", backup.path])
                try alice.expect(["restore", backup.path])
            }
            let daemon = try await ServeProcess.simulated(alice, in: root, environment: environment)
            return Fixture(alice: alice, daemon: daemon, base: try await waitForAPI(log: daemon.log))
        }

        func client(scopes: String?, name: String = "client-\(UUID().uuidString.prefix(6))") throws -> APIClient {
            try APIClient(base: base, token: try scopes.map { try alice.makeToken(name, scopes: $0) })
        }
    }

    @Test("Without a token 401, with the wrong scope 403, revoked 401; health needs none; paths in the status for admin only")
    func scopes() async throws {
        try await withTemporaryDirectory { root in
            let backups = root.appendingPathComponent("backups")
            try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let fixture = try await Fixture.start(in: root, environment: ["SMSGW_BACKUP_DIRECTORY": backups.path])
            let anonymous = try fixture.client(scopes: nil)
            let missing = try await anonymous.get("/v1/contacts")
            #expect(missing.status == 401)
            #expect(missing.headers.first(name: "WWW-Authenticate") == "Bearer")
            #expect(missing.headers.first(name: "Content-Type") == "application/problem+json")
            #expect((missing.object["detail"] as? String)?.contains("Authorization: Bearer") == true)
            #expect(try await anonymous.get("/health/live").status == 200)
            let wrong = try APIClient(base: fixture.base, token: "smsgw_not-a-token")
            #expect(try await wrong.get("/v1/contacts").status == 401)

            let reader = try fixture.client(scopes: "read", name: "reader")
            #expect(try await reader.get("/v1/contacts").status == 200)
            let admin = try fixture.client(scopes: "admin", name: "chief")
            var newest: String?
            let backedUp = await eventually(timeout: .seconds(60), every: .milliseconds(500)) {
                newest = (try await admin.get("/v1/status").object["backup"] as? [String: Any])?["lastFile"] as? String
                return newest != nil
            }
            #expect(
                backedUp && newest?.hasPrefix(backups.path) == true, "an admin token sees the newest backup's path: \(newest ?? "none")")
            let withheld = try #require(try await reader.get("/v1/status").object["backup"] as? [String: Any])
            #expect(withheld["directory"] as? String == "" && withheld["lastFile"] is NSNull, "\(withheld)")
            #expect(withheld["lastSuccessAt"] is String, "the times stay: \(withheld)")
            let refused = try await reader.post(text: "hello", to: "bob")
            #expect(refused.status == 403, "\(refused.text)")
            #expect((refused.object["detail"] as? String)?.contains("send scope") == true)
            #expect(try await reader.send(.POST, "/v1/contacts/bob/resync").status == 403)

            let scraper = try fixture.client(scopes: "metrics", name: "scraper")
            #expect(try await scraper.get("/metrics").status == 200, "the metrics scope reads the metrics")
            #expect(try await scraper.get("/v1/messages").status == 403, "and nothing else")
            #expect(try await reader.get("/metrics").status == 200, "read includes the metrics")

            try fixture.alice.expect(["api", "token", "revoke", "reader"])
            let again = try fixture.alice.run(["api", "token", "revoke", "reader"])
            #expect(again.status == 66 && again.stderr.contains("`smsgw api token list`"), "\(again.stderr)")
            #expect(try await reader.get("/v1/contacts").status == 401)
            let listed = try fixture.alice.expect(["api", "token", "list", "--json"])
            #expect(!listed.stdout.contains("\"reader\""))
            #expect(!listed.stdout.contains("smsgw_"), "a token list never shows a token")
        }
    }

    @Test("After 11 bad tokens from loopback a valid token is still served; a bad or missing one gets 429")
    func throttleSparesValidTokens() async throws {
        try await withTemporaryDirectory { root in
            let fixture = try await Fixture.start(in: root)
            let client = try fixture.client(scopes: "send,read")
            for index in 0...10 {
                let guess = try APIClient(base: fixture.base, token: "smsgw_bad\(index)")
                #expect([401, 429].contains(try await guess.get("/v1/contacts").status))
            }
            let refused = try await APIClient(base: fixture.base, token: "smsgw_bad11").get("/v1/contacts")
            #expect(refused.status == 429 && refused.headers.first(name: "Retry-After") != nil, "\(refused.status) \(refused.text)")
            #expect(try await APIClient(base: fixture.base, token: nil).get("/v1/contacts").status == 429)
            let served = try await client.get("/v1/contacts")
            #expect(served.status == 200, "a valid token is served on a throttled address: \(served.status) \(served.text)")
            #expect(try await client.post(text: "still here", to: "bob").status == 202)
            let after = try await APIClient(base: fixture.base, token: "smsgw_bad12").get("/v1/contacts")
            #expect(after.status == 429, "a valid token does not clear the address's failures")
        }
    }

    @Test("413 over 64 KiB, 400 for malformed JSON naming the fault, 404, 405 with Allow, 422 naming the character, 409 without a number")
    func errors() async throws {
        try await withTemporaryDirectory { root in
            let fixture = try await Fixture.start(in: root)
            let client = try fixture.client(scopes: "send,read")
            let large = try await client.send(.POST, "/v1/messages", body: Data(repeating: 0x61, count: 70_000))
            #expect(large.status == 413, "\(large.text)")
            let malformed = try await client.send(.POST, "/v1/messages", body: Data("{\"contact\": \"bob\",".utf8))
            #expect(malformed.status == 400)
            #expect((malformed.object["detail"] as? String)?.contains("not valid JSON") == true, "\(malformed.text)")
            let lacking = try await client.send(.POST, "/v1/messages", json: ["contact": "bob"])
            #expect(lacking.status == 400)
            #expect((lacking.object["detail"] as? String)?.contains("\"text\"") == true, "\(lacking.text)")
            let unknownPath = try await client.get("/v1/nothing")
            #expect(unknownPath.status == 404)
            #expect(unknownPath.headers.first(name: "Content-Type") == "application/problem+json")
            let wrongMethod = try await client.send(.DELETE, "/v1/status")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.headers.first(name: "Allow") == "GET")
            #expect(try await client.post(text: "hello", to: "nobody").status == 404)
            let notGSM = try await client.post(text: "snow ☃ here", to: "bob")
            #expect(notGSM.status == 422, "\(notGSM.text)")
            #expect((notGSM.object["detail"] as? String)?.contains("☃") == true, "\(notGSM.text)")
            #expect(try await client.get("/v1/messages/999999").status == 404)

            // A contact without a number: 409, which no wait fixes, so no Retry-After.
            try fixture.alice.expect(["contact", "add", "carol"])
            let admin = try fixture.client(scopes: "send,admin")
            for answer in [try await admin.post(text: "hello", to: "carol"), try await admin.send(.POST, "/v1/contacts/carol/resync")] {
                #expect(answer.status == 409 && answer.headers.first(name: "Retry-After") == nil, "\(answer.status) \(answer.headers)")
                #expect((answer.object["detail"] as? String)?.contains("has no phone number") == true, "\(answer.text)")
                #expect(answer.object["type"] as? String == "urn:smsgw:problem:conflict")
            }
            // Not paired either: the send says both in one sentence.
            let both = try await admin.post(text: "hello", to: "carol")
            #expect((both.object["detail"] as? String)?.contains("has no phone number and is not paired yet") == true, "\(both.text)")
        }
    }

    @Test(
        "Marking unconfirmed SMS checked needs admin; 200 with the count, 404 unknown, 409 for a delivered message; audited, refusals too")
    func markChecked() async throws {
        try await withTemporaryDirectory { root in
            let fixture = try await Fixture.start(in: root)
            let reader = try fixture.client(scopes: "read", name: "watch")
            #expect(try await reader.send(.POST, "/v1/status/unconfirmed/checked").status == 403)
            #expect(try await reader.send(.POST, "/v1/messages/1/checked").status == 403)
            #expect(try await reader.post(text: "not allowed", to: "bob").status == 403)
            #expect(try await reader.send(.POST, "/v1/contacts/bob/resync").status == 403)
            let refusals = try fixture.alice.expect(["audit"]).stdout
            for line in [
                "token watch\tunconfirmed-checked\t/v1/status/unconfirmed/checked\trefused",
                "token watch\tunconfirmed-checked\t/v1/messages/1/checked\trefused", "token watch\tsend\t/v1/messages\trefused",
                "token watch\tresync\t/v1/contacts/bob/resync\trefused",
            ] {
                #expect(refusals.contains(line), "\(refusals)")
            }
            let admin = try fixture.client(scopes: "admin", name: "desk")
            let none = try await admin.send(.POST, "/v1/status/unconfirmed/checked")
            #expect(none.status == 200 && none.object["checked"] as? Int == 0, "\(none.text)")
            #expect(try await admin.send(.POST, "/v1/messages/999999/checked").status == 404)
            let id = try #require(try await admin.post(text: "confirmed by its report", to: "bob").object["id"] as? Int)
            try await GatewayRig.wait("the delivery report", timeout: 90) {
                try fixture.alice.expect(["log", "show", "\(id)", "--json"]).stdout.contains("\"status\":\"delivered\"")
            }
            let delivered = try await admin.send(.POST, "/v1/messages/\(id)/checked")
            #expect(delivered.status == 409 && delivered.object["type"] as? String == "urn:smsgw:problem:conflict", "\(delivered.text)")
            let audit = try fixture.alice.expect(["audit"]).stdout
            #expect(audit.contains("token desk\tunconfirmed-checked\tall\tdone"), "\(audit)")
            #expect(audit.contains("token desk\tsend\tbob\tdone"), "a send is audited as the console's are: \(audit)")
        }
    }

    @Test("409 for a text while the contact's keys are restored from a backup; the resync is accepted")
    func restoredKeys() async throws {
        try await withTemporaryDirectory { root in
            let fixture = try await Fixture.start(in: root, restored: true)
            let client = try fixture.client(scopes: "send,admin", name: "desk")
            let refused = try await client.post(text: "after the restore", to: "bob")
            #expect(refused.status == 409 && refused.object["type"] as? String == "urn:smsgw:problem:conflict", "\(refused.text)")
            #expect((refused.object["detail"] as? String)?.contains("have not been resynced since") == true, "\(refused.text)")
            let resync = try await client.send(.POST, "/v1/contacts/bob/resync")
            #expect(resync.status == 202, "\(resync.status) \(resync.text)")
            #expect(try await client.post(text: "during the resync", to: "bob").status == 409)
            let audit = try fixture.alice.expect(["audit"]).stdout
            #expect(audit.contains("token desk\tresync\tbob\tdone"), "a resync is audited as the console's are: \(audit)")
            #expect(!audit.contains("token desk\tsend\tbob"), "a send refused by the rules queues nothing and is not audited: \(audit)")
        }
    }

    @Test("The same Idempotency-Key from 20 clients at once queues one message; another body with it gets 409")
    func idempotency() async throws {
        try await withTemporaryDirectory { root in
            let fixture = try await Fixture.start(in: root)
            let token = try fixture.alice.makeToken("sender", scopes: "send,read")
            let clients = try (0..<20).map { _ in try APIClient(base: fixture.base, token: token) }
            let key = UUID().uuidString
            let answers = try await withThrowingTaskGroup(of: APIClient.Answer.self) { group in
                for client in clients { group.addTask { try await client.post(text: "only once", to: "bob", key: key) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.status == 202 }, "\(answers.map(\.status))")
            let ids = Set(answers.compactMap { $0.object["id"] as? Int })
            #expect(ids.count == 1, "every client got the same message: \(ids)")
            #expect(answers.filter { $0.headers.first(name: "Idempotent-Replayed") == nil }.count == 1)
            let id = try #require(ids.first)
            #expect(answers[0].headers.first(name: "Location") == "/v1/messages/\(id)")
            let log = try fixture.alice.expect(["log", "--json", "--limit", "1000"])
            #expect(log.lines.filter { $0.contains("\"only once\"") }.count == 1, "one message queued")
            let audited = try fixture.alice.expect(["audit"]).lines.filter { $0.contains("token sender\tsend\tbob\tdone") }
            #expect(audited.count == 1, "the send that queued is audited, its replays are not: \(audited)")
            let conflict = try await clients[0].post(text: "something else", to: "bob", key: key)
            #expect(conflict.status == 409, "\(conflict.text)")

            let detail = try await clients[0].get("/v1/messages/\(id)")
            #expect(detail.status == 200)
            #expect(detail.object["contact"] as? String == "bob")
            #expect(detail.object["text"] as? String == "only once")
            #expect((detail.object["history"] as? [[String: Any]])?.first?["status"] as? String == "queued")
        }
    }

    @Test("A page of messages and its cursor: new messages come after, nothing repeats; a cursor ahead of the store is 409")
    func paging() async throws {
        try await withFivePages { client in
            let first = try await client.get("/v1/messages?direction=out&limit=3")
            #expect(Self.texts(first) == ["page 0", "page 1", "page 2"])
            let next = try #require(first.object["next"] as? Int)
            #expect(try await client.post(text: "page 5", to: "bob").status == 202)
            let second = try await client.get("/v1/messages?direction=out&limit=3&after=\(next)")
            #expect(Self.texts(second) == ["page 3", "page 4", "page 5"])
            #expect(try await client.get("/v1/messages?direction=sideways").status == 400)
            // A cursor this store never gave (a restored backup's client) is refused, not an empty page for ever.
            let last = try #require(second.object["next"] as? Int)
            #expect(try await client.get("/v1/messages?after=\(last)").status == 200)
            let ahead = try await client.get("/v1/messages?after=\(last + 1000)")
            #expect(ahead.status == 409)
            #expect((ahead.object["detail"] as? String)?.contains("ahead of every message of this store") == true, "\(ahead.object)")
        }
    }

    @Test("Newest first: pages go towards older messages, one logged meanwhile shifts none; an unknown order or state is 400")
    func newestFirst() async throws {
        try await withFivePages { client in
            let first = try await client.get("/v1/messages?order=newest&limit=3")
            #expect(Self.texts(first) == ["page 4", "page 3", "page 2"])
            let next = try #require(first.object["next"] as? Int)
            #expect(try await client.post(text: "page 5", to: "bob").status == 202)
            let second = try await client.get("/v1/messages?order=newest&limit=3&after=\(next)")
            #expect(Self.texts(second) == ["page 1", "page 0"])
            #expect(Self.texts(try await client.get("/v1/messages?order=oldest&limit=1")) == ["page 0"])
            let wrong = try await client.get("/v1/messages?order=latest")
            #expect(wrong.status == 400)
            #expect(wrong.headers.first(name: "Content-Type")?.hasPrefix("application/problem+json") == true)
            #expect((wrong.object["detail"] as? String)?.contains("order must be oldest or newest") == true, "\(wrong.object)")
            #expect(Self.texts(try await client.get("/v1/messages?state=queued&order=newest&limit=1")) == ["page 5"])
            let unknown = try await client.get("/v1/messages?state=lost")
            #expect(unknown.status == 400)
            #expect((unknown.object["detail"] as? String)?.contains("state must be one of queued, sent,") == true, "\(unknown.object)")
        }
    }

    /// A daemon whose API queued "page 0" to "page 4" to bob, and a client that may send and read.
    private func withFivePages(_ body: (APIClient) async throws -> Void) async throws {
        try await withTemporaryDirectory { root in
            let fixture = try await Fixture.start(in: root)
            let client = try fixture.client(scopes: "send,read")
            for index in 0..<5 { #expect(try await client.post(text: "page \(index)", to: "bob").status == 202) }
            try await body(client)
        }
    }

    /// The texts of a page's messages, in its order.
    private static func texts(_ answer: APIClient.Answer) -> [String]? {
        (answer.object["messages"] as? [[String: Any]])?.compactMap { $0["text"] as? String }
    }
}
