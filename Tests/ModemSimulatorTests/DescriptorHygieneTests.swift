import Foundation
import ModemSimulator
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The simulator's own descriptors: none leaks into a child process, and a control client that
/// hangs up early cannot take the simulator down.
@Suite("Simulator descriptors")
struct DescriptorHygieneTests {
    static let number = "+15550101"

    /// This process's descriptors open on `path` (Linux's /proc/self/fd), with their fd flags.
    static func descriptorFlags(on path: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap { entry in
            guard let fd = Int32(entry),
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) == path
            else { return nil }
            return fcntl(fd, F_GETFD)
        }
    }

    @Test("The pseudo-terminal the simulator keeps open is close-on-exec")
    func terminalDescriptorsAreCloseOnExec() throws {
        let fixture = try SimulatorRig.started { try $0.addModem(number: Self.number) }
        defer { fixture.close() }
        let slave = try FileManager.default.destinationOfSymbolicLink(atPath: try fixture.modem(Self.number).devicePath)
        let flags = Self.descriptorFlags(on: slave)
        #expect(!flags.isEmpty, "the simulator keeps \(slave) open")
        #expect(flags.allSatisfy { $0 >= 0 && $0 & FD_CLOEXEC != 0 }, "\(slave): \(flags)")
    }

    @Test("A control client that hangs up before its answer leaves the simulator answering others")
    func aClientHangingUpEarlyIsNoSIGPIPE() throws {
        let fixture = try SimulatorRig.started { try $0.addModem(number: Self.number) }
        defer { fixture.close() }
        let socketPath = fixture.network.controlSocketPath
        for _ in 0..<5 {
            // Raw, so the client can leave right after its line, before the answer is written.
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            try #require(fd >= 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socketPath.utf8) + [0]) }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            #expect(connected == 0)
            let line = Array("status\n".utf8)
            _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            // The simulator runs in this process: a SIGPIPE would have ended the test run here.
            #expect(try ControlClient.send("status", socketPath: socketPath).hasPrefix("{"))
        }
    }
}
