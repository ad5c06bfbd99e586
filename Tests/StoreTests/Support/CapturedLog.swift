import Foundation
import Logging
import TestSupport

/// Every log line of a logger, with its metadata (`CapturingLogHandler`'s lines).
final class CapturedLog: Sendable {
    private let captured = CapturingLogHandler.Lines()
    var lines: [String] { captured.all }
    var logger: Logger { Logger(label: "smsgw.store.test") { [captured] _ in CapturingLogHandler(store: captured) } }

    /// The first line containing `text`, once one was logged; nil (and an issue) after a
    /// generous deadline (the listener runs on the cooperative pool, which other suites keep busy).
    func line(containing text: String) async throws -> String? {
        try await waitFor("a log line with \"\(text)\"") { lines.contains { $0.contains(text) } }
        return lines.first { $0.contains(text) }
    }
}
