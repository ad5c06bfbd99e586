import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemCalls

/// Every descriptor is closed once, on every path, and the wrappers do what their calls do.
@Suite("Descriptors")
struct DescriptorTests {
    struct Refused: Error {}

    /// Opens `path` and throws while owning it, as a factory that fails half-way does.
    func openThenFail(_ path: String) throws {
        let descriptor = try FileDescriptor.open(path, O_RDWR | O_CREAT)
        try descriptor.truncate(to: 0)
        #expect(openDescriptors(on: path) == 1)
        throw Refused()
    }

    @Test func aDescriptorIsClosedWhenAThrowLeavesItsScope() throws {
        let scratch = TemporaryDirectory(prefix: "syscalls")
        let path = scratch.file("half-made")
        #expect(throws: Refused.self) { try openThenFail(path) }
        #expect(openDescriptors(on: path) == 0)
    }

    @Test func aLockNotTakenLeavesNoDescriptorBehind() throws {
        let scratch = TemporaryDirectory(prefix: "syscalls")
        let path = scratch.file("lock")
        let holder = try FileDescriptor.open(path, O_RDWR | O_CREAT)
        try holder.lock(.exclusive, waiting: false)
        func tryLock() throws -> Bool {
            let other = try FileDescriptor.open(path, O_RDWR)
            return try other.lock(.exclusive, waiting: false)
        }
        #expect(try !tryLock())
        #expect(openDescriptors(on: path) == 1)
        holder.close()
        #expect(openDescriptors(on: path) == 0)
        #expect(try tryLock())
    }

    @Test func aSocketThatCannotListenLeavesNoFileBehind() throws {
        let scratch = TemporaryDirectory(prefix: "syscalls")
        let path = scratch.file("missing-directory/status.sock")
        #expect(throws: SystemCallError(call: "bind", path: path, code: ENOENT)) {
            _ = try UnixSocket.listen(at: path)
        }
        #expect(try FileSystem.status(of: path) == nil)
    }

    @Test func aSocketListensPrivatelyAndCarriesALineEachWay() throws {
        let scratch = TemporaryDirectory(prefix: "syscalls")
        let path = scratch.file("control.sock")
        let listener = try UnixSocket.listen(at: path)
        #expect(try FileSystem.status(of: path).map { $0.st_mode & 0o777 } == 0o600)
        let client = try UnixSocket.connect(to: path)
        guard let server = try listener.accept() else {
            Issue.record("no connection to accept")
            return
        }
        try client.setTimeouts(.seconds(5))
        try server.setTimeouts(.seconds(5))
        try client.sendAll(Array("status\n".utf8))
        #expect(server.receive(limit: 256) { $0.last == 0x0A } == Array("status\n".utf8))
        try server.sendAll(Array("OK\n".utf8))
        server.close()
        #expect(client.receive(limit: 256) { _ in false } == Array("OK\n".utf8))
        // The peer is gone: a send fails with EPIPE, not SIGPIPE, which would end the test process.
        #expect(throws: SystemCallError.self) { try client.sendAll(Array(repeating: 0, count: 1 << 20)) }
    }

    @Test func aWakePipeWakesAPollUntilDrained() throws {
        let pipe = try WakePipe()
        var descriptors = [pollfd(fd: pipe.readEnd, events: Int16(POLLIN), revents: 0)]
        #expect(try SystemCall.poll(&descriptors, timeout: .zero) == 0)
        for _ in 0..<100_000 { pipe.wake() }  // a full pipe does not block the waker
        #expect(try SystemCall.poll(&descriptors, timeout: .zero) == 1)
        pipe.drain()
        #expect(try SystemCall.poll(&descriptors, timeout: .zero) == 0)
    }

    @Test func filesMadeUnderAUmaskArePrivateAndTheMaskComesBack() throws {
        let scratch = TemporaryDirectory(prefix: "syscalls")
        let path = scratch.file("private")
        let before = umask(0o022)
        defer { umask(before) }
        try FileSystem.withUmask(0o077) {
            _ = try FileDescriptor.open(path, O_WRONLY | O_CREAT, mode: 0o666)
        }
        #expect(try FileSystem.status(of: path).map { $0.st_mode & 0o777 } == 0o600)
        let restored = umask(0o022)
        #expect(restored == 0o022)
    }

    @Test func aPseudoTerminalOpensWithoutDlsymAndCarriesBytes() throws {
        let master = try FileDescriptor.openPseudoTerminal(O_RDWR | O_NOCTTY)
        let path = try master.pseudoTerminalPath()
        #expect(path.hasPrefix("/dev/pts/"))
        let slave = try FileDescriptor.open(path, O_RDWR | O_NOCTTY)
        var raw = try slave.terminalAttributes()
        cfmakeraw(&raw)
        try slave.setTerminalAttributes(raw)
        try master.writeAll(Array("AT\r".utf8))
        #expect(try slave.read(upTo: 16) == Array("AT\r".utf8))
        let isTerminal = slave.isTerminal
        #expect(isTerminal)
        #expect(throws: SystemCallError.self) { _ = try FileDescriptor.open(path + "0000", O_RDWR) }
    }

    @Test func aDuplicateOutlivesNothingButItself() throws {
        let scratch = TemporaryDirectory(prefix: "syscalls")
        let path = scratch.file("shared")
        let original = try FileDescriptor.open(path, O_RDWR | O_CREAT)
        try original.writeAll(Array("passphrase file\n".utf8), at: 0)
        do {
            let copy = try FileDescriptor.duplicate(original.rawValue, path: path)
            #expect(try copy.read(upTo: 64) == Array("passphrase file\n".utf8))
            #expect(openDescriptors(on: path) == 2)
        }
        #expect(openDescriptors(on: path) == 1)
        #expect(try original.read(upTo: 64, at: 0) == Array("passphrase file\n".utf8))
    }
}
