import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Reads a daemon's `GET /v1/events` stream (or the console's `/events`) over a real connection,
/// keeping each event's id and data; cancel its task to disconnect.
final class EventReader: Sendable {
    struct Event: Sendable, Equatable {
        var id: Int64
        /// The SSE event name (`message`, `modem.up`, …).
        var type: String
        var data: String
    }

    private let received = Mutex<[Event]>([])
    private let ended = Mutex(false)
    private let task = Mutex<Task<Void, any Error>?>(nil)

    /// The events so far, in the order they came.
    var events: [Event] { received.withLock { $0 } }

    /// Whether the server ended the stream.
    var finished: Bool { ended.withLock { $0 } }

    /// Connects with `Last-Event-ID` when `lastEventID` is set, and reads until ``disconnect()``
    /// or the server ends the stream; `path` and `headers` for the console's live log.
    init(_ client: APIClient, lastEventID: Int64?, path: String = "/v1/events", headers: [(String, String)] = []) {
        let running = Task { [self] in
            try await read(client, lastEventID: lastEventID, path: path, headers: headers)
        }
        task.withLock { $0 = running }
    }

    private func read(_ client: APIClient, lastEventID: Int64?, path: String, headers: [(String, String)]) async throws {
        var request = HTTPClientRequest(url: client.base + path + (lastEventID == nil && path == "/v1/events" ? "?after=0" : ""))
        if let token = client.token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
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
        ended.withLock { $0 = true }
    }

    /// Closes the connection.
    func disconnect() async {
        let running = task.withLock { $0 }
        running?.cancel()
        _ = await running?.result
    }
}
