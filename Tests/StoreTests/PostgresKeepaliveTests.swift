import Foundation
import NIOCore
import NIOPosix
import PostgresNIO
import TestSupport
import Testing

@testable import Store

/// TCP keepalive on the store's connections to PostgreSQL (``PostgresKeepalive``), against the
/// test cluster's loopback port.
@Suite("TCP keepalive on the store's PostgreSQL connections", .blockingOffPool)
struct PostgresKeepaliveTests {
    @Test("The pool's and the listener's TCP connections run the kernel's keepalive timer")
    func storeConnections() async throws {
        let cluster = try requirePostgres()
        let address = try cluster.freshLoopbackAddress()
        let directory = TemporaryDirectory(prefix: "smsgw-store")
        let store = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
        defer { try? store.close() }
        let notices = try #require(store.notices(logger: TestStore.logger))
        let listening = Task { await notices.run {} }
        defer { listening.cancel() }
        try await waitFor("the listener to connect") { store.commits.hearsOtherNodes }

        let ports = try store.readTransaction { db in
            (
                pool: try #require(try db.value(Int.self, sql: "SELECT inet_client_port()")),
                listener: try #require(
                    try db.value(
                        Int.self,
                        sql: "SELECT client_port FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'"))
            )
        }
        // An idle connection with keepalive has the keepalive timer armed (`tr` 2); without, none.
        for (name, port) in [("the pool's", ports.pool), ("the listener's", ports.listener)] {
            try await waitFor("\(name) connection's keepalive timer") { try Self.timer(ofLocalPort: port) == 2 }
        }
        listening.cancel()
        await listening.value
    }

    @Test("The server is asked for the same keepalive on its side of the pool's and the listener's connections")
    func serverSide() async throws {
        let cluster = try requirePostgres()
        let address = try cluster.freshLoopbackAddress()
        let directory = TemporaryDirectory(prefix: "smsgw-store")
        let store = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
        defer { try? store.close() }
        let expected = ["60", "5", "10", "110000"]  // idle, count, interval (s); user timeout (ms)
        let pool = try store.readTransaction { db in try Self.settings.map { try db.value(String.self, sql: Self.setting($0)) } }
        #expect(pool == expected)

        let listener = try await Self.connect(address)
        var heard: [String] = []
        do {
            for name in Self.settings {
                for try await value in try await listener.query(PostgresQuery(unsafeSQL: Self.setting(name)), logger: TestStore.logger)
                    .decode(String.self)
                {
                    heard.append(value)
                }
            }
        } catch {
            Issue.record("The listener's settings could not be read: \(String(reflecting: error))")
        }
        try await listener.close()
        #expect(heard == expected)
    }

    /// A connection as the listener makes it, tried again as the listener is after a failure: a
    /// full run's loaded machine and busy cluster failed a first connect (a PSQLError after
    /// minutes), which the daemon's listener survives by connecting again.
    private static func connect(_ address: PostgresAddress) async throws -> PostgresConnection {
        var configuration = try address.connectionConfiguration()
        configuration.options.connectTimeout = .minutes(2)
        for attempt in 1...4 {
            do {
                return try await PostgresKeepalive.connect(configuration, id: 9, logger: TestStore.logger)
            } catch {
                print("PostgresKeepaliveTests: connect \(attempt) failed: \(String(reflecting: error))")
                try await Task.sleep(for: .seconds(attempt))
            }
        }
        return try await PostgresKeepalive.connect(configuration, id: 9, logger: TestStore.logger)
    }

    private static let settings = ["tcp_keepalives_idle", "tcp_keepalives_count", "tcp_keepalives_interval", "tcp_user_timeout"]

    /// The session's value of `name` in its base unit, as `pg_settings` gives it.
    private static func setting(_ name: String) -> String { "SELECT setting FROM pg_settings WHERE name = '\(name)'" }

    @Test("A TCP connection of the store has keepalive on, with its idle time, interval, probes and user timeout")
    func socketOptions() throws {
        let cluster = try requirePostgres()
        let channel = try PostgresKeepalive.channel(
            host: "127.0.0.1", port: cluster.port, timeout: .seconds(10), on: MultiThreadedEventLoopGroup.singleton.any()
        ).wait()
        defer { try? channel.close().wait() }
        for (option, value) in PostgresKeepalive.options {
            #expect(try channel.getOption(option).wait() == value, "\(option)")
        }
        #expect(PostgresKeepalive.options.map(\.1) == [1, 60, 10, 5, 110_000])
    }

    @Test("A TCP port nobody listens on is refused in the system's words")
    func refused() throws {
        _ = try requirePostgres()
        let address = PostgresAddress(host: "127.0.0.1", port: 1, user: "smsgw", database: "none", password: "x", tls: .disable)
        let directory = TemporaryDirectory(prefix: "smsgw-store")
        let error = #expect(throws: StoreError.self) {
            _ = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
        }
        #expect(
            error?.description.contains("cannot connect to the PostgreSQL server: connection refused") == true,
            "\(String(describing: error))")
    }

    /// The `tr` field of /proc/net/tcp for the loopback socket on local port `port`: 2 while the
    /// keepalive timer runs (or another of the socket's own timers), 0 with none.
    private static func timer(ofLocalPort port: Int) throws -> Int? {
        // Read to its end: String(contentsOfFile:) stops after the first page (about 27
        // sockets), so a busy machine's table hid the socket looked for.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/tcp"))
        defer { try? handle.close() }
        let table = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        let local = String(format: "0100007F:%04X", port)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 5, fields[1] == local else { continue }
            return Int(fields[5].prefix { $0 != ":" }, radix: 16)
        }
        return nil
    }
}
