import Foundation
import Operations
import TestSupport
import Testing

/// The rules of the daemon's automatic backups that need no daemon: their names, which files are
/// theirs, and when the next falls due.
@Suite("Automatic backups: names and due times")
struct AutomaticBackupsTests {
    @Test func namesAreUTCAndOnlyExactNamesAreBackups() throws {
        let date = Date(timeIntervalSince1970: 1_795_570_496)  // 2026-11-25 01:34:56 UTC
        #expect(AutomaticBackups.fileName(at: date) == "smsgw-20261125-013456.sqlite")
        #expect(AutomaticBackups.date(ofFileName: "smsgw-20261125-013456.sqlite") == date)
        for name in [
            "smsgw-20261125-013456.sqlite.gz", "xsmsgw-20261125-013456.sqlite", "smsgw-2026112-0134567.sqlite",
            "smsgw-20261325-013456.sqlite", "smsgw-20261125-253456.sqlite", "smsgw-20261125_013456.sqlite", "smsgw-2026112a-013456.sqlite",
            ".smsgw-20261125-013456.sqlite.partial-1a2b3c4d", "notes.txt",
        ] {
            #expect(AutomaticBackups.date(ofFileName: name) == nil, "\(name)")
        }
    }

    @Test func theFirstIsDueAtOnceUnlessTheNewestIsYoungerThanTheInterval() throws {
        try withTemporaryDirectory { root in
            let now = Date(timeIntervalSince1970: 1_795_570_496)
            #expect(AutomaticBackups.firstDue(in: root, interval: 3600, now: now) == now)
            let old = now.addingTimeInterval(-7200)
            try Data().write(to: root.appendingPathComponent(AutomaticBackups.fileName(at: old)))
            #expect(AutomaticBackups.firstDue(in: root, interval: 3600, now: now) == old.addingTimeInterval(3600))
            let recent = now.addingTimeInterval(-600)
            try Data().write(to: root.appendingPathComponent(AutomaticBackups.fileName(at: recent)))
            #expect(AutomaticBackups.firstDue(in: root, interval: 3600, now: now) == recent.addingTimeInterval(3600))
            // A name from the future (the clock went back): due an interval from now at the latest.
            try Data().write(to: root.appendingPathComponent(AutomaticBackups.fileName(at: now.addingTimeInterval(86_400))))
            #expect(AutomaticBackups.firstDue(in: root, interval: 3600, now: now) == now.addingTimeInterval(3600))
            #expect(try AutomaticBackups.existing(in: root).count == 3)
        }
    }

    @Test func aFailureIsRetriedAtTheNextDueTimeOrWithinAnHour() {
        let now = Date(timeIntervalSince1970: 1_795_570_496)
        #expect(AutomaticBackups.retry(due: now, interval: 86_400, now: now) == now.addingTimeInterval(3600))
        #expect(AutomaticBackups.retry(due: now, interval: 600, now: now.addingTimeInterval(5)) == now.addingTimeInterval(600))
        #expect(AutomaticBackups.retry(due: now, interval: 60, now: now.addingTimeInterval(90)) == now.addingTimeInterval(90))
    }

    @Test func withNoDaemonTheDirectorySaysTheNewestHowManyAndWhetherItIsOverdue() throws {
        try withTemporaryDirectory { root in
            let now = Date(timeIntervalSince1970: 1_795_570_496)
            let empty = AutomaticBackups.status(directory: root, intervalSeconds: 3600, keep: 5, now: now)
            #expect(empty == GatewayStatus.BackupStatus(directory: root.path, intervalSeconds: 3600, keep: 5, count: 0))
            for age in [9000.0, 8000] {
                try Data().write(to: root.appendingPathComponent(AutomaticBackups.fileName(at: now.addingTimeInterval(-age))))
            }
            try Data().write(to: root.appendingPathComponent("notes.txt"))
            let status = AutomaticBackups.status(directory: root, intervalSeconds: 3600, keep: 5, now: now)
            let newest = root.appendingPathComponent(AutomaticBackups.fileName(at: now.addingTimeInterval(-8000)))
            #expect(status.count == 2 && status.lastFile == newest.path && status.lastSuccessAt == now.addingTimeInterval(-8000))
            #expect(status.overdue && status.nextDueAt == nil && status.lastAttemptAt == nil && status.lastError == nil)
            #expect(!AutomaticBackups.status(directory: root, intervalSeconds: 4000, keep: 5, now: now).overdue)
            let gone = AutomaticBackups.status(directory: root.appendingPathComponent("gone"), intervalSeconds: 3600, keep: 5, now: now)
            #expect(gone.count == nil && gone.lastFile == nil && !gone.overdue)
        }
    }
}
