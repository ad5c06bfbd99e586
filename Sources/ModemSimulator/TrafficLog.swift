import Foundation
import Synchronization

/// One line of the traffic log: a PDU that entered or left the simulated network.
struct TrafficRecord: Encodable {
    var time: String
    var from: String
    var to: String
    /// `submit` (modem to SMSC), `deliver`, `status-report` (SMSC to modem), `inject`.
    var direction: String
    var pdu: String
    /// What happened: `accepted`, `cms-error`, `stored`, `queued`, `dropped`, `duplicated`,
    /// `corrupted`, `unknown-number`, `undecodable`.
    var event: String
    var detail: String?
}

/// Appends JSON lines to the traffic log; safe to call from any thread.
final class TrafficLog: Sendable {
    let path: String
    private let handle: Mutex<FileHandle?>

    init(path: String) {
        self.path = path
        _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        handle = Mutex(FileHandle(forWritingAtPath: path))
        handle.withLock { _ = try? $0?.seekToEnd() }
    }

    func append(
        from: String, to: String, direction: String, pdu: [UInt8], event: String, detail: String? = nil
    ) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let record = TrafficRecord(
            time: formatter.string(from: Date()), from: from, to: to, direction: direction,
            pdu: Hex.encode(pdu), event: event, detail: detail)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(record) else { return }
        line.append(0x0A)
        handle.withLock { try? $0?.write(contentsOf: line) }
    }

    func close() {
        handle.withLock {
            try? $0?.close()
            $0 = nil
        }
    }
}
