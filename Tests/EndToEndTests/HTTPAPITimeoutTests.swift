import Foundation
import NIOCore
import NIOPosix
import Synchronization
import TestSupport
import Testing

/// The listener's limits against slow clients, over raw sockets to a real daemon: a connection
/// that sends nothing, a head that never ends, an idle keep-alive connection and a body sent a
/// byte at a time are each closed by the server, the body's after a 408, and none leaves an error
/// in the daemon's log.
@Suite("HTTP API: idle and request timeouts", .serialized)
struct HTTPAPITimeoutTests {
    @Test("The server closes a silent connection, an unfinished head, an idle keep-alive connection and a trickled body (after a 408)")
    func slowClientsAreCut() async throws {
        try await withTemporaryDirectory { root in
            // The idle limit above the request limit: a trickled body keeps the connection from
            // being idle, so only the request limit can end it.
            let fixture = try await HTTPAPITests.Fixture.start(
                in: root, environment: ["SMSGW_HTTP_IDLE_TIMEOUT_SECONDS": "3", "SMSGW_HTTP_REQUEST_TIMEOUT_SECONDS": "1"])
            let address = try #require(hostAndPort(fixture.base))

            let silent = try await RawConnection(address)
            try await silent.waitUntilClosed("a connection that sends nothing")

            let unfinished = try await RawConnection.sending("GET /health/live HTTP/1.1\r\nHost: localhost\r\n", to: address)
            try await unfinished.trickle("X-Slow: a\r\n", until: "a head that never ends")

            let keptAlive = try await RawConnection.sending("GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n", to: address)
            try await GatewayRig.wait("the answer on the kept-alive connection", timeout: 30) {
                keptAlive.received.contains("HTTP/1.1 200")
            }
            try await keptAlive.waitUntilClosed("an idle keep-alive connection")

            let trickled = try await RawConnection.sending(
                "POST /login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n",
                to: address)
            try await trickled.trickle("a", until: "a body sent a byte at a time")
            // Answered before it was closed: 408 with the API's problem body, and Connection: close.
            let answer = trickled.received.lowercased()
            #expect(answer.hasPrefix("http/1.1 408 request timeout\r\n"), "\(trickled.received)")
            #expect(answer.contains("\r\nconnection: close\r\n") && answer.contains("content-type: application/problem+json"), "\(answer)")
            #expect(
                trickled.received.contains("\"type\":\"urn:smsgw:problem:request-timeout\"")
                    && trickled.received.contains("did not arrive whole within 1 s of its head"), "\(trickled.received)")
            // A request answered before its body arrived (401: no token) gets no second answer.
            let refused = try await RawConnection.sending(
                "POST /v1/messages HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n",
                to: address)
            try await refused.trickle("a", until: "a body trickled after its answer")
            #expect(refused.received.hasPrefix("HTTP/1.1 401") && !refused.received.contains(" 408 "), "\(refused.received)")
            // A head that never ended was closed without an answer.
            #expect(unfinished.received.isEmpty, "\(unfinished.received)")

            // The limits end slow clients only: a request that arrives whole is answered.
            #expect(try await APIClient(base: fixture.base, token: nil).get("/health/live").status == 200)

            // Stopped, every handler has ended: a request cut off by its deadline is no fault of
            // the gateway's, so its log holds no error line.
            #expect(try await fixture.daemon.stop() == 0)
            let errors = fixture.daemon.lines.filter { $0.split(separator: " ").dropFirst().first == "error" }
            #expect(errors.isEmpty, "\(errors)")
        }
    }

    /// `HOST` and `PORT` of `http://HOST:PORT`.
    private func hostAndPort(_ base: String) -> (host: String, port: Int)? {
        let rest = base.replacingOccurrences(of: "http://", with: "")
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]) else { return nil }
        return (String(rest[..<colon]), port)
    }
}

/// A TCP connection that writes what it is given and keeps what it receives.
private final class RawConnection: Sendable {
    private let channel: any Channel
    private let collected: Collected

    init(_ address: (host: String, port: Int)) async throws {
        let collected = Collected()
        self.collected = collected
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collected) }
            }
            .connect(host: address.host, port: address.port).get()
    }

    deinit {
        channel.close(promise: nil)
    }

    /// What the server sent so far.
    var received: String { collected.text }

    /// A connection that `text` was written on: made again when the server closed the last one
    /// first, as its idle limit does to a connection this test did not get to write on in time
    /// on a loaded machine (the limits are seconds here).
    static func sending(_ text: String, to address: (host: String, port: Int)) async throws -> RawConnection {
        for _ in 1..<10 {
            let connection = try await RawConnection(address)
            do {
                try await connection.channel.writeAndFlush(ByteBuffer(string: text))
                return connection
            } catch let error as ChannelError where error == .ioOnClosedChannel || error == .alreadyClosed {
                continue
            }
        }
        let connection = try await RawConnection(address)
        try await connection.channel.writeAndFlush(ByteBuffer(string: text))
        return connection
    }

    func waitUntilClosed(_ what: String) async throws {
        try await GatewayRig.wait("the server to close \(what)", timeout: 60) { !channel.isActive }
    }

    /// Sends `text` every quarter second until the server closes the connection.
    func trickle(_ text: String, until what: String) async throws {
        let start = Date()
        while channel.isActive {
            try? await channel.writeAndFlush(ByteBuffer(string: text))
            try await Task.sleep(for: .milliseconds(250))
            if Date().timeIntervalSince(start) > 120 {
                Issue.record("The server did not close \(what) in 120 s.")
                throw GatewayRig.TimedOut()
            }
        }
    }

    /// The bytes the connection received.
    private final class Collected: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        private let bytes = Mutex("")

        var text: String { bytes.withLock { $0 } }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            bytes.withLock { $0 += String(buffer: buffer) }
        }
    }
}
