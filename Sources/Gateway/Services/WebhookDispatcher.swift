import AsyncHTTPClient
import Foundation
public import Logging
public import Operations
public import ServiceLifecycle
public import Store

/// Delivers the event journal to the `[[webhook]]` endpoints: one worker per endpoint, each
/// sending its events in order, signed (Standard Webhooks), and recording every answer.
///
/// The rules (which event next, what an answer does, the backoff) are ``Operations/Webhooks``';
/// this service does the HTTP. An endpoint's next event waits until the one before was delivered
/// or failed for good. A request cut short by a shutdown is not recorded, so the next daemon sends
/// it again with the same `webhook-id`: at least once, never lost.
///
/// Every node of a store runs one, but an endpoint's events are sent by one node at a time: the
/// one holding the endpoint's lease (``Operations/Webhooks/lease(_:for:in:now:)``); the others
/// look every ``recheck`` seconds and take it over once that node is down or stopped.
public struct WebhookDispatcher: Service {
    let endpoints: [WebhookEndpoint]
    let store: StoreRunner
    let logger: Logger
    /// This daemon as a node of the store; nil for a dispatcher alone on its store (no lease).
    let node: GatewayNode?
    /// How long a connection to an endpoint may take (``connectTimeoutSeconds``).
    let connectTimeout: Duration

    /// How long a connection to an endpoint may take.
    static let connectTimeoutSeconds = 10

    /// The longest an idle or waiting worker goes without asking the store again, so an event or
    /// a redelivery that another process wrote (a command, another node) is picked up.
    static let recheck: Double = 2

    /// A dispatcher for `endpoints` over `store`, run on its own (the webhook benchmark runs one
    /// so; the gateway adds one to its services through its own runner when the configuration has
    /// a `[[webhook]]`): it leaves the store's write observer as it is (a daemon's on the same
    /// store keeps noting its writes and a move's refusals).
    public init(endpoints: [WebhookEndpoint], store: UnlockedStore, logger: Logger, node: GatewayNode? = nil) {
        self.init(endpoints: endpoints, runner: StoreRunner(store: store, observing: false), logger: logger, node: node)
    }

    /// A dispatcher writing through the gateway's `runner`, so its refused writes show in the status.
    init(
        endpoints: [WebhookEndpoint], runner: StoreRunner, logger: Logger, node: GatewayNode?,
        connectTimeout: Duration = .seconds(Int64(connectTimeoutSeconds))
    ) {
        self.endpoints = endpoints
        self.store = runner
        self.logger = logger
        self.node = node
        self.connectTimeout = connectTimeout
    }

    public func run() async throws {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                for endpoint in endpoints {
                    group.addTask { await self.work(for: endpoint, client: client) }
                }
            }
        }
        try? await client.shutdown()
    }

    /// No redirects; a connection that takes longer than ``connectTimeout`` fails; and a connection
    /// refused (nothing listens) fails at once, where the client would try again until the
    /// request's deadline: the endpoint's retry schedule tries again, and the worker is free.
    var clientConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(connectTimeout.components.seconds)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// One endpoint's loop until the task is cancelled.
    func work(for endpoint: WebhookEndpoint, client: HTTPClient) async {
        var metadata: Logger.Metadata = [GatewayLog.webhook: "\(endpoint.logName)"]
        // The next work, when the transaction that recorded an answer already took it.
        var upcoming: Webhooks.Work?
        while !Task.isCancelled {
            let work: Webhooks.Work
            do {
                if let taken = upcoming {
                    work = taken
                    upcoming = nil
                } else {
                    work = try await store.write { [node] tx in try Webhooks.next(for: endpoint, node: node, in: tx, now: Date()) }
                }
            } catch {
                logger.warning(
                    "Could not read the webhook deliveries; trying again.",
                    metadata: metadata.merging([GatewayLog.error: "\(error)"]) { $1 })
                await GatewayContext.pause(Self.recheck)
                continue
            }
            switch work {
            case .idle:
                await waitForEvents()
            case .wait(let until):
                await GatewayContext.pause(min(until.timeIntervalSinceNow, Self.recheck))
            case .disabled, .elsewhere:
                await GatewayContext.pause(Self.recheck)
            case .deliver(let delivery):
                guard let outcome = await send(delivery, to: endpoint, client: client) else { return }
                metadata[GatewayLog.event] = "\(delivery.eventID)"
                do {
                    // One commit per event: the answer and the next delivery together.
                    let (recorded, next) = try await store.write { [node] tx -> (WebhookDelivery?, Webhooks.Work) in
                        // Another node took the endpoint over while this one hung: the delivery is its own now.
                        if let node, let holder = try Webhooks.lease(endpoint, for: node, in: tx, now: Date()) {
                            return (nil, .elsewhere(node: holder))
                        }
                        var rng = SystemRandomNumberGenerator()
                        let recorded = try Webhooks.record(outcome, of: delivery.deliveryID, to: endpoint, in: tx, now: Date(), using: &rng)
                        return (recorded, try Webhooks.next(for: endpoint, in: tx, now: Date()))
                    }
                    upcoming = next
                    if let recorded { report(recorded, metadata: metadata) }
                } catch {
                    logger.warning(
                        "Could not record a webhook answer; the event will be sent again.",
                        metadata: metadata.merging([GatewayLog.error: "\(error)"]) { $1 })
                    await GatewayContext.pause(Self.recheck)
                }
            }
        }
    }

    /// Returns when the journal has grown, or after ``recheck`` seconds. The journal is read
    /// again after each commit of this process, and on PostgreSQL of another node
    /// (``Store/CommitSignal``, ``NoticeListener``), not on a timer, so an idle worker wakes once
    /// per ``recheck`` and an event goes out as soon as it is committed.
    private func waitForEvents() async {
        let commits = store.store.gateway.commits
        // Noted before the read: a commit during it ends the first wait at once.
        var seen = commits.count
        let start = try? await store.read { try $0.latestEventID() }
        let deadline = ContinuousClock.now + .milliseconds(Int64(Self.recheck * 1000))
        var readAt = ContinuousClock.now
        while !Task.isCancelled && .now < deadline {
            await commits.wait(after: seen, since: readAt, until: deadline)
            seen = commits.count
            readAt = .now
            if let latest = try? await store.read({ try $0.latestEventID() }), latest != start { return }
        }
    }

    /// Sends one signed request; nil when the task was cancelled before an answer.
    func send(_ delivery: Webhooks.PreparedDelivery, to endpoint: WebhookEndpoint, client: HTTPClient) async -> Webhooks.Outcome? {
        var request = HTTPClientRequest(url: endpoint.url.absoluteString)
        request.method = .POST
        let timestamp = Int64(Date().timeIntervalSince1970)
        for header in WebhookSignature.headers(id: delivery.webhookID, timestamp: timestamp, body: delivery.body, secrets: endpoint.secrets)
        {
            request.headers.add(name: header.name, value: header.value)
        }
        request.headers.add(name: "user-agent", value: "smsgw")
        request.body = .bytes(delivery.body)
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(endpoint.timeoutSeconds * 1000)))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            return .status(Int(response.status.code))
        } catch {
            if Task.isCancelled { return nil }
            return .noAnswer(Self.failure(error, timeoutSeconds: endpoint.timeoutSeconds))
        }
    }

    private func report(_ delivery: WebhookDelivery, metadata: Logger.Metadata) {
        var metadata = metadata
        metadata[GatewayLog.attempt] = "\(delivery.attempts)"
        switch delivery.state {
        case .delivered:
            logger.debug("Webhook delivered.", metadata: metadata)
        case .failed:
            logger.error("Webhook delivery failed for good; redeliver it once the endpoint works.", metadata: metadata)
        case .pending:
            metadata[GatewayLog.error] = "\(delivery.lastError ?? "")"
            logger.warning(
                delivery.lastStatus == 410 ? "Webhook endpoint answered 410 Gone; disabled." : "Webhook delivery failed; will retry.",
                metadata: metadata)
        }
    }
}
