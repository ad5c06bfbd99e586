import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A datagram socket standing in for systemd's notification socket (`NOTIFY_SOCKET`), to see
/// what a `Type=notify` daemon tells its supervisor.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard fd >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw NotifySocketError() }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw NotifySocketError() }
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The next datagram's text, or nil when none came within `timeout` seconds.
    func receive(timeout: TimeInterval) async throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { return String(decoding: buffer[0..<count], as: UTF8.self) }
            try await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }
}

struct NotifySocketError: Error {}
