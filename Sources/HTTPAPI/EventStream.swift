import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Operations
import ServiceLifecycle
import Store

/// `GET /v1/events`: Server-Sent Events of every change as it is committed: the message log's
/// changes and the contact and modem events of the journal (``Operations/EventStream``).
///
/// Each event's `id:` is its cursor (``Operations/EventStream/Position/id``), so a client that
/// reconnects with `Last-Event-ID` (or `?after=`) resumes after the last event it saw, losing and
/// repeating nothing. ``forward(_:to:as:)`` writes them, each as ``Event/init(_:seeingPaths:)``
/// makes it for the reader as it is at that moment: the one place that says what the stream
/// holds, for the API and the console's live log alike.
extension APIHandlers {
    /// One event of the stream.
    struct Event: Sendable {
        /// The cursor: increasing in commit order, never reused.
        var id: Int64
        /// The SSE event name: `message` for a log change, else the journal's type (`modem.up`, …).
        var type: String
        /// One line of JSON.
        var data: String

        /// The event in the text/event-stream format.
        var frame: String { "id: \(id)\nevent: \(type)\ndata: \(data)\n\n" }

        /// A change of the log as `message` (`log --follow --json`'s line), or a contact or modem
        /// event of the journal as its type (a webhook's body without text), without a modem's
        /// error for a reader that does not see paths, who sees an outgoing message's error as
        /// ``Operations/SMSErrorText/shown(_:seeingPaths:)`` gives it.
        init(_ event: EventStream.Event, seeingPaths: Bool) throws {
            id = event.id
            switch event.item {
            case .log(let change):
                type = "message"
                data = try OperationsJSON.string(change.shown(seeingPaths: seeingPaths))
            case .journal(let journal):
                type = journal.type
                data = try OperationsJSON.string(journal.shown(seeingPaths: seeingPaths))
            }
        }
    }

    /// The stream, from the `Last-Event-ID` header or `?after=`, else from now.
    func eventStream(_ request: Request, _ context: APIContext) async throws -> Response {
        _ = try await authorize(request, context, .read)
        let store = store
        let presented = Self.presentedToken(request) ?? ""
        // A token revoked or expired while its stream is open gets nothing more: each event waits
        // for the token to be checked again, as a new request's would be.
        let reader: @Sendable () async -> Reader? = { [self] in
            (try? await blocking { try APITokens.authenticate(presented, store: store, now: Date()).requiring(.read) })
                .map { Reader(seeingPaths: $0.seesPaths) }
        }
        let position: EventStream.Position
        if let text = request.headers[.lastEventID] ?? request.uri.queryParameters["after"].map(String.init) {
            guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
                throw Problem.badRequest("Last-Event-ID (or after) must be the id of an event received before (a whole number ≥ 0).")
            }
            position = try await blocking { try EventStream.position(after: value, store: store) }
        } else {
            position = try await blocking { try EventStream.latest(store: store) }
        }
        let events = EventStream.since(position, store: store)
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                // A first comment, so a client sees the stream open before the first event.
                try await writer.write(ByteBuffer(string: ": smsgw events after \(position.id)\n\n"))
                try await Self.forward(events, to: &writer, as: reader)
                try await writer.finish(nil)
            })
    }

    /// Seconds without an event after which the stream sends a comment: a client that went away
    /// is noticed (the write fails) and a proxy keeps the connection open.
    static let keepAlive: Duration = .seconds(15)

    /// Who reads a stream, as checked again before each write.
    struct Reader: Sendable {
        /// Whether events are written with their error texts (``Event/init(_:seeingPaths:)``).
        var seeingPaths: Bool
    }

    /// Writes each event, and a comment after each quiet ``keepAlive``, until the client goes away
    /// (a write throws), the daemon shuts down (the stream ends, so the listener can stop), or
    /// `reader`, asked before each write, says the client may no longer read (nil: a revoked
    /// token, an ended session): then a last comment says so and the stream ends, and the
    /// client's reconnection gets 401. Each event is written in the form `reader` gives at that
    /// moment, so a console operator demoted to viewer gets the viewer's from the next event on.
    static func forward(
        _ events: some AsyncSequence<EventStream.Event, any Error> & Sendable, to writer: inout any ResponseBodyWriter,
        as reader: @escaping @Sendable () async -> Reader?
    ) async throws {
        let (items, continuation) = AsyncStream<EventStream.Event?>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { continuation.finish() }
                    for try await event in events { continuation.yield(event) }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: keepAlive)
                        continuation.yield(nil)  // a keep-alive
                    }
                }
                for await item in items {
                    guard let current = await reader() else {
                        try await writer.write(ByteBuffer(string: ": not authorized any more; the stream ends\n\n"))
                        break
                    }
                    let frame = try item.map { try Event($0, seeingPaths: current.seeingPaths).frame } ?? ": keep-alive\n\n"
                    try await writer.write(ByteBuffer(string: frame))
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            continuation.finish()
        }
    }
}

extension HTTPField.Name {
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
