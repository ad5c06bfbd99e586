import Foundation
import SystemCalls

/// The sd_notify(3) protocol, for the unit's `Type=notify`: one datagram to the Unix socket named
/// by `NOTIFY_SOCKET`, so `systemctl start smsgw` returns once the daemon serves (its store
/// unlocked, its status socket listening) and reports a start-up failure as a failed start.
public enum ServiceNotification {
    /// Sends `state` (for example `READY=1`); does nothing outside systemd. Failures are ignored,
    /// as sd_notify's are: the daemon works the same without a supervisor listening.
    public static func send(_ state: String) {
        guard let path = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"], path.count > 1 else { return }
        try? UnixSocket.sendDatagram(Array(state.utf8), to: path)
    }
}
