import Foundation
import Gateway
import TestSupport
import Testing

/// The `[backup]` table: read from the file and the environment, bad values refused naming the
/// key, and the directory made ready (or refused) when the daemon starts.
@Suite("The [backup] table")
struct BackupSettingsTests {
    @Test func offByDefaultAndReadFromTheFileAndTheEnvironment() throws {
        #expect(try GatewayConfiguration(toml: "").backup == BackupSettings())
        #expect(BackupSettings().directory == nil && BackupSettings().intervalSeconds == 86_400 && BackupSettings().keep == 7)
        let toml = "[backup]\ndirectory = \"/var/backups/smsgw\"\ninterval_seconds = 3600\nkeep = 24\n"
        let file = try GatewayConfiguration(toml: toml).backup
        #expect(file.directory?.path == "/var/backups/smsgw" && file.intervalSeconds == 3600 && file.keep == 24)
        let overridden = try GatewayConfiguration(
            toml: toml,
            environment: ["SMSGW_BACKUP_DIRECTORY": "/srv/copies", "SMSGW_BACKUP_INTERVAL_SECONDS": "60", "SMSGW_BACKUP_KEEP": "1000"]
        ).backup
        #expect(overridden.directory?.path == "/srv/copies" && overridden.intervalSeconds == 60 && overridden.keep == 1000)
        #expect(try GatewayConfiguration(toml: toml, environment: ["SMSGW_BACKUP_DIRECTORY": ""]).backup.directory == nil)
    }

    @Test func badValuesAreRefusedNamingTheKey() {
        let cases: [(toml: String, environment: [String: String], key: String, words: String)] = [
            ("[backup]\ndirectory = \"backups\"\n", [:], "backup.directory", "absolute path"),
            ("[backup]\ndirectory = 7\n", [:], "backup.directory", "string"),
            ("[backup]\ninterval_seconds = 59\n", [:], "backup.interval_seconds", "at least 60"),
            ("[backup]\nkeep = 0\n", [:], "backup.keep", "1 to 1000"),
            ("[backup]\nkeep = 1001\n", [:], "backup.keep", "1 to 1000"),
            ("[backup]\nfolder = \"/x\"\n", [:], "backup.folder", "Unknown key"),
            ("", ["SMSGW_BACKUP_KEEP": "many"], "SMSGW_BACKUP_KEEP", "whole number"),
            ("", ["SMSGW_BACKUP_INTERVAL_SECONDS": "30"], "SMSGW_BACKUP_INTERVAL_SECONDS", "at least 60"),
            ("", ["SMSGW_BACKUP_DIRECTORY": "relative/dir"], "SMSGW_BACKUP_DIRECTORY", "absolute path"),
            ("", ["SMSGW_BACKUP_DIR": "/x"], "SMSGW_BACKUP_DIR", "SMSGW_BACKUP_DIRECTORY"),
            (
                "[store]\nbackend = \"postgresql\"\nurl = \"postgresql://u@h/d\"\n[backup]\ndirectory = \"/var/backups/smsgw\"\n", [:],
                "backup.directory", "pg_dump"
            ),
        ]
        for bad in cases {
            let error = #expect(throws: ConfigurationError.self, "\(bad)") {
                try GatewayConfiguration(toml: bad.toml, environment: bad.environment)
            }
            #expect(error?.key == bad.key, "\(bad.key): \(error?.message ?? "")")
            #expect(error?.message.contains(bad.words) == true, "\(bad.key): \(error?.message ?? "")")
        }
    }

    @Test func theDirectoryIsMadePrivateOrRefusedWithASentence() throws {
        try withTemporaryDirectory { root in
            let data = root.appendingPathComponent("data")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: false)
            let fresh = root.appendingPathComponent("backups")
            #expect(try BackupSettings(directory: fresh).prepare(dataDirectory: data) == fresh)
            #expect(try FileManager.default.attributesOfItem(atPath: fresh.path)[.posixPermissions] as? Int == 0o700)
            #expect(try BackupSettings().prepare(dataDirectory: data) == nil)

            let link = root.appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: fresh)
            let aFile = root.appendingPathComponent("a-file")
            try Data().write(to: aFile)
            let viaLink = root.appendingPathComponent("data-link")
            try FileManager.default.createSymbolicLink(at: viaLink, withDestinationURL: data)
            let refusals: [(URL, String)] = [
                (link, "symbolic link"), (aFile, "not a directory"), (data, "inside the data directory"),
                (data.appendingPathComponent("backups"), "inside the data directory"),
                (viaLink.appendingPathComponent("copies"), "inside the data directory"),
                (root.appendingPathComponent("no-parent/backups"), "cannot create the backup directory"),
            ]
            for (directory, words) in refusals {
                let error = #expect(throws: ConfigurationError.self, "\(directory.path)") {
                    try BackupSettings(directory: directory).prepare(dataDirectory: data)
                }
                #expect(error?.key == "backup.directory")
                #expect(error?.message.contains(words) == true, "\(directory.path): \(error?.message ?? "")")
            }
        }
    }
}
