import Foundation
import Logging
import ServiceLifecycle
import Store
import Synchronization

extension OutboxSender {
    /// How long a graceful stop still tries to record an SMS that left: well under systemd's
    /// 90 s stop timeout, so a stop on a full disk or without a server ends by itself.
    static let stopGraceSeconds = 10.0

    /// What a stop before a sent SMS's record says.
    static let stoppingUnrecorded: Logger.Message =
        "Stopping before a sent SMS could be recorded as sent; it stays submitting and is sent again (same text) when this node starts, or by another node once this node's lease ends."

    /// Runs `write`, the record of an SMS that left, again while the store cannot be reached
    /// (a PostgreSQL server lost and another promoted, a connection dropped, a full disk), after
    /// 1 s, 2, 4 … up to 30 s, for as long as the daemon runs, or ``stopGraceSeconds`` once it
    /// is asked to stop.
    ///
    /// Without it a node that lost its server in the moment between a send and its record left
    /// the row submitting for as long as it ran: sent, but never recorded as sent. Nor may the
    /// retries end at the lease: the node's heartbeats renew the lease of every row it is
    /// submitting, so a row whose record was given up stayed submitting, renewed, until the
    /// daemon restarted. If another node queued the row again while this one could not renew
    /// (the outage outlasted the lease), this node's record is refused once the store is back
    /// and the row is that node's (the peer drops the second copy as a duplicate).
    /// - Throws: The store's error; `CancellationError` when a stop cut the retries short (logged
    ///   here, with what becomes of the row).
    func recordingThroughOutage(logger: Logger, _ write: () async throws -> Void) async throws {
        let stop = StopRequest()
        try await withGracefulShutdownHandler {
            var delay = 1.0
            while true {
                do {
                    return try await write()
                } catch GatewayError.storeStopped(let grace) {
                    // The stop's grace ended while the store did not answer.
                    let error = GatewayError.storeStopped(graceSeconds: grace)
                    logger.error(Self.stoppingUnrecorded, metadata: [GatewayLog.error: "\(error)"])
                    throw CancellationError()
                } catch let error as StoreError {
                    guard let message = error.databaseFailure else { throw error }
                    if let deadline = stop.deadline, ContinuousClock.now + .seconds(delay) >= deadline {
                        logger.error(Self.stoppingUnrecorded, metadata: [GatewayLog.error: "\(message)"])
                        throw CancellationError()
                    }
                    logger.warning(
                        "Could not record a sent SMS yet; trying again.",
                        metadata: [GatewayLog.error: "\(message)", GatewayLog.retryIn: "\(delay)"])
                    await stop.bell.wait(until: .now + .milliseconds(Int64(delay * 1000)))
                    delay = min(delay * 2, 30)
                }
            }
        } onGracefulShutdown: {
            stop.ask(grace: Self.stopGraceSeconds)
        }
    }
}

/// A stop asked while a record is retried: when the retries end, and the bell that cuts the
/// current pause short so the next attempt comes at once.
private final class StopRequest: Sendable {
    private let asked = Mutex<ContinuousClock.Instant?>(nil)
    let bell = WakeSignal()

    /// When the retries end; nil while no stop was asked.
    var deadline: ContinuousClock.Instant? { asked.withLock { $0 } }

    func ask(grace: Double) {
        asked.withLock { $0 = $0 ?? .now + .milliseconds(Int64(grace * 1000)) }
        bell.ring()
    }
}
