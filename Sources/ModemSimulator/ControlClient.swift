import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends commands to a running simulator's control socket (what `smsgw sim ctl` does).
public enum ControlClient {
    /// Sends one command line and returns the one-line answer without its newline.
    /// - Parameters:
    ///   - command: For example `drop 0.1 +15550001` or `status`.
    ///   - socketPath: The network's ``SimulatedNetwork/controlSocketPath``.
    ///   - timeout: Seconds to wait for the answer.
    /// - Throws: ``SimulatorError`` when nothing listens there or no answer comes in time.
    public static func send(_ command: String, socketPath: String, timeout: Double = 10) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SimulatorError.posix("socket") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SimulatorError("The control socket path \(socketPath) is too long.")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            throw SimulatorError(
                "No simulator answers at \(socketPath) (\(String(validatingCString: strerror(errno)) ?? "error")); start one with `smsgw sim --dir DIR`.")
        }
        let line = Array((command.replacingOccurrences(of: "\n", with: " ") + "\n").utf8)
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var answer: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            answer += chunk[0..<n]
            if let newline = answer.firstIndex(of: 0x0A) {
                return String(decoding: answer[..<newline], as: UTF8.self)
            }
        }
        throw SimulatorError("The simulator at \(socketPath) did not answer within \(Int(timeout)) s.")
    }
}
