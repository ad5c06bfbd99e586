import Glibc

@testable import SystemCalls

/// A blocking pipe (WakePipe's is non-blocking), for calls that must wait.
final class BlockingPipe: Sendable {
    let reading: FileDescriptor
    let writing: FileDescriptor

    init() throws {
        var ends: [Int32] = [-1, -1]
        try SystemCall.run("pipe") { pipe(&ends) }
        reading = FileDescriptor(owning: ends[0])
        writing = FileDescriptor(owning: ends[1])
    }
}
