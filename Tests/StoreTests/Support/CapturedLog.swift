import Foundation
import Logging
import Synchronization
import Testing

/// Every log line of a logger, with its metadata.
final class CapturedLog: Sendable {
    private let captured = Mutex<[String]>([])
    var lines: [String] { captured.withLock { $0 } }
    var logger: Logger { Logger(label: "smsgw.store.test") { _ in Handler(log: self) } }

    /// The first line containing `text`, once one was logged; nil (and an issue) after a
    /// generous deadline (the listener runs on the cooperative pool, which other suites keep busy).
    func line(containing text: String) async throws -> String? {
        try await waitFor("a log line with \"\(text)\"") { lines.contains { $0.contains(text) } }
        return lines.first { $0.contains(text) }
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: Logging.LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            log.captured.withLock { $0.append("\(event.level) \(event.message) \(merged)") }
        }
    }
}
