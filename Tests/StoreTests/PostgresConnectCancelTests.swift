import Foundation
import Glibc
import Logging
import NIOCore
import PostgresNIO
import Testing

@testable import Store

/// A task connecting to a PostgreSQL server that does not answer (``PostgresKeepalive``) ends at
/// once when it is cancelled, not at the end of the connect timeout: a stopping daemon whose
/// listener is connecting does not wait for it.
// The limit only ends a connect that cancelling failed to end (it would wait an hour); generous,
// as end-to-end tests running beside this one can hold the cooperative pool's threads for minutes.
@Suite("Cancelling a connect to a PostgreSQL server that does not answer", .timeLimit(.minutes(10)))
struct PostgresConnectCancelTests {
    @Test("A cancelled connect throws CancellationError while the socket still waits for the server's answer")
    func cancelDuringTheSocketConnect() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        var configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: silent.port, username: "smsgw", password: "x", database: "none", tls: .disable)
        configuration.options.connectTimeout = .hours(1)
        let connecting = Task {
            try await PostgresKeepalive.connect(configuration, id: 1, logger: Logger(label: "test"))
        }
        // One filler waits already (the queue holds the other); the connect is the second.
        try await waitFor("the connect to wait for the server's answer") { try silent.connectsWaiting() >= 2 }
        connecting.cancel()
        let outcome = await connecting.result
        #expect(throws: CancellationError.self) { try outcome.get() }
    }
}

/// A loopback TCP port whose accept queue is full and never read: the kernel drops each further
/// SYN, so a new connect to it waits as one to a server that does not answer does.
private struct SilentListener {
    let port: Int
    private let listener: Int32
    private let fillers: [Int32]

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                Glibc.bind(listener, generic, length) == 0 && listen(listener, 0) == 0
                    && getsockname(listener, generic, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
        // With a backlog of 0 the queue holds one connection; two more make sure it is full.
        var fillers: [Int32] = []
        for _ in 0..<2 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
            }
            fillers.append(filler)
        }
        self.fillers = fillers
    }

    /// Sockets of this process's host in SYN_SENT to ``port`` (state 02 in /proc/net/tcp).
    func connectsWaiting() throws -> Int {
        let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        let remote = String(format: "0100007F:%04X", port)
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[2] == remote && fields[3] == "02"
        }.count
    }

    func close() {
        for descriptor in fillers + [listener] { Glibc.close(descriptor) }
    }
}
