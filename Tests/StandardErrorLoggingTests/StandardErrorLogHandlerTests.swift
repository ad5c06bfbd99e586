import Foundation
import Glibc
import Logging
import StandardErrorLogging
import Testing

/// The log lines of the CLI and the daemon, without running either: journald's priority form,
/// the terminal's timestamped form, and values from outside escaped so they cannot forge a line.
struct StandardErrorLogHandlerTests {
    private func event(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata? = nil) -> LogEvent {
        LogEvent(
            level: level, message: "\(message)", metadata: metadata, source: "Gateway", file: #fileID, function: #function, line: #line)
    }

    @Test func aJournalLineStartsWithItsPriorityAndHasNoTimestamp() {
        let handler = StandardErrorLogHandler(label: "smsgw", format: .journal)
        let line = handler.line(for: event(.error, "The modem hangs.", ["smsgw.modem": "north"]))
        #expect(line == "<3>The modem hangs. smsgw.modem=north")
    }

    @Test(arguments: [
        (Logger.Level.critical, 2), (.error, 3), (.warning, 4), (.notice, 5), (.info, 6), (.debug, 7), (.trace, 7),
    ])
    func eachLevelHasItsSyslogPriority(level: Logger.Level, priority: Int) {
        #expect(StandardErrorLogHandler.priority(level) == priority)
    }

    @Test func aTerminalLineCarriesTimeLevelLabelAndSource() {
        let handler = StandardErrorLogHandler(label: "smsgw", format: .terminal)
        let line = handler.line(for: event(.warning, "Queued.", ["smsgw.contact": "bob"]))
        #expect(line.hasSuffix(" warning smsgw: smsgw.contact=bob [Gateway] Queued."), "\(line)")
    }

    @Test func aCommandsWarningIsOneSentenceWithOnlyTheFactsItDoesNotSay() {
        let handler = StandardErrorLogHandler(label: "smsgw", format: .sentence(priority: false))
        let said = handler.line(
            for: event(.warning, "The data directory /d is readable (mode 755).", ["smsgw.store.path": "/d", "smsgw.store.mode": "755"]))
        #expect(said == "smsgw: warning: The data directory /d is readable (mode 755).")
        let unsaid = handler.line(
            for: event(.error, "Lost the notices.", ["smsgw.error": "connection refused", "smsgw.store.retry-in": "2"]))
        #expect(unsaid == #"smsgw: error: Lost the notices. (error="connection refused", retry-in=2)"#)
        let inside = handler.line(
            for: event(.warning, "The directory /d/old is open (mode 751).", ["smsgw.store.path": "/d", "smsgw.store.retry-in": "1"]))
        #expect(inside == "smsgw: warning: The directory /d/old is open (mode 751). (path=/d, retry-in=1)")
        let journal = StandardErrorLogHandler(label: "smsgw", format: .sentence(priority: true))
        #expect(journal.line(for: event(.warning, "From\n<3>forged")) == #"<4>smsgw: warning: From\n<3>forged"#)
    }

    @Test func valuesFromAnSMSCannotBreakTheLineOrForgeAField() {
        let handler = StandardErrorLogHandler(label: "smsgw", format: .journal)
        let line = handler.line(for: event(.info, "From\n<3>forged", ["smsgw.operator": "Evil Net\r\nsmsgw.modem=x"]))
        #expect(!line.contains("\n") && !line.contains("\r"))
        #expect(line == #"<6>From\n<3>forged smsgw.operator="Evil Net\r\nsmsgw.modem=x""#)
    }

    @Test func theJournalIsRecognisedByDeviceAndInodeNotByTheVariableAlone() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-journal-\(UUID().uuidString)").path
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        defer {
            close(descriptor)
            unlink(path)
        }
        var info = stat()
        #expect(fstat(descriptor, &info) == 0)
        #expect(StandardErrorLogHandler.isJournal(stream: "\(info.st_dev):\(info.st_ino)", descriptor: descriptor))
        #expect(!StandardErrorLogHandler.isJournal(stream: "\(info.st_dev):\(info.st_ino + 1)", descriptor: descriptor))
        #expect(!StandardErrorLogHandler.isJournal(stream: nil, descriptor: descriptor))
        #expect(!StandardErrorLogHandler.isJournal(stream: "garbage", descriptor: descriptor))
    }
}
