import Foundation
import Logging
import Store

extension OutboxSender {
    /// Runs `write`, the record of an SMS that left, again while the store cannot be reached
    /// (a PostgreSQL server lost and another promoted, a connection dropped), after 1 s, 2, 4 …
    /// up to 30 s, for at most the node's lease.
    ///
    /// Without it a node that lost its server in the moment between a send and its record left
    /// the row submitting for as long as it ran: sent, but never recorded as sent. Past the lease
    /// another node may have queued the row again, and this node's record would be refused
    /// anyway; the row is then that node's (the peer drops the second copy as a duplicate).
    func recordingThroughOutage(logger: Logger, _ write: () async throws -> Void) async throws {
        let deadline = ContinuousClock.now + .seconds(context.presence.node.leaseSeconds)
        var delay = 1.0
        while true {
            do {
                return try await write()
            } catch let error as StoreError where ContinuousClock.now + .seconds(delay) < deadline {
                guard let message = error.databaseFailure else { throw error }
                logger.warning(
                    "Could not record a sent SMS yet; trying again.",
                    metadata: [GatewayLog.error: "\(message)", GatewayLog.retryIn: "\(delay)"])
                await GatewayContext.pause(delay)
                delay = min(delay * 2, 30)
            }
        }
    }
}
