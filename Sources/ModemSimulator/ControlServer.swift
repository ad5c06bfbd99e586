import Foundation
import Logging
import Synchronization
import SystemCalls

/// The control socket: a Unix domain stream socket that reads one command per line and answers
/// one line each (`OK`, `ERROR <reason>`, or JSON for `status`). See
/// ``SimulatedNetwork/handleControl(_:)`` for the commands.
///
/// Sendable: the listening socket is immutable and closes with the server, after its thread
/// (which holds the server) has left; the stop flag is in a mutex; connections are served one
/// at a time on the server's own thread.
final class ControlServer: Sendable {
    let path: String
    weak let network: SimulatedNetwork?
    let logger: Logger
    private let listener: FileDescriptor
    private let stopped = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Listens at `path` (mode 0600), replacing a stale socket there; ``start()`` serves it.
    /// - Throws: ``SimulatorError`` when the socket cannot be made.
    init(path: String, network: SimulatedNetwork, logger: Logger) throws {
        self.path = path
        self.network = network
        self.logger = logger
        do throws(SystemCallError) {
            // The directory is 0700 already; 0600 on the socket keeps other users out even if it is not.
            listener = try UnixSocket.listen(at: path, mode: 0o600, backlog: 8)
        } catch  where error.code == ENAMETOOLONG {
            throw SimulatorError(
                "The control socket path \(path) is longer than a Unix socket allows (107 bytes); run the simulator in a directory with a shorter path."
            )
        } catch {
            throw SimulatorError(error.description)
        }
    }

    /// Starts the thread that answers connections.
    func start() {
        let thread = Thread { [self] in self.acceptLoop() }
        thread.name = "sim-control"
        thread.start()
    }

    func stop() {
        let wasRunning = stopped.withLock { s -> Bool in
            defer { s = true }
            return !s
        }
        guard wasRunning else { return }
        _ = finished.wait(timeout: .now() + 2)
        try? FileSystem.remove(path)
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func acceptLoop() {
        defer { finished.signal() }
        while !isStopped {
            guard listener.isReadable(within: .milliseconds(100)) else { continue }
            guard let client = try? listener.accept() else { continue }
            serve(client)
        }
    }

    /// Answers each line until the peer closes, goes quiet for 30 s, or the server stops.
    private func serve(_ client: borrowing FileDescriptor) {
        var buffer: [UInt8] = []
        var idle = 0
        while !isStopped, idle < 300 {
            guard client.isReadable(within: .milliseconds(100)) else {
                idle += 1
                continue
            }
            idle = 0
            guard let chunk = try? client.read(upTo: 4096), !chunk.isEmpty else { return }
            buffer += chunk
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                let answer = (network?.handleControl(line) ?? "ERROR network stopped") + "\n"
                // A client that went away gets no answer, and no SIGPIPE ends the simulator.
                guard (try? client.sendAll(Array(answer.utf8))) != nil else { return }
            }
        }
    }
}
