import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP forwarder standing where production has a virtual IP, a DNS name or a proxy
/// in front of PostgreSQL: clients connect to ``port``, and each new connection is joined to
/// the loopback port given last (``forward(to:)``). Connections already joined stay with their
/// server until either side closes. Listens on 127.0.0.1 only.
///
/// One thread accepts; each connection has a thread copying bytes both ways.
public final class TCPForwarder: Sendable {
    /// The port clients connect to.
    public let port: Int
    private let listener: Int32
    private let routing: Routing

    /// What the accepting thread shares with the forwarder (not the forwarder itself, which
    /// closes when released).
    private final class Routing: Sendable {
        let target: Mutex<Int>
        let closed = Atomic<Bool>(false)

        init(_ target: Int) {
            self.target = Mutex(target)
        }
    }

    /// Listens on a free loopback port and forwards to `targetPort`.
    public init(to targetPort: Int) throws(PostgresUnavailable) {
        let routing = Routing(targetPort)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw PostgresUnavailable("cannot open the forwarder's socket") }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && getsockname(listener, address, &length) == 0
            }
        }
        guard bound, Glibc.listen(listener, 64) == 0 else {
            Glibc.close(listener)
            throw PostgresUnavailable("cannot listen on a loopback port for the forwarder")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        self.routing = routing
        Thread.detachNewThread { Self.acceptLoop(listener, routing) }
    }

    deinit {
        close()
    }

    /// Sends new connections to `port` from now on.
    public func forward(to port: Int) {
        routing.target.withLock { $0 = port }
    }

    /// Stops accepting; joined connections run until a side closes.
    public func close() {
        guard !routing.closed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        // Wakes the thread blocked in accept, which then closes the socket.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private static func acceptLoop(_ listener: Int32, _ routing: Routing) {
        while !routing.closed.load(ordering: .sequentiallyConsistent) {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                break
            }
            let server = connect(to: routing.target.withLock { $0 })
            guard server >= 0 else {
                // As a host that is down: the client sees its connection closed.
                Glibc.close(client)
                continue
            }
            Thread.detachNewThread { join(client, server) }
        }
        Glibc.close(listener)
    }

    /// A connection to the loopback `port`, or -1.
    private static func connect(to port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            Glibc.close(descriptor)
            return -1
        }
        return descriptor
    }

    /// Copies bytes between `a` and `b` until one side closes or fails, then closes both.
    private static func join(_ a: Int32, _ b: Int32) {
        defer {
            Glibc.close(a)
            Glibc.close(b)
        }
        var descriptors = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if poll(&descriptors, 2, -1) < 0 {
                if errno == EINTR { continue }
                return
            }
            for (index, (from, to)) in [(a, b), (b, a)].enumerated() where descriptors[index].revents != 0 {
                let count = read(from, &buffer, buffer.count)
                guard count > 0, sendAll(to, buffer, count) else { return }
            }
        }
    }

    /// Writes `count` bytes of `buffer` to `descriptor`; false when it is closed (no SIGPIPE).
    private static func sendAll(_ descriptor: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
        var sent = 0
        while sent < count {
            let written = buffer.withUnsafeBytes { send(descriptor, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            sent += written
        }
        return true
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
