import Synchronization

/// Wakes the ``OutboxSender`` right after a message was queued, so it is claimed at once instead
/// of at the sender's next due time.
///
/// The sender sleeps while nothing is due (until the next retry falls due, or at the latest the
/// health interval, its fallback): whoever queues a row in the daemon's process calls ``wake()``
/// after the transaction committed. Make one before the ``Gateway`` and hand it to both, or take
/// ``Gateway/outboxWake``:
///
/// ```swift
/// let wake = OutboxWake()
/// let gateway = try Gateway(store: store, configuration: configuration, logger: logger, outboxWake: wake)
/// // an HTTP handler, after Messages.queue(...) returned:
/// wake.wake()
/// ```
/// Another process (`smsgw send`) reaches the same call through the status socket's `wake`
/// request (``Operations/Daemon/wake(in:)``). A wake that is lost only delays the row until the
/// sender's fallback read; it is never stranded.
public final class OutboxWake: Sendable {
    private let signals = Mutex<[WakeSignal]>([])

    public init() {}

    /// Wakes every modem's sender worker; cheap, never blocks, safe from any thread or task.
    public func wake() {
        for signal in signals.withLock({ $0 }) { signal.ring() }
    }

    /// Adds a worker's doorbell; ``wake()`` rings it from now on.
    func register(_ signal: WakeSignal) {
        signals.withLock { $0.append(signal) }
    }
}
