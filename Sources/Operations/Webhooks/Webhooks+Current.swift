public import Foundation
public import Store

extension Webhooks {
    /// The endpoints as `webhook list` shows them, judged by the configuration that counts: the
    /// running daemon's (its file and its SMSGW_WEBHOOK_* environment, which the asking process
    /// may not see), asked over its status socket without the passphrase when a daemon holds the
    /// data directory's lock; else `configured`'s, from the store unlocked only then. Each
    /// status's ``WebhookStatus/source`` says which.
    ///
    /// - Parameters:
    ///   - directory: The data directory.
    ///   - configured: The asking process's endpoints, used only when no daemon runs.
    ///   - wait: How long to wait for a daemon that holds its lock to listen.
    ///   - unlock: Unlocks the store; called only when no daemon runs.
    /// - Throws: ``DaemonError`` (unavailable) when a daemon runs but does not answer; what
    ///   `unlock` and the store throw.
    public static func current(
        in directory: URL, configured: [WebhookEndpoint], wait: Double = 10, unlock: () throws -> UnlockedStore
    ) throws -> [WebhookStatus] {
        let daemon = Daemon.state(in: directory)
        if daemon.running { return try Daemon.webhooks(in: directory, pid: daemon.pid ?? 0, wait: wait) }
        return try list(configured: configured, store: unlock(), source: .configuration)
    }

    /// What the daemon answers a ``StatusSocket/Request/webhooks`` request with: its endpoints
    /// and the store's, each from the daemon's configuration.
    public static func daemonList(configured endpoints: [WebhookEndpoint], store: UnlockedStore) throws -> [WebhookStatus] {
        try list(configured: endpoints, store: store, source: .daemon)
    }

    /// ``list(configured:store:)`` with each status's ``WebhookStatus/source``.
    private static func list(configured endpoints: [WebhookEndpoint], store: UnlockedStore, source: WebhookStatus.Source) throws
        -> [WebhookStatus]
    {
        try list(configured: endpoints, store: store).map { status in
            var status = status
            status.source = source
            return status
        }
    }
}
