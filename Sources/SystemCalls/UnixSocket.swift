import CSystemCalls
public import Glibc

/// Unix domain sockets by path: the daemon's status socket, the simulator's control socket and
/// systemd's notification socket.
public enum UnixSocket {
    /// Makes a stream socket listening at `path`, mode `mode`, replacing a stale socket there.
    ///
    /// The caller must know that no live socket is at `path` (it holds the lock that says so).
    /// - Parameters:
    ///   - path: Where to listen; at most 107 bytes on Linux.
    ///   - mode: The socket file's permission bits, set right after `bind` (0600: this user only).
    ///   - backlog: Connections the kernel queues before `accept`.
    /// - Throws: ``SystemCallError`` naming the call that failed and `path`; `ENAMETOOLONG` when
    ///   `path` does not fit a socket address. Nothing is left open and no file stays at `path`.
    public static func listen(at path: String, mode: mode_t = 0o600, backlog: Int32 = 16) throws(SystemCallError) -> FileDescriptor {
        try FileSystem.remove(path)
        let socket = try makeSocket(type: SOCK_STREAM, path: path)
        do {
            _ = try withAddress(path) { address, length throws(SystemCallError) in
                try SystemCall.run("bind", path: path) { bind(socket.rawValue, address, length) }
            }
            try FileSystem.setMode(mode, of: path)
            try SystemCall.run("listen", path: path) { Glibc.listen(socket.rawValue, backlog) }
        } catch {
            try? FileSystem.remove(path)
            throw error
        }
        return socket
    }

    /// Connects a stream socket to the one listening at `path`.
    /// - Throws: ``SystemCallError``: `ENOENT` or `ECONNREFUSED` when nothing listens there,
    ///   `EACCES` when this user may not connect.
    public static func connect(to path: String) throws(SystemCallError) -> FileDescriptor {
        let socket = try makeSocket(type: SOCK_STREAM, path: path)
        _ = try withAddress(path) { address, length throws(SystemCallError) in
            try SystemCall.run("connect", path: path) { Glibc.connect(socket.rawValue, address, length) }
        }
        return socket
    }

    /// Sends one datagram to the socket at `path`; a path starting with `@` names a socket in the
    /// abstract namespace (as systemd's `NOTIFY_SOCKET` may).
    public static func sendDatagram(_ bytes: [UInt8], to path: String) throws(SystemCallError) {
        let socket = try makeSocket(type: SOCK_DGRAM, path: path)
        try withAddress(path) { address, length throws(SystemCallError) in
            _ = try SystemCall.run("sendto", path: path) {
                bytes.withUnsafeBytes { sendto(socket.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
            }
        }
    }

    private static func makeSocket(type: __socket_type, path: String) throws(SystemCallError) -> FileDescriptor {
        let kind = Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let raw = try SystemCall.run("socket", path: path) { socket(AF_UNIX, kind, 0) }
        return FileDescriptor(owning: raw, path: path)
    }

    /// Runs `body` with the socket address of `path`.
    /// - Throws: ``SystemCallError`` with `ENAMETOOLONG` when `path` does not fit `sun_path`
    ///   (108 bytes with its NUL on Linux); what `body` throws.
    static func withAddress<T>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemCallError) -> T
    ) throws(SystemCallError) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        // "@name" is a socket in the abstract namespace: a NUL byte instead of the "@", no NUL after.
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SystemCallError(call: "bind", path: path, code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        return try withUnsafePointer(to: &address) { pointer throws(SystemCallError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemCallError) in
                try body(address, length)
            }
        }
    }
}

extension FileDescriptor {
    /// Takes the next connection of a listening socket (`accept(2)`), close-on-exec.
    /// - Returns: The connection; nil when none is waiting on a non-blocking socket or the client
    ///   gave up before it was taken.
    public func accept() throws(SystemCallError) -> FileDescriptor? {
        let fd = rawValue
        let client = try SystemCall.run("accept", path: path, unless: SystemCall.wouldBlock.union([ECONNABORTED])) {
            smsgw_accept_cloexec(fd)
        }
        return client.map { FileDescriptor(owning: $0, path: path) }
    }

    /// Sets how long one send or receive on this socket may wait before it fails with `EAGAIN`,
    /// so a stuck peer cannot hold it.
    public func setTimeouts(_ timeout: Duration) throws(SystemCallError) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        let size = socklen_t(MemoryLayout<timeval>.size)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            try SystemCall.run("setsockopt", path: path) { setsockopt(rawValue, SOL_SOCKET, option, &value, size) }
        }
    }

    /// Sends all of `bytes` on a connected socket, with no SIGPIPE when the peer went away.
    /// - Throws: ``SystemCallError``: `EPIPE` or `ECONNRESET` when the peer closed, `EAGAIN`
    ///   when the send timeout passed.
    public func sendAll(_ bytes: [UInt8]) throws(SystemCallError) {
        let fd = rawValue
        var offset = 0
        while offset < bytes.count {
            let start = offset
            offset += try SystemCall.run("send", path: path) {
                bytes[start...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    /// Reads until `complete` says the bytes so far are whole, the peer closes, `limit` bytes
    /// came or a read fails (the receive timeout passed, the peer reset); returns what came.
    public func receive(limit: Int, until complete: ([UInt8]) -> Bool) -> [UInt8] {
        var received: [UInt8] = []
        while received.count < limit, !complete(received) {
            guard let chunk = try? read(upTo: min(4096, limit - received.count)), !chunk.isEmpty else { break }
            received += chunk
        }
        return received
    }
}
