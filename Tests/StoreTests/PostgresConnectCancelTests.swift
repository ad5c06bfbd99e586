import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import Store

/// A task connecting to a PostgreSQL server ends at once when it is cancelled, while the socket
/// still waits for the server's answer (``PostgresKeepalive/cancellable(_:)``), not at the end of
/// the connect timeout: a stopping daemon whose listener is connecting does not wait for it.
///
/// The connect is stood for by a promise the test completes itself: a real unanswered SYN gives
/// up after the kernel's own retries, which a full run's busy cooperative pool can outlast.
@Suite("Cancelling a connect to a PostgreSQL server that does not answer", .timeLimit(.minutes(10)))
struct PostgresConnectCancelTests {
    @Test("A cancelled connect throws CancellationError at once; a channel connected after that is closed")
    func cancelDuringTheSocketConnect() async throws {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        let connecting = eventLoop.makePromise(of: (any Channel).self)
        let waiting = Task { try await PostgresKeepalive.cancellable(connecting.futureResult) }
        waiting.cancel()
        let outcome = await waiting.result
        #expect(throws: CancellationError.self) { try outcome.get() }

        // The connect completes after all: its channel is closed, not leaked.
        let server = try await ServerBootstrap(group: eventLoop).bind(host: "127.0.0.1", port: 0).get()
        let late = try await PostgresKeepalive.channel(
            host: "127.0.0.1", port: try #require(server.localAddress?.port), timeout: .seconds(30), on: eventLoop
        ).get()
        connecting.succeed(late)
        try await late.closeFuture.get()
        #expect(!late.isActive)
        try await server.close()
    }

    @Test("A connect that completes first gives its channel")
    func connectedFirst() async throws {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        let server = try await ServerBootstrap(group: eventLoop).bind(host: "127.0.0.1", port: 0).get()
        let channel = PostgresKeepalive.channel(
            host: "127.0.0.1", port: try #require(server.localAddress?.port), timeout: .seconds(30), on: eventLoop)
        let connected = try await PostgresKeepalive.cancellable(channel)
        #expect(connected.isActive)
        try await connected.close()
        try await server.close()
    }
}
