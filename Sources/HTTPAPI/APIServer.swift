import Console
public import Failures
public import Gateway
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
public import Logging
import NIOCore
import NIOSSL
public import Operations
public import ServiceLifecycle
public import Store

/// The HTTP API as one service of `smsgw serve`'s group: it listens on `[http] listen` (TLS from
/// the PEM files when configured), answers until the group shuts down, and stops with it.
///
/// ```swift
/// let gateway = try Gateway(store: store, configuration: configuration, logger: logger) { live in
///     [try APIServer(settings: configuration.http, store: store, live: live, logger: logger)]
/// }
/// ```
public final class APIServer: Service, Sendable {
    private let application: Application<RouterResponder<APIContext>>
    private let address: String

    /// Builds the router and the listener; nothing listens before ``run()``.
    ///
    /// - Parameters:
    ///   - settings: The `[http]` table; its `listen` must not be nil.
    ///   - store: The unlocked store.
    ///   - live: The gateway's live status.
    ///   - logger: Where the API logs (never a token or a text).
    ///   - version: The daemon's version, for `GET /v1/status`.
    ///   - webhooks: The configured webhook endpoints, whose backlogs the metrics and the console show.
    ///   - queued: Called after the API queued a message, to wake the outbox sender.
    ///   - listening: Called with the bound address (`HOST:PORT`) once the API listens.
    ///   - console: Whether the web console answers under `/` (docs/OPERATIONS.md, "The web console").
    /// - Throws: ``APIServerError`` when the TLS files cannot be read.
    public init(
        settings: HTTPSettings, store: UnlockedStore, live: LiveStatus, logger: Logger, version: String,
        webhooks: [WebhookEndpoint] = [], queued: @escaping @Sendable () -> Void = {},
        listening: @escaping @Sendable (String) -> Void = { _ in }, console: Bool = true
    ) throws {
        let address = settings.listen ?? HTTPSettings.defaultAddress
        self.address = address.description
        let handlers = APIHandlers(
            store: store, live: live, settings: settings, throttle: AuthenticationThrottle(limit: settings.authFailureLimit),
            queued: queued, version: version,
            metrics: APIMetrics(),
            submissions: SubmissionQueue(store: store, queueLimit: settings.maxQueued, writer: APIHandlers.storeQueue, queued: queued),
            webhooks: webhooks)
        let http1 = HTTPServerBuilder.http1(configuration: Self.channel(settings))
        let server: HTTPServerBuilder
        if let certificate = settings.tlsCertificate, let key = settings.tlsKey {
            server = try .tls(http1, tlsConfiguration: try Self.tls(certificate: certificate, key: key))
        } else {
            server = http1
        }
        let scheme = settings.servesTLS ? "https" : "http"
        let apiLogger = logger
        application = Application(
            router: APIRoutes.router(
                handlers,
                console: console
                    ? Self.console(store: store, live: live, settings: settings, version: version, wake: queued, webhooks: webhooks) : nil),
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(address.host, port: address.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? address.port
                let bound = HTTPSettings.Address(host: address.host, port: port).description
                apiLogger.notice("HTTP API listening.", metadata: ["smsgw.address": "\(scheme)://\(bound)"])
                listening(bound)
            },
            logger: apiLogger)
    }

    public func run() async throws {
        do {
            try await application.run()
        } catch let error as IOError {
            // The one I/O error before serving: the listener could not bind.
            throw APIServerError.listen(address: address, reason: "\(error)")
        }
    }

    /// Each connection's limits: closed after `idle_timeout_seconds` without a request in progress
    /// (Hummingbird's idle timeout, which also ends a head that never completes and a TLS
    /// handshake that never ends), and when a request has not fully arrived within
    /// `request_timeout_seconds` of its head (``RequestDeadline``).
    static func channel(_ settings: HTTPSettings) -> HTTP1Channel.Configuration {
        let request = amount(settings.requestTimeoutSeconds)
        return HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestDeadline(timeout: request)], idleTimeout: amount(settings.idleTimeoutSeconds))
    }

    /// Seconds as NIO's time, at most about 31 years (nanoseconds in an `Int64`).
    private static func amount(_ seconds: Double) -> TimeAmount {
        .nanoseconds(Int64(min(seconds, 1e9) * 1e9))
    }

    /// The web console over the same store, status and wake as the API.
    static func console(
        store: UnlockedStore, live: LiveStatus, settings: HTTPSettings, version: String, wake: @escaping @Sendable () -> Void,
        webhooks: [WebhookEndpoint]
    )
        -> ConsoleController
    {
        ConsoleController(
            .init(
                store: store, status: { try live.read(now: $0) }, banners: { try live.readForBanners(now: $0) }, wake: wake,
                secure: settings.servesTLS, version: version, webhooks: webhooks))
    }

    static func tls(certificate: String, key: String) throws -> TLSConfiguration {
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
            let privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
            return TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(privateKey))
        } catch {
            throw APIServerError.tlsFiles(certificate: certificate, key: key, reason: "\(error)")
        }
    }
}

/// The API could not be set up.
public enum APIServerError: CategorizedError, Sendable, Equatable {
    /// The TLS certificate or key could not be read as PEM.
    case tlsFiles(certificate: String, key: String, reason: String)
    /// The listener could not bind its address (in use, not this machine's, a privileged port).
    case listen(address: String, reason: String)

    public var category: ErrorCategory {
        switch self {
        case .tlsFiles: .configuration
        case .listen: .unavailable
        }
    }

    public var description: String {
        switch self {
        case .tlsFiles(let certificate, let key, let reason):
            "The TLS files http.tls_certificate (\(certificate)) and http.tls_key (\(key)) could not be read as PEM (\(reason)); check the paths, their permissions and that the key matches the certificate."
        case .listen(let address, let reason):
            "The HTTP API cannot listen on \(address) (\(reason)); stop the program that uses it, or set http.listen (SMSGW_HTTP_LISTEN) to another address, or \"off\"."
        }
    }
}
