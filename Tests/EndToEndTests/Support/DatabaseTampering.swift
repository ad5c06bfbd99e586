import Foundation
import GRDB

/// Changes a copy of a data directory's database the way someone holding the file could,
/// with nothing but SQL, to check that smsgw refuses the result.
enum DatabaseTampering {
    /// Switches two-factor login off in the file, wherever this or an earlier smsgw keeps it:
    /// the `smsgw-login` OTP entry and, when the columns exist, the account row.
    static func clearTwoFactor(in dataDir: URL) throws {
        let queue = try DatabaseQueue(path: dataDir.appendingPathComponent("smsgw.sqlite").path)
        try queue.write { db in
            try db.execute(sql: "DELETE FROM otp_entries WHERE lower(name) = 'smsgw-login'")
            let columns = try db.columns(in: "account").map(\.name)
            if columns.contains("two_factor") {
                try db.execute(sql: "UPDATE account SET two_factor = 0, two_factor_secret = NULL, two_factor_state = NULL")
            }
        }
    }
}
