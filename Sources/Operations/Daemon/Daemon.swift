public import Foundation
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Whether a daemon (`smsgw serve`) runs on a data directory, and what it says about itself:
/// liveness as every front end asks it, without the passphrase.
///
/// The data directory's lock (``Store/DaemonLock``) is the one sign of life: the kernel drops it
/// when the daemon exits or is killed, so old modem statuses or a left-over socket never make a
/// dead daemon look alive. Only a daemon that holds it is asked over its ``StatusSocket``.
public enum Daemon {
    /// Whether a daemon holds the lock of `directory`, with its process id when the lock file
    /// names one (``DaemonState/startedAt`` and ``DaemonState/modems`` come only from the daemon).
    /// A restore holds that lock too, and then no daemon runs: the caller opens the store, which
    /// says a restore is replacing it.
    public static func state(in directory: URL) -> DaemonState {
        guard let pid = DaemonLock.probe(directory: directory), !StoreLock.isRestoring(directory: directory) else {
            return .notRunning
        }
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

    /// The running daemon's webhook endpoints (``Webhooks/current(in:configured:wait:unlock:)``),
    /// asked over its status socket.
    ///
    /// - Throws: ``DaemonError`` (unavailable) when it gives none.
    public static func webhooks(in directory: URL, pid: Int32, wait: Double = 10) throws(DaemonError) -> [WebhookStatus] {
        do throws(StatusClient.Failure) {
            let reply = try StatusClient.ask(.webhooks, in: directory, wait: wait, timeout: 10)
            if let error = reply.error { throw .refused(error) }
            guard let webhooks = reply.webhooks else { throw .unreadable }
            return webhooks
        } catch {
            throw DaemonError(error, pid: pid, socket: StatusSocket.path(in: directory))
        }
    }

    /// Where a daemon that answers at `statusSocket` holds its data directory's lock: this host
    /// and the socket's path, resolved (absolute, without `.`, `..` or symbolic links, so every
    /// spelling of one data directory is one place), as its node row records it
    /// (``Store/GatewayNode/place``). A row at this place whose run is not the lock's holder was
    /// written by a daemon that has ended.
    public static func place(statusSocket: String) -> String {
        "\(hostName):\(resolved(statusSocket))"
    }

    /// Whether two places are one: the same host, and socket paths that resolve to the same one
    /// (a row an earlier version wrote holds the path as that daemon was given it).
    public static func samePlace(_ one: String, _ other: String) -> Bool {
        guard let a = one.firstIndex(of: ":"), let b = other.firstIndex(of: ":") else { return one == other }
        return one[..<a] == other[..<b]
            && resolved(String(one[one.index(after: a)...])) == resolved(String(other[other.index(after: b)...]))
    }

    /// `path` made absolute (from the working directory) with its directory's symbolic links,
    /// `.` and `..` resolved; the last component is kept as it is (a socket not bound yet).
    static func resolved(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).absoluteURL.standardizedFileURL
        return url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent).path
    }

    /// The place of a daemon on `directory` (see ``place(statusSocket:)``).
    public static func place(of directory: URL) -> String {
        place(statusSocket: StatusSocket.path(in: directory))
    }

    /// The machine's host name as the system gives it; empty when it gives none.
    public static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
