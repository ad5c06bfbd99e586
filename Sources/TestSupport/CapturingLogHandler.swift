public import Logging
import Synchronization

/// Keeps every log line, with its metadata, for inspection: `"LEVEL message [metadata]"`.
public struct CapturingLogHandler: LogHandler {
    /// The lines logged so far, shared by every copy of the handler.
    public final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        public var all: [String] { lines.withLock { $0 } }
        public init() {}
    }

    let store: Lines
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public init(store: Lines) {
        self.store = store
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.lines.withLock { $0.append("\(event.level) \(event.message) \(merged)") }
    }
}
