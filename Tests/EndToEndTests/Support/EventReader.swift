import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Reads a daemon's `GET /v1/events` stream over a real connection, keeping each event's id and
/// data; cancel its task to disconnect.
final class EventReader: Sendable {
    struct Event: Sendable, Equatable {
        var id: Int64
        /// The SSE event name (`message`, `modem.up`, …).
        var type: String
        var data: String
    }

    private let received = Mutex<[Event]>([])
    private let task = Mutex<Task<Void, any Error>?>(nil)

    /// The events so far, in the order they came.
    var events: [Event] { received.withLock { $0 } }

    /// Connects with `Last-Event-ID` when `lastEventID` is set, and reads until ``disconnect()``.
    init(_ client: APIClient, lastEventID: Int64?) {
        let running = Task { [self] in
            try await read(client, lastEventID: lastEventID)
        }
        task.withLock { $0 = running }
    }

    private func read(_ client: APIClient, lastEventID: Int64?) async throws {
        var request = HTTPClientRequest(url: client.base + "/v1/events" + (lastEventID == nil ? "?after=0" : ""))
        if let token = client.token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: "\(lastEventID)") }
        let response = try await client.client.execute(request, timeout: .hours(1))
        var pending = ""
        for try await buffer in response.body {
            pending += String(buffer: buffer)
            while let end = pending.range(of: "\n\n") {
                let frame = pending[..<end.lowerBound]
                pending = String(pending[end.upperBound...])
                var id: Int64?
                var data = ""
                var type = "message"
                for line in frame.split(separator: "\n") {
                    if line.hasPrefix("id: ") { id = Int64(line.dropFirst(4)) }
                    if line.hasPrefix("event: ") { type = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                }
                if let id { received.withLock { $0.append(Event(id: id, type: type, data: data)) } }
            }
        }
    }

    /// Closes the connection.
    func disconnect() async {
        let running = task.withLock { $0 }
        running?.cancel()
        _ = await running?.result
    }
}
