import Foundation
import TestSupport
import Testing

@testable import Store

/// The claim and heartbeat statements on PostgreSQL, over hand-made tables with the columns they
/// use (the store's own schema on PostgreSQL is another step): the same texts as on SQLite, with
/// `FOR UPDATE SKIP LOCKED` on the claim.
@Suite("Outbox claims and heartbeats on PostgreSQL")
struct PostgresClaimTests {
    private let schema = "claims_\(UInt32.random(in: 0...UInt32.max))"
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let alpha = GatewayNode(name: "alpha", healthSeconds: 10)
    let beta = GatewayNode(name: "beta", healthSeconds: 10)

    private func server(_ cluster: PostgresCluster) throws -> PostgresServer {
        let server = try PostgresServer.connect(
            socketDirectory: cluster.socketDirectory, port: cluster.port, user: cluster.user, password: nil,
            database: cluster.database, logger: quietLogger("postgres"))
        // Session-wide: every later transaction on this connection sees this test's tables.
        try server.writeTransaction { db in
            try db.execute(sql: "CREATE SCHEMA IF NOT EXISTS \(schema)")
            try db.execute(sql: "SET search_path TO \(schema)")
        }
        return server
    }

    /// The transaction a store would run these statements in (no sealed column is read).
    private func claims<T>(_ server: PostgresServer, _ body: (StoreTransaction) throws -> T) throws -> T {
        try server.writeTransaction { db in
            try body(StoreTransaction(db: db, dataKey: .random(), accountID: UUID(), refusingMoved: { _ in }))
        }
    }

    private func makeTables(_ server: PostgresServer, rows: Int) throws {
        try server.writeTransaction { db in
            for statement in Self.tables { try db.execute(sql: statement) }
            for index in 0..<rows {
                let contact = UUID().uuidString
                try db.execute(sql: "INSERT INTO contacts (id, modem) VALUES (?, NULL)", arguments: [contact])
                try db.execute(
                    sql: """
                        INSERT INTO outbox (contact_id, phone_number, body, state, next_attempt_at, created_at, updated_at)
                        VALUES (?, '+447700900501', ?, 'queued', ?, ?, ?)
                        """,
                    arguments: [contact, "BODY \(index)", now.timeIntervalSince1970, now.timeIntervalSince1970, now.timeIntervalSince1970])
            }
        }
    }

    @Test("Two nodes claiming at once take different rows; a claim never goes to two nodes")
    func claimsSkipLockedRows() throws {
        let cluster = try requirePostgres()
        let first = try server(cluster)
        let second = try server(cluster)
        defer {
            try? first.close()
            try? second.close()
        }
        try makeTables(first, rows: 3)
        var inner: OutboxItem?
        // Alpha's claim holds its row locked while beta claims: beta passes over it.
        let outer = Result {
            try claims(first) { tx in
                let mine = try tx.claimNextOutbox(modem: "a1", node: alpha, now: now)
                inner = try claims(second) { try $0.claimNextOutbox(modem: "b1", node: beta, now: now) }
                return mine
            }
        }
        let betas = try #require(inner)
        let rows = try claims(first) { try $0.outboxItems(in: [.submitting]) }
        #expect(rows.contains { $0.id == betas.id && $0.node == "beta" })
        switch outer {
        case .success(let alphas):
            // Both committed: two different rows, one per node.
            #expect(alphas?.id != betas.id && rows.count == 2)
        case .failure(let error):
            // Serialisable writes: the later commit may fail as busy and leaves its row queued.
            guard case StoreError.server(_, let cause) = error else { throw error }
            #expect(cause == .busy && rows.count == 1)
        }
    }

    @Test("An expired lease is handed over once; a live one is kept; the start-up requeue is the node's own")
    func heartbeatsAndRequeue() throws {
        let cluster = try requirePostgres()
        let server = try server(cluster)
        defer { try? server.close() }
        try makeTables(server, rows: 2)
        let (a, b) = try claims(server) { tx in
            try tx.startNode(alpha, now: now)
            try tx.startNode(beta, now: now)
            return (try tx.claimNextOutbox(modem: "a1", node: alpha, now: now), try tx.claimNextOutbox(modem: "b1", node: beta, now: now))
        }
        #expect(a?.leaseUntil == now + 30 && b?.node == "beta")
        #expect(try claims(server) { try $0.recordHeartbeat(beta, now: now + 20) }.requeued == 0)
        #expect(try claims(server) { try $0.recordHeartbeat(beta, now: now + 31) }.requeued == 1)
        #expect(try claims(server) { try $0.recordHeartbeat(beta, now: now + 32) }.requeued == 0)
        #expect(try claims(server) { try $0.requeueInterruptedOutbox(node: "alpha", now: now + 33) } == 0)
        #expect(try claims(server) { try $0.requeueInterruptedOutbox(node: "beta", now: now + 33) } == 1)
        let nodes = try claims(server) { try $0.nodes() }
        #expect(nodes.map { $0.liveness(at: now + 33) } == [.down, .up])
        #expect(try claims(server) { try $0.hasDueOutbox(node: "beta", now: now + 33) })
    }

    /// The columns the claim, heartbeat and status statements use, in PostgreSQL's types.
    static let tables = [
        "CREATE TABLE contacts (id TEXT PRIMARY KEY, modem TEXT)",
        """
        CREATE TABLE nodes (name TEXT PRIMARY KEY, version TEXT NOT NULL, started_at DOUBLE PRECISION NOT NULL,
            heartbeat_at DOUBLE PRECISION NOT NULL, stopped_at DOUBLE PRECISION, health_seconds DOUBLE PRECISION NOT NULL,
            lease_seconds DOUBLE PRECISION NOT NULL, instance TEXT, place TEXT)
        """,
        "CREATE TABLE modem_status (name TEXT PRIMARY KEY, state TEXT NOT NULL, node TEXT)",
        """
        CREATE TABLE outbox (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, message_id BIGINT, contact_id TEXT NOT NULL,
            phone_number TEXT NOT NULL, body TEXT NOT NULL, state TEXT NOT NULL, attempts BIGINT NOT NULL DEFAULT 0, last_error TEXT,
            error_permanent BIGINT NOT NULL DEFAULT 0, next_attempt_at DOUBLE PRECISION NOT NULL, claim_sequence BIGINT, modem TEXT,
            message_reference BIGINT, created_at DOUBLE PRECISION NOT NULL, updated_at DOUBLE PRECISION NOT NULL,
            sent_at DOUBLE PRECISION, delivered_at DOUBLE PRECISION, kind TEXT NOT NULL DEFAULT 'text', epoch BIGINT, position BIGINT,
            awaits_ack BIGINT NOT NULL DEFAULT 0, resends BIGINT NOT NULL DEFAULT 0, acknowledged_at DOUBLE PRECISION,
            submitting_at DOUBLE PRECISION, node TEXT, lease_until DOUBLE PRECISION)
        """,
    ]
}
