import Dispatch
import Foundation
public import Logging
public import Operations
public import ServiceLifecycle
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
/// `@unchecked Sendable`: the descriptors are set once in `init` and closed once in `deinit`; the
/// stop pipe is written from any thread, which a pipe allows.
public final class StatusServer: Service, @unchecked Sendable {
    /// Seconds a client has to send its request and to take the reply.
    static let clientTimeout = 2.0

    /// The socket's path.
    public let path: String
    private let listener: Int32
    private let stopPipe: (read: Int32, write: Int32)
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
    /// - Throws: ``GatewayError`` (69) when the socket cannot be made.
    public init(path: String, logger: Logger, answer: @escaping @Sendable (String) -> DaemonReply) throws(GatewayError) {
        self.path = path
        self.logger = logger
        self.answer = answer
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Self.failure("socket", path: path) }
        let bound = StatusSocket.withAddress(path) { bind(fd, $0, $1) }
        guard let bound else {
            close(fd)
            throw GatewayError(.unavailable, "The status socket path \(path) is too long for a Unix socket; use a shorter data directory.")
        }
        // The data directory is 0700 as well; the mode keeps the socket private wherever it is.
        guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 16) == 0 else {
            let error = Self.failure("bind", path: path)
            close(fd)
            unlink(path)
            throw error
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            close(fd)
            unlink(path)
            throw Self.failure("pipe", path: path)
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        listener = fd
        stopPipe = (pipeEnds[0], pipeEnds[1])
    }

    deinit {
        close(listener)
        close(stopPipe.read)
        close(stopPipe.write)
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
        unlink(path)
    }

    /// Wakes the accept loop for good (the pipe stays readable).
    private func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
    }

    private func acceptLoop() {
        while true {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, fds[1].revents == 0 else { return }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            serve(client)
            close(client)
        }
    }

    /// Reads one request line and writes one reply line.
    private func serve(_ client: Int32) {
        StatusSocket.setTimeouts(client, seconds: Self.clientTimeout)
        let received = StatusSocket.read(client, limit: StatusSocket.maximumRequestLength) { $0.contains(0x0A) }
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
        if !StatusSocket.writeAll(client, bytes) {
            logger.debug("A status client went away before taking its reply.")
        }
    }

    private static func failure(_ call: String, path: String) -> GatewayError {
        let reason = String(validatingCString: strerror(errno)) ?? "error \(errno)"
        return GatewayError(.unavailable, "Cannot make the status socket \(path) (\(call): \(reason)); check the data directory's owner and permissions.")
    }
}
