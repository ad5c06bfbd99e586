import Foundation
import TestSupport
import Testing

/// Shell completion: the scripts, and contacts' names completed from the store the command would
/// open, never asking for the passphrase.
@Suite("Shell completion", .blockingOffPool)
struct CompletionTests {
    @Test("Completion scripts for bash, zsh and fish; bash completes contact names without the passphrase")
    func completions() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            try alice.expect(["contact", "add", "bob"])
            try alice.expect(["contact", "add", "Zoë Smith"])
            for shell in ["bash", "zsh", "fish"] {
                let script = try SMSGWBinary.run(["--generate-completion-script", shell], environment: [:])
                #expect(script.status == 0 && script.stdout.contains("---completion"), "\(shell): \(script.stderr)")
            }
            let bash = try BashCompletion(in: root)
            let directory = alice.dataDir.path
            #expect(try bash.complete(["--data-dir", directory, "contact", "show", ""]) == ["bob", "Zoë Smith"])
            #expect(try bash.complete(["contact", "remove", "--data-dir", directory, "Z"]) == ["Zoë Smith"])
            #expect(try bash.complete(["--data-dir", directory, "log", "--contact", "b"]) == ["bob"])
            let nowhere = root.appendingPathComponent("nowhere")
            #expect(try bash.complete(["--data-dir", nowhere.path, "encrypt", ""]).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: nowhere.path), "completion created a data directory")
        }
    }

    @Test("On a PostgreSQL store, bash completes the contacts' names from the database [store] names")
    func namesFromPostgreSQL() throws {
        let cluster = try requirePostgres()
        try withTemporaryDirectory { root in
            let (_, store) = try cluster.storeEnvironment(in: root)
            let alice = try Peer.create("alice", in: root, storeEnvironment: store)
            try alice.expect(["contact", "add", "bob"])
            let bash = try BashCompletion(in: root)
            let directory = alice.dataDir.path
            #expect(try bash.complete(["--data-dir", directory, "send", "b"], environment: store) == ["bob"])
            // Its data directory holds no SQLite store: without [store], no names.
            #expect(try bash.complete(["--data-dir", directory, "send", "b"]).isEmpty)
            var unreachable = store
            unreachable["SMSGW_STORE_URL"] = "postgresql://smsgw@127.0.0.1:1/none"
            #expect(try bash.complete(["--data-dir", directory, "send", "b"], environment: unreachable).isEmpty)
        }
    }
}

/// bash's completion of an smsgw command line, as a person pressing Tab: the script the binary
/// prints, sourced into a bash with no passphrase anywhere and no terminal.
struct BashCompletion {
    let binary: String
    let script: URL
    let home: URL

    init(in root: URL) throws {
        binary = try SMSGWBinary.require().path
        script = root.appendingPathComponent("smsgw.bash")
        home = root
        try Data(try SMSGWBinary.run(["--generate-completion-script", "bash"], environment: [:]).stdout.utf8).write(to: script)
    }

    /// What bash offers after `words` (the last one being completed), with `environment` added.
    func complete(_ words: [String], environment: [String: String] = [:]) throws -> [String] {
        let quoted = ([binary] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let program = """
            source '\(script.path)'
            COMP_WORDS=(\(quoted.joined(separator: " ")))
            COMP_CWORD=\(words.count)
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            _smsgw "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"  # as bash calls it
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", program]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": home.path].merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        _ = process.waitForExit()
        return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }
}
