public import Glibc

/// An open file descriptor that this value owns: it is closed exactly once, when the value goes
/// away or by ``close()``, on every path, a thrown error's too.
///
/// Non-copyable, so no copy can close it behind the owner's back or use its number after the
/// close, when the kernel may have given that number to another file (a modem's port, a
/// socket). Code that needs the number for `poll(2)` borrows ``rawValue`` while the owner lives.
public struct FileDescriptor: ~Copyable, Sendable {
    /// The descriptor number; valid while this value lives.
    public let rawValue: Int32
    /// What it was opened on, for error sentences: a path, or nil for a pipe or unnamed socket.
    public let path: String?

    /// Takes ownership of `rawValue`, which the caller must not close.
    /// - Parameters:
    ///   - rawValue: An open descriptor (not negative).
    ///   - path: What it is open on, named in errors.
    public init(owning rawValue: Int32, path: String? = nil) {
        precondition(rawValue >= 0, "a FileDescriptor owns an open descriptor, never \(rawValue)")
        self.rawValue = rawValue
        self.path = path
    }

    deinit { closeDescriptor(rawValue) }

    /// Closes the descriptor now rather than when the value goes away.
    public consuming func close() {}

    /// Opens `path` (`open(2)`), close-on-exec always.
    ///
    /// - Parameters:
    ///   - path: The file, device or directory.
    ///   - flags: `O_RDONLY`, `O_RDWR | O_CREAT | O_NOFOLLOW`, …; `O_CLOEXEC` is added.
    ///   - mode: The permission bits of a file `O_CREAT` makes (the umask still applies).
    /// - Throws: ``SystemCallError`` naming `open` and `path` (`ELOOP` for a refused link).
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(SystemCallError) -> FileDescriptor {
        let descriptor = try SystemCall.run("open", path: path) { Glibc.open(path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(owning: descriptor, path: path)
    }

    /// A descriptor of its own on what `descriptor` (one this process inherited, such as 0 for
    /// stdin) is open on, sharing its file offset (`dup(2)`); the inherited one stays open.
    public static func duplicate(_ descriptor: Int32, path: String? = nil) throws(SystemCallError) -> FileDescriptor {
        let copy = try SystemCall.run("dup", path: path) { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }
        return FileDescriptor(owning: copy, path: path)
    }

    /// Reads at most `count` bytes (`read(2)`).
    /// - Returns: The bytes; empty at the end of the file; nil when a non-blocking descriptor has
    ///   nothing to read now.
    public func read(upTo count: Int) throws(SystemCallError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        let fd = rawValue
        let read = try SystemCall.run("read", path: path, unless: SystemCall.wouldBlock) {
            buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        }
        guard let read else { return nil }
        buffer.removeSubrange(read...)
        return buffer
    }

    /// Writes some of `bytes` (`write(2)`).
    /// - Returns: How many were written; nil when a non-blocking descriptor takes none now.
    public func write(_ bytes: some Collection<UInt8>) throws(SystemCallError) -> Int? {
        let fd = rawValue
        let contiguous = Array(bytes)
        return try SystemCall.run("write", path: path, unless: SystemCall.wouldBlock) {
            contiguous.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        }
    }

    /// Writes all of `bytes`, however many writes that takes.
    /// - Throws: ``SystemCallError``; `EAGAIN` when the descriptor is non-blocking and stays full,
    ///   or a socket's send timeout passed.
    public func writeAll(_ bytes: [UInt8]) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            guard let written = try write(bytes[offset...]) else {
                throw SystemCallError(call: "write", path: path, code: EAGAIN)
            }
            offset += written
        }
    }

    /// Adds `O_NONBLOCK` to the descriptor's status flags.
    public func setNonBlocking() throws(SystemCallError) {
        let fd = rawValue
        let flags = try SystemCall.run("fcntl", path: path) { fcntl(fd, F_GETFL) }
        try SystemCall.run("fcntl", path: path) { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Whether the descriptor has something to read (data, a connection, the end of the file)
    /// within `timeout`; false when the time ran out or `poll` failed.
    public func isReadable(within timeout: Duration) -> Bool {
        var descriptors = [pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)]
        return ((try? SystemCall.poll(&descriptors, timeout: timeout)) ?? 0) > 0
    }

    /// Whether the descriptor is a terminal (`isatty(3)`).
    public var isTerminal: Bool { isatty(rawValue) == 1 }
}

/// `close(2)`, never retried: Linux frees the number even when close reports EINTR, so a retry
/// could close a descriptor another thread has just been given.
private func closeDescriptor(_ descriptor: Int32) {
    _ = Glibc.close(descriptor)
}
