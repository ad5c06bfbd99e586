import Glibc
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// Every connection the store opens to a PostgreSQL server over TCP (its pool's and its
/// listening one) has TCP keepalive on, so that a server gone without a word (a host powered
/// off, a cut network, a failover that moved the address) is noticed within
/// ``giveUpSeconds`` instead of when the system gives up on its own (hours, or never for a
/// connection that only waits to read, as the listening one does).
///
/// postgres-nio sets no socket options on the connections it makes and exposes none, so the
/// store opens the socket itself, with the options set, and hands postgres-nio the connected
/// channel, which then makes the same TLS handshake and start-up on it. A unix socket needs
/// none: it cannot be half-open.
enum PostgresKeepalive {
    /// Seconds without traffic before the first probe.
    static let idleSeconds = 60
    /// Seconds between probes.
    static let intervalSeconds = 10
    /// Unanswered probes after which the connection is closed.
    static let probes = 5
    /// Seconds after which a connection whose server does not answer is closed: probes
    /// unanswered, or data sent and not acknowledged (`TCP_USER_TIMEOUT`, which also bounds a
    /// statement written to a server that vanished).
    static var giveUpSeconds: Int { idleSeconds + intervalSeconds * probes }

    /// The socket options set on each TCP connection, by level and name (Linux's).
    static var options: [(ChannelOptions.Types.SocketOption, SocketOptionValue)] {
        [
            (ChannelOptions.Types.SocketOption(level: .socket, name: .so_keepalive), 1),
            (ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_KEEPIDLE)), idleSeconds),
            (ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_KEEPINTVL)), intervalSeconds),
            (ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_KEEPCNT)), probes),
            (ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_USER_TIMEOUT)), giveUpSeconds * 1000),
        ]
    }

    /// A TCP connection to `host`:`port` with the keepalive ``options`` set, made within `timeout`.
    static func channel(host: String, port: Int, timeout: TimeAmount, on eventLoop: any EventLoop) -> EventLoopFuture<any Channel> {
        var bootstrap = ClientBootstrap(group: eventLoop).connectTimeout(timeout)
        for (option, value) in options { bootstrap = bootstrap.channelOption(option, value: value) }
        return bootstrap.connect(host: host, port: port)
    }

    /// Connects with `configuration`: over TCP on a channel of ``channel(host:port:timeout:on:)``,
    /// with the TLS and start-up postgres-nio would have made (``onChannel(_:_:)``); on a unix
    /// socket as postgres-nio connects.
    static func connect(
        _ configuration: PostgresConnection.Configuration, id: PostgresConnection.ID, logger: Logger, on eventLoop: any EventLoop
    ) -> EventLoopFuture<PostgresConnection> {
        guard let host = configuration.host, let port = configuration.port else {
            return PostgresConnection.connect(on: eventLoop, configuration: configuration, id: id, logger: logger)
        }
        return channel(host: host, port: port, timeout: configuration.options.connectTimeout, on: eventLoop).flatMap { channel in
            PostgresConnection.connect(on: channel.eventLoop, configuration: onChannel(channel, configuration), id: id, logger: logger)
                .flatMapErrorThrowing { error in
                    channel.close(promise: nil)
                    throw error
                }
                .flatMap { connection in
                    connection.query(serverSide, logger: logger).map { _ in connection }.flatMapErrorThrowing { error in
                        refusedServerSide(error, logger: logger)
                        return connection
                    }
                }
        }
    }

    /// What the server is asked for its side of a TCP connection, for the session: the same
    /// keepalive and user timeout, so that it ends the session of a node whose host died (a
    /// transaction it left open, the row locks that holds, its place in the notification queue)
    /// within ``giveUpSeconds`` too, instead of after the server's system default of over two
    /// hours. `set_config` rather than start-up parameters, which a PgBouncer in front refuses.
    static let serverSide = PostgresQuery(
        unsafeSQL: """
            SELECT set_config('tcp_keepalives_idle', '\(idleSeconds)', false), \
            set_config('tcp_keepalives_interval', '\(intervalSeconds)', false), \
            set_config('tcp_keepalives_count', '\(probes)', false), \
            set_config('tcp_user_timeout', '\(giveUpSeconds * 1000)', false)
            """)

    /// A server that did not take ``serverSide`` (older than PostgreSQL 12, which lacks
    /// `tcp_user_timeout`): the connection is kept, with keepalive on this side only.
    private static func refusedServerSide(_ error: any Error, logger: Logger) {
        let reason = (error as? PSQLError).flatMap(PostgresServer.serverWords) ?? "\(type(of: error))"
        logger.warning(
            "The PostgreSQL server did not take the keepalive settings for its side of the connection; set them in postgresql.conf (docs/OPERATIONS.md, \"Dead connections\").",
            metadata: [StoreLog.error: "\(reason)"])
    }

    /// ``connect(_:id:logger:on:)`` for a task: cancelling the task ends it at once, while the
    /// socket connects (a server that does not answer would otherwise hold a stopping daemon for
    /// the whole connect timeout) as during the start-up, as postgres-nio's own does.
    static func connect(
        _ configuration: PostgresConnection.Configuration, id: PostgresConnection.ID, logger: Logger
    ) async throws -> PostgresConnection {
        guard let host = configuration.host, let port = configuration.port else {
            return try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
        }
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        let channel = try await cancellable(channel(host: host, port: port, timeout: configuration.options.connectTimeout, on: eventLoop))
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                on: channel.eventLoop, configuration: onChannel(channel, configuration), id: id, logger: logger)
        } catch {
            channel.close(promise: nil)
            throw error
        }
        do {
            _ = try await connection.query(serverSide, logger: logger)
        } catch {
            if Task.isCancelled {
                try? await connection.close()
                throw CancellationError()
            }
            refusedServerSide(error, logger: logger)
        }
        return connection
    }

    /// The channel `connecting` gives, or `CancellationError` as soon as the task is cancelled;
    /// a channel connected after that is closed. NIO's connect itself cannot be cancelled.
    static func cancellable(_ connecting: EventLoopFuture<any Channel>) async throws -> any Channel {
        let outcome = connecting.eventLoop.makePromise(of: (any Channel).self)
        let settled = FirstSettlement()
        connecting.whenComplete { result in
            if settled.claim() {
                outcome.completeWith(result)
            } else if case .success(let late) = result {
                late.close(promise: nil)
            }
        }
        return try await withTaskCancellationHandler {
            try await outcome.futureResult.get()
        } onCancel: {
            if settled.claim() { outcome.fail(CancellationError()) }
        }
    }

    /// Which of a connect and a cancellation settles ``cancellable(_:)``: the first to claim.
    private final class FirstSettlement: Sendable {
        private let taken = Mutex(false)

        /// True for the first caller only.
        func claim() -> Bool {
            taken.withLock { taken in
                defer { taken = true }
                return !taken
            }
        }
    }

    /// `configuration` on the connected `channel`: the same TLS, credentials and options, the
    /// host name checked against the certificate and sent as SNI unless it is an address (as
    /// postgres-nio does for a host it connects to itself).
    private static func onChannel(
        _ channel: any Channel, _ configuration: PostgresConnection.Configuration
    ) -> PostgresConnection.Configuration {
        var established = PostgresConnection.Configuration(
            establishedChannel: channel, tls: configuration.tls, username: configuration.username,
            password: configuration.password, database: configuration.database)
        established.options = configuration.options
        if established.options.tlsServerName == nil, let host = configuration.host,
            (try? SocketAddress(ipAddress: host, port: 0)) == nil
        {
            established.options.tlsServerName = host
        }
        return established
    }
}
