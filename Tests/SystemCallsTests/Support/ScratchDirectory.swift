import Foundation
import Glibc
@testable import SystemCalls

/// A private temporary directory for one test, removed when the value goes away.
final class ScratchDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("syscalls-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }
}

/// How many of this process's descriptors are open on `path` (Linux's /proc/self/fd).
///
/// Other tests open and close descriptors in parallel, so the tests count descriptors on a path
/// of their own rather than descriptors in all.
func openDescriptors(on path: String) -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }.count
}

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
