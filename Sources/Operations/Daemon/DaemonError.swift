public import Failures

/// A running daemon gave no status: why, in a sentence with its process id and socket.
public struct DaemonError: CategorizedError, Sendable, Equatable {
    /// Why the daemon could not be asked (``StatusClient/Failure``).
    public var failure: StatusClient.Failure
    /// The daemon's process id as its lock names it; 0 when unknown.
    public var pid: Int32
    /// The status socket's path.
    public var socket: String

    public init(_ failure: StatusClient.Failure, pid: Int32, socket: String) {
        self.failure = failure
        self.pid = pid
        self.socket = socket
    }

    /// Always ``Failures/ErrorCategory/unavailable``: the daemon runs but cannot serve the request.
    public var category: ErrorCategory { .unavailable }

    public var description: String {
        let daemon = pid > 0 ? "The daemon (PID \(pid))" : "The daemon"
        switch failure {
        case .notPermitted:
            return "\(daemon) runs, but this user may not connect to \(socket); ask as the service's user."
        case .notListening, .noAnswer:
            return
                "\(daemon) runs but did not answer on \(socket); it may still be unlocking the store, so try again in a moment, else read its log."
        case .unreadable:
            return "\(daemon) answered in a form this smsgw cannot read, so it runs another version; restart it after an upgrade."
        case .refused(let reason):
            return reason
        }
    }
}
