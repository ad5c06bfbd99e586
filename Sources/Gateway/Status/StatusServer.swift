import Dispatch
import Foundation
public import Logging
public import Operations
public import ServiceLifecycle
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Answers the ``StatusSocket`` while the daemon runs: one thread accepts connections one at a
/// time, reads the request line and writes the reply from `answer`.
///
/// A status request is a single read snapshot of the store and a copy of the modems' live state,
/// so serving clients one after the other on one thread is fast enough; each connection has
/// ``clientTimeout`` seconds to send its line and take its answer, so a stuck client cannot
/// hold the socket for long.
///
/// Sendable: the listening socket is owned and closes with the server; the stop pipe may be
/// woken from any thread.
public final class StatusServer: Service, Sendable {
    /// Seconds a client has to send its request and to take the reply.
    static let clientTimeout = 2.0

    /// The socket's path.
    public let path: String
    private let listener: FileDescriptor
    private let stopPipe: WakePipe
    private let answer: @Sendable (String) -> DaemonReply
    private let logger: Logger

    /// Creates the socket (mode 0600) at `path`, replacing a stale one.
    ///
    /// The caller must hold the data directory's ``Store/DaemonLock``: only then is a socket
    /// already at `path` known to be a dead daemon's.
    ///
    /// - Parameters:
    ///   - path: Where to listen, normally ``StatusSocket/path(in:)``.
    ///   - logger: Where failures to answer are logged.
    ///   - answer: The reply to a request line (without its LF).
    /// - Throws: ``GatewayError`` (unavailable) when the socket cannot be made.
    public init(path: String, logger: Logger, answer: @escaping @Sendable (String) -> DaemonReply) throws(GatewayError) {
        self.path = path
        self.logger = logger
        self.answer = answer
        do throws(SystemCallError) {
            // The data directory is 0700 as well; the mode keeps the socket private wherever it is.
            listener = try UnixSocket.listen(at: path, mode: 0o600, backlog: 16)
            stopPipe = try WakePipe()
        } catch  where error.code == ENAMETOOLONG {
            throw GatewayError.statusSocketPathTooLong(path)
        } catch {
            try? FileSystem.remove(path)
            throw GatewayError.statusSocket(path: path, error)
        }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                    let thread = Thread { [self] in
                        acceptLoop()
                        finished.resume()
                    }
                    thread.name = "smsgw-status"
                    thread.start()
                }
            } onCancel: {
                self.stop()
            }
        }
        try? FileSystem.remove(path)
    }

    /// Wakes the accept loop for good (the pipe stays readable).
    private func stop() {
        stopPipe.wake()
    }

    private func acceptLoop() {
        while true {
            var fds = [
                pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopPipe.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            guard let ready = try? SystemCall.poll(&fds, timeout: nil), ready > 0, fds[1].revents == 0 else { return }
            guard let client = try? listener.accept() else { continue }
            serve(client)
        }
    }

    /// Reads one request line and writes one reply line.
    private func serve(_ client: borrowing FileDescriptor) {
        try? client.setTimeouts(.seconds(Self.clientTimeout))
        let received = client.receive(limit: StatusSocket.maximumRequestLength) { $0.contains(0x0A) }
        guard let newline = received.firstIndex(of: 0x0A) else { return }
        let request = String(decoding: received[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        var reply = answer(request)
        let bytes: [UInt8]
        do {
            bytes = Array(try StatusSocket.encoder().encode(reply)) + [0x0A]
        } catch {
            logger.error("Could not encode the status reply.", metadata: [GatewayLog.error: "\(error)"])
            reply = DaemonReply(error: "The daemon could not encode its status; see its log.")
            bytes = Array((try? StatusSocket.encoder().encode(reply)) ?? Data()) + [0x0A]
        }
        if (try? client.sendAll(bytes)) == nil {
            logger.debug("A status client went away before taking its reply.")
        }
    }
}
