public import Foundation
import Store

/// Whether a daemon (`smsgw serve`) runs on a data directory, and what it says about itself:
/// liveness as every front end asks it, without the passphrase.
///
/// The data directory's lock (``Store/DaemonLock``) is the one sign of life: the kernel drops it
/// when the daemon exits or is killed, so old modem statuses or a left-over socket never make a
/// dead daemon look alive. Only a daemon that holds it is asked over its ``StatusSocket``.
public enum Daemon {
    /// Whether a daemon holds the lock of `directory`, with its process id when the lock file
    /// names one (``DaemonState/startedAt`` and ``DaemonState/modems`` come only from the daemon).
    public static func state(in directory: URL) -> DaemonState {
        guard let pid = DaemonLock.probe(directory: directory) else { return .notRunning }
        return DaemonState(running: true, pid: pid > 0 ? pid : nil)
    }

    /// The running daemon's status, asked over its status socket.
    ///
    /// - Parameters:
    ///   - directory: The data directory.
    ///   - pid: The daemon's process id as its lock names it (0 when unknown), for the error.
    ///   - wait: How long to keep trying while nothing listens yet (a daemon makes its socket once
    ///     its store is unlocked, a second or two after it starts).
    /// - Throws: ``DaemonError`` (unavailable) when it gives no status.
    public static func status(in directory: URL, pid: Int32, wait: Double = 10) throws(DaemonError) -> GatewayStatus {
        do throws(StatusClient.Failure) {
            return try StatusClient.status(in: directory, wait: wait)
        } catch {
            throw DaemonError(error, pid: pid, socket: StatusSocket.path(in: directory))
        }
    }

    /// Tells a running daemon to look at its outbox now, after a message was queued; silent and
    /// quick when no daemon runs or it does not answer (it then finds the row at its next
    /// fallback read, at most `health_seconds` later).
    /// - Returns: Whether a daemon took the request.
    @discardableResult
    public static func wake(in directory: URL) -> Bool {
        guard DaemonLock.probe(directory: directory) != nil else { return false }
        return (try? StatusClient.ask(.wake, in: directory, wait: 0, timeout: 1)) != nil
    }
}
