import CSystemCalls
import Glibc

/// A pipe that wakes a thread waiting in `poll(2)`: the thread polls ``readEnd``, any other
/// thread calls ``wake()``.
///
/// Both ends are non-blocking and close-on-exec, so a full pipe never blocks the waker (it is
/// already readable) and no child process inherits them. They close when the pipe goes away,
/// which must not happen while a thread may still wake it: keep the pipe as long as its owner.
public final class WakePipe: Sendable {
    private let reading: FileDescriptor
    private let writing: FileDescriptor

    /// Makes the pipe.
    /// - Throws: ``SystemCallError`` naming `pipe2` (too many open files, mostly).
    public init() throws(SystemCallError) {
        var ends: [Int32] = [-1, -1]
        try SystemCall.run("pipe2") { smsgw_pipe_nonblocking(&ends) }
        reading = FileDescriptor(owning: ends[0])
        writing = FileDescriptor(owning: ends[1])
    }

    /// The descriptor to poll for `POLLIN`.
    public var readEnd: Int32 { reading.rawValue }

    /// Makes ``readEnd`` readable until ``drain()``; safe from any thread.
    public func wake() {
        _ = try? writing.write(CollectionOfOne(1))
    }

    /// Reads every pending wake-up, so the next poll waits again.
    public func drain() {
        while let bytes = try? reading.read(upTo: 64), !bytes.isEmpty {}
    }
}
