public import Glibc

/// What an advisory lock (`flock(2)`) is for.
public enum FileLock: Sendable {
    /// Many holders at once, none while an exclusive one is held.
    case shared
    /// One holder only.
    case exclusive

    var operation: Int32 { self == .shared ? LOCK_SH : LOCK_EX }
}

extension FileDescriptor {
    /// Takes an advisory lock on the open file (`flock(2)`); the kernel drops it when the last
    /// descriptor of this open file closes, even when the process is killed.
    ///
    /// - Parameters:
    ///   - kind: Shared or exclusive.
    ///   - waiting: Whether to wait for a holder to let go; a signal does not end the wait.
    /// - Returns: Whether this descriptor holds the lock now: false only without `waiting`, when
    ///   another open file holds a conflicting lock.
    @discardableResult
    public func lock(_ kind: FileLock, waiting: Bool) throws(SystemCallError) -> Bool {
        let fd = rawValue
        let operation = kind.operation | (waiting ? 0 : LOCK_NB)
        return try SystemCall.run("flock", path: path, unless: waiting ? [] : SystemCall.wouldBlock) {
            flock(fd, operation)
        } != nil
    }

    /// Lets go of this descriptor's lock (closing the descriptor does too).
    public func unlock() {
        _ = try? SystemCall.run("flock", path: path) { flock(rawValue, LOCK_UN) }
    }

    /// Cuts or extends the file to `length` bytes (`ftruncate(2)`).
    public func truncate(to length: Int) throws(SystemCallError) {
        let fd = rawValue
        try SystemCall.run("ftruncate", path: path) { ftruncate(fd, off_t(length)) }
    }

    /// Writes all of `bytes` at `offset`, leaving the file offset alone (`pwrite(2)`).
    public func writeAll(_ bytes: [UInt8], at offset: Int) throws(SystemCallError) {
        let fd = rawValue
        var done = 0
        while done < bytes.count {
            let start = done
            let written = try SystemCall.run("pwrite", path: path) {
                bytes[start...].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset + start)) }
            }
            guard written > 0 else { throw SystemCallError(call: "pwrite", path: path, code: EIO) }
            done += written
        }
    }

    /// Reads at most `count` bytes at `offset`, leaving the file offset alone (`pread(2)`).
    /// - Returns: The bytes; fewer than `count` (or none) where the file ends.
    public func read(upTo count: Int, at offset: Int) throws(SystemCallError) -> [UInt8] {
        let fd = rawValue
        var buffer = [UInt8](repeating: 0, count: count)
        let read = try SystemCall.run("pread", path: path) {
            buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
        }
        buffer.removeSubrange(read...)
        return buffer
    }

    /// Sets the file's permission bits exactly, whatever the umask took away (`fchmod(2)`).
    public func setMode(_ mode: mode_t) throws(SystemCallError) {
        let fd = rawValue
        try SystemCall.run("fchmod", path: path) { fchmod(fd, mode) }
    }

    /// Waits until the file's data is on the disk (`fsync(2)`).
    public func sync() throws(SystemCallError) {
        let fd = rawValue
        try SystemCall.run("fsync", path: path) { fsync(fd) }
    }
}
