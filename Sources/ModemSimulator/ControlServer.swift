import Foundation
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The control socket: a Unix domain stream socket that reads one command per line and answers
/// one line each (`OK`, `ERROR <reason>`, or JSON for `status`). See
/// ``SimulatedNetwork/handleControl(_:)`` for the commands.
///
/// Safe to share (`@unchecked Sendable`): the listening descriptor and the stop flag are in a
/// mutex; connections are served one at a time on the server's own thread.
final class ControlServer: @unchecked Sendable {
    let path: String
    weak let network: SimulatedNetwork?
    let logger: Logger
    private let listener = Mutex<Int32>(-1)
    private let stopped = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    init(path: String, network: SimulatedNetwork, logger: Logger) {
        self.path = path
        self.network = network
        self.logger = logger
    }

    func start() throws {
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SimulatorError.posix("socket") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            close(fd)
            throw SimulatorError("The control socket path \(path) is longer than \(capacity - 1) bytes; use a shorter --dir.")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // The directory is 0700 already; 0600 on the socket keeps other users out even if it is not.
        guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 8) == 0 else {
            let error = SimulatorError.posix("bind/listen \(path)")
            close(fd)
            throw error
        }
        listener.withLock { $0 = fd }
        let thread = Thread { [self] in self.acceptLoop(fd) }
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
        listener.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
        unlink(path)
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func acceptLoop(_ fd: Int32) {
        defer { finished.signal() }
        while !isStopped {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            let client = accept(fd, nil, nil)
            guard client >= 0 else { continue }
            serve(client)
            close(client)
        }
    }

    /// Answers each line until the peer closes, goes quiet for 30 s, or the server stops.
    private func serve(_ client: Int32) {
        var buffer: [UInt8] = []
        var idle = 0
        while !isStopped, idle < 300 {
            var pfd = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else {
                idle += 1
                continue
            }
            idle = 0
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            buffer += chunk[0..<n]
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                let answer = (network?.handleControl(line) ?? "ERROR network stopped") + "\n"
                let out = Array(answer.utf8)
                _ = out.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            }
        }
    }
}
