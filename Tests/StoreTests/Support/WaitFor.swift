import Foundation
import Testing

/// Waits, sleeping, until `condition` holds; records an issue after a generous deadline (what is
/// waited for may run on the cooperative pool, which a full run's other suites keep busy).
func waitFor(_ what: String, _ condition: () throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(300)
    while try !condition() {
        guard Date() < deadline else {
            Issue.record("Timed out waiting for \(what).")
            return
        }
        try await Task.sleep(for: .milliseconds(50))
    }
}
