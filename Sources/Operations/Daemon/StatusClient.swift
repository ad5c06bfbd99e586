public import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Asks a running daemon over its ``StatusSocket`` (what `smsgw status` does while one runs).
public enum StatusClient {
    /// Why the daemon could not be asked.
    public enum Failure: Error, Sendable, Equatable {
        /// Nothing listens at the socket (yet): the daemon is starting, or is not running.
        case notListening
        /// The socket is there but this user may not connect to it (another user's daemon).
        case notPermitted
        /// It connected but gave no complete answer in time.
        case noAnswer
        /// The answer is not the JSON this smsgw reads (a daemon of another version).
        case unreadable
        /// The daemon answered with an error sentence.
        case refused(String)
    }

    /// The running daemon's status.
    ///
    /// - Parameters:
    ///   - directory: The data directory.
    ///   - wait: How long to keep trying while nothing listens yet (a daemon that holds its lock
    ///     makes the socket once its store is unlocked, a second or two after it starts).
    ///   - timeout: Seconds the daemon has to answer once connected.
    /// - Throws: ``Failure``.
    public static func status(in directory: URL, wait: Double = 10, timeout: Double = 10) throws(Failure) -> GatewayStatus {
        let reply = try ask(.status, in: directory, wait: wait, timeout: timeout)
        if let error = reply.error { throw .refused(error) }
        guard let status = reply.status else { throw .unreadable }
        return status
    }

    /// Sends one request and returns the daemon's reply.
    public static func ask(_ request: StatusSocket.Request, in directory: URL, wait: Double, timeout: Double) throws(Failure) -> DaemonReply
    {
        let path = StatusSocket.path(in: directory)
        let deadline = Date().addingTimeInterval(wait)
        while true {
            switch exchange(request.rawValue, path: path, timeout: timeout) {
            case .success(let bytes):
                guard let reply = try? StatusSocket.decoder().decode(DaemonReply.self, from: Data(bytes)) else {
                    throw .unreadable
                }
                return reply
            case .failure(.notListening) where Date() < deadline:
                Thread.sleep(forTimeInterval: 0.1)
            case .failure(let failure):
                throw failure
            }
        }
    }

    /// One connection: the request line out, the reply line in.
    private static func exchange(_ request: String, path: String, timeout: Double) -> Result<[UInt8], Failure> {
        let socket: FileDescriptor
        do throws(SystemCallError) {
            socket = try UnixSocket.connect(to: path)
        } catch {
            return .failure(error.code == EACCES || error.code == EPERM ? .notPermitted : .notListening)
        }
        try? socket.setTimeouts(.seconds(timeout))
        guard (try? socket.sendAll(Array((request + "\n").utf8))) != nil else { return .failure(.noAnswer) }
        let received = socket.receive(limit: StatusSocket.maximumReplyLength) { $0.last == 0x0A }
        guard received.last == 0x0A else { return .failure(.noAnswer) }
        return .success(Array(received.dropLast()))
    }
}
