import Foundation
import Glibc

/// Whether a descriptor is the stream systemd connected to journald, whose lines start with their
/// syslog priority (`<4>` for a warning) so that `journalctl -p` filters them.
public enum JournalStream {
    /// Whether stderr is journald's: `JOURNAL_STREAM` ("DEV:INODE") matches stderr's device and
    /// inode. A child whose stderr was redirected elsewhere inherits the variable, which is why
    /// the numbers are compared, as sd_journal_stream_fd(3) advises.
    public static let isStandardError = matches(ProcessInfo.processInfo.environment["JOURNAL_STREAM"], descriptor: 2)

    /// Whether `descriptor` is the stream a `JOURNAL_STREAM` value ("DEV:INODE") names.
    public static func matches(_ value: String?, descriptor: Int32) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }
}
