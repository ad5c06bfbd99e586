import Foundation
import NIOCore
import NIOPosix
import PostgresNIO
import TestSupport
import Testing

@testable import Store

/// How a statement waits for its answer on a PostgreSQL connection (``PostgresAnswerWait``).
@Suite("Waiting for a PostgreSQL statement's answer")
struct PostgresAnswerWaitTests {
    /// Stands for an answer, rows and all.
    final class Answer: Sendable {}

    @Test("An answer read is freed: nothing of it stays on the connection until it closes")
    func answerNotKept() throws {
        let cluster = try requirePostgres()
        let connection = try PostgresKeepalive.connect(
            cluster.freshAddress().connectionConfiguration(), id: 1, logger: TestStore.logger,
            on: MultiThreadedEventLoopGroup.singleton.any()
        ).wait()
        defer { try? connection.close().wait() }
        let answers = PostgresAnswerWait(connection)
        weak var kept: Answer?
        for _ in 0..<3 {
            let answer = Answer()
            kept = answer
            let promise = connection.eventLoop.makePromise(of: Answer.self)
            promise.succeed(answer)
            #expect(try answers.wait(for: promise.futureResult) === answer)
        }
        // The connection's event loop lets go of the last one once it has run its callbacks.
        let deadline = Date().addingTimeInterval(30)
        while kept != nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(kept == nil)
        // The connection still answers, and a wait on it still ends when it closes.
        let rows = try answers.wait(for: connection.query("SELECT 1", logger: TestStore.logger))
        #expect(rows.rows.count == 1)
        try connection.close().wait()
        let unanswered = connection.eventLoop.makePromise(of: Answer.self)
        #expect(throws: StoreError.self) { try answers.wait(for: unanswered.futureResult) }
        unanswered.succeed(Answer())
    }
}
