import Foundation
import TestSupport
import Testing

/// `smsgw vault` as a user runs it: passwords piped in, masked in `show`, given to a command in
/// its environment or stdin, copied to a clipboard (a stand-in `xclip` on PATH) and cleared.
@Suite("smsgw vault", .blockingOffPool)
struct VaultCommandTests {
    @Test("add, list, show (masked and revealed), edit, exec and remove, with exit codes")
    func itemsFromTheCommandLine() throws {
        try withTemporaryDirectory { root in
            let peer = try Peer.create("vault", in: root)
            try peer.expect(
                ["vault", "add", "Mail", "--username", "me@example.org", "--password-stdin", "--notes-stdin"],
                input: "s3cret-Passphrase!\nfirst note\nsecond note\n")
            let generated = try peer.expect(["vault", "add", "Bank", "--generate", "--words", "8"])
            // Eight words joined by "-"; four words of the EFF list hold a hyphen themselves (t-shirt).
            let parts = generated.lines.first?.split(separator: "-") ?? []
            #expect(generated.lines.count == 1 && (8...12).contains(parts.count) && parts.allSatisfy { $0.allSatisfy(\.isLowercase) })
            #expect(generated.stderr.contains("103.4 bits") && generated.stderr.contains("EFF large word list"))
            // `edit --generate` says it too, and `show` gives the same figure, rounded the same way.
            let regenerated = try peer.expect(["vault", "edit", "Bank", "--generate"])
            #expect(
                regenerated.stderr.contains("a generated password of 130.9 bits (lower, upper, digits, symbols"), "\(regenerated.stderr)")
            #expect(try peer.expect(["vault", "show", "Bank"]).stdout.contains("strong, 130.9 bits (generated)"))

            #expect(try peer.expect(["vault", "list"]).lines.map { $0.split(separator: "\t").first.map(String.init) } == ["Bank", "Mail"])
            let masked = try peer.expect(["vault", "show", "mail"]).stdout
            #expect(!masked.contains("s3cret") && masked.contains("first note"))
            let revealed = try peer.expect(["vault", "show", "MAIL", "--reveal", "--json"]).stdout
            let object = try JSONSerialization.jsonObject(with: Data(revealed.utf8)) as? [String: Any]
            #expect(object?["password"] as? String == "s3cret-Passphrase!")

            let environment = try peer.run([
                "vault", "exec", "mail", "--", "sh", "-c", "printf '%s|%s' \"$SMSGW_VAULT_USERNAME\" \"$SMSGW_VAULT_PASSWORD\"; exit 3",
            ])
            #expect(environment.stdout == "me@example.org|s3cret-Passphrase!" && environment.status == 3)
            let leaked = try peer.run(["vault", "exec", "mail", "--", "sh", "-c", "printf '%s' \"${SMSGW_PASSPHRASE-unset}\""])
            #expect(leaked.stdout == "unset", "the account passphrase reached the command")
            // The database password (a PostgreSQL store's) is no business of the command either.
            let database = try peer.run(
                ["vault", "exec", "mail", "--", "sh", "-c", "printf '%s' \"${SMSGW_STORE_PASSWORD-unset}\""],
                environment: ["SMSGW_STORE_PASSWORD": "database-secret"])
            #expect(database.stdout == "unset", "the database password reached the command")
            let stdin = try peer.run(["vault", "exec", "mail", "--stdin", "--", "cat"])
            #expect(stdin.stdout == "s3cret-Passphrase!\n" && stdin.status == 0)
            // A command that cannot be started is 69 with smsgw's sentence, and is not logged as run.
            for missing in ["no-such-command-smsgw", "/nonexistent/tool", root.path] {
                let unstarted = try peer.run(["vault", "exec", "mail", "--", missing])
                #expect(unstarted.status == 69 && unstarted.stderr.hasPrefix("smsgw: The command "), "\(missing): \(unstarted)")
            }
            #expect(!(try peer.expect(["vault", "log", "--json"]).stdout.contains("no-such-command")))

            let reused = try peer.expect(["vault", "edit", "bank", "--password-stdin"], input: "s3cret-Passphrase!\n")
            #expect(reused.stderr.contains("the same password is used by Mail"))
            let audit = try peer.expect(["vault", "audit"])
            #expect(audit.lines.count == 2 && audit.lines.allSatisfy { $0.contains("\treused\t") })
            #expect(try peer.run(["vault", "add", "mail", "--password-stdin"], input: "x\n").status == 65)
            let nothing = try peer.run(["vault", "show", "nothing"])
            #expect(nothing.status == 66 && nothing.stderr.contains("`smsgw vault list`"), "\(nothing.stderr)")
            #expect(try peer.run(["vault", "add", "empty", "--password-stdin"], input: "").status == 64)
            // Secrets are not deleted by a slip: without a terminal to confirm on, --yes is needed.
            let unconfirmed = try peer.run(["vault", "remove", "bank"])
            #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("--yes"), "\(unconfirmed.stderr)")
            #expect(try peer.run(["vault", "remove", "nothing", "--yes"]).status == 66)
            try peer.expect(["vault", "remove", "bank", "--yes"])
            let log = try peer.expect(["vault", "log", "--json"]).stdout
            #expect(log.contains("\"revealed\"") && log.contains("\"executed\"") && log.contains("\"removed\""))
        }
    }

    @Test("copy puts the password on the clipboard and clears it; without a clipboard it fails with 69")
    func copyAndClear() async throws {
        try await withTemporaryDirectory { root in
            let peer = try Peer.create("vault", in: root)
            try peer.expect(["vault", "add", "site", "--password-stdin"], input: "clip-Secret-42\n")
            // A stand-in xclip: -in stores stdin (or the named file), -out prints what is stored.
            let bin = root.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let store = root.appendingPathComponent("clipboard").path
            let script = """
                #!/bin/sh
                case "$*" in
                *-out*) cat '\(store)' ;;
                *-in\\ /dev/null*) : > '\(store)' ;;
                *) cat > '\(store)' ;;
                esac
                """
            let xclip = bin.appendingPathComponent("xclip")
            try script.write(to: xclip, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: xclip.path)
            let path = "\(bin.path):/usr/bin:/bin"

            let none = try SMSGWBinary.run(
                ["vault", "copy", "site"], environment: peer.environment.merging(["PATH": path]) { $1 },
                removing: ["DISPLAY", "WAYLAND_DISPLAY"])
            #expect(none.status == 69 && none.stderr.contains("No clipboard"))

            let copied = try SMSGWBinary.run(
                ["vault", "copy", "site", "--clear-after", "1"],
                environment: peer.environment.merging(["PATH": path, "DISPLAY": ":99"]) { $1 },
                removing: ["WAYLAND_DISPLAY"])
            #expect(copied.status == 0, "\(copied.stderr)")
            #expect(!copied.stdout.contains("clip-Secret-42"))
            #expect(try String(contentsOfFile: store, encoding: .utf8) == "clip-Secret-42")
            let cleared = await eventually(timeout: .seconds(20)) { (try? String(contentsOfFile: store, encoding: .utf8)) == "" }
            #expect(cleared, "the clipboard still holds the password")
        }
    }

    @Test("import counts and skips, a second import adds nothing; export needs --plaintext and a confirmation, writes 0600")
    func importAndExport() throws {
        try withTemporaryDirectory { root in
            let peer = try Peer.create("vault", in: root)
            let file = root.appendingPathComponent("bitwarden.json")
            let json = #"""
                {"encrypted": false, "folders": [], "items": [
                  {"type": 1, "name": "Ünïcödé site", "notes": null,
                   "login": {"uris": [{"match": null, "uri": "https://example.org"}], "username": "", "password": "imp0rted-Pass"}},
                  {"type": 2, "name": "note", "notes": "text", "secureNote": {"type": 0}}]}
                """#
            try json.write(to: file, atomically: true, encoding: .utf8)
            let first = try peer.expect(["vault", "import", "--format", "bitwarden-json", file.path])
            #expect(first.lines.first == "Imported 1 item, skipped 1.")
            let second = try peer.expect(["vault", "import", "--format", "bitwarden-json", file.path, "--json"])
            #expect(second.stdout.contains(#""imported":0"#) && second.stdout.contains("already in the vault"))

            let out = root.appendingPathComponent("out.json").path
            #expect(try peer.run(["vault", "export", "--format", "bitwarden-json", out]).status == 64)
            #expect(try peer.run(["vault", "export", "--format", "bitwarden-json", out, "--plaintext"]).status == 64)
            #expect(!FileManager.default.fileExists(atPath: out))
            try peer.expect(["vault", "export", "--format", "bitwarden-json", out, "--plaintext", "--yes"])
            #expect(try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int == 0o600)
            #expect(try String(contentsOfFile: out, encoding: .utf8).contains("imp0rted-Pass"))
            #expect(try peer.run(["vault", "export", "--format", "keepassxc-csv", out, "--plaintext", "--yes"]).status == 65)
        }
    }

    @Test("generate needs no account or passphrase and reports the entropy of its choices")
    func generateWithoutAccount() throws {
        try withTemporaryDirectory { root in
            let environment = ["SMSGW_DATA_DIR": root.appendingPathComponent("none").path]
            let characters = try SMSGWBinary.run(
                ["vault", "generate", "--length", "12", "--classes", "lower,digits", "--count", "3"], environment: environment,
                removing: ["SMSGW_PASSPHRASE", "SMSGW_PASSPHRASE_FILE"])
            #expect(characters.status == 0 && characters.lines.count == 3)
            #expect(characters.lines.allSatisfy { $0.count == 12 && $0.contains(where: \.isNumber) && $0.contains(where: \.isLowercase) })
            #expect(characters.stderr.contains("bits of entropy each, from lower, digits (36 characters)"))
            let json = try SMSGWBinary.run(["vault", "generate", "--words", "10", "--json"], environment: environment)
            #expect(json.stdout.contains(#""bits":129.2"#) && json.stdout.contains("EFF large word list"))
            #expect(
                !FileManager.default.fileExists(atPath: root.appendingPathComponent("none").path), "generate touched the data directory")
            #expect(try SMSGWBinary.run(["vault", "generate", "--length", "3"], environment: environment).status == 65)
        }
    }

    @Test("share and revoke say what follows, quoting the names in the commands they show; so does otp add --generate")
    func shareNamesTheNextStep() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+15550002"])
            try alice.expect(["vault", "add", "my mail", "--password-stdin"], input: "share-Me-9876\n")
            let off = try alice.expect(["vault", "share", "my mail", "bob", "--permission", "use"]).stdout
            #expect(off.contains("Acknowledgements are off for bob") && off.contains("`smsgw contact edit bob --acks on`"), "\(off)")
            try alice.expect(["contact", "edit", "bob", "--acks", "on"])
            try alice.expect(["vault", "add", "bank", "--password-stdin"], input: "share-Me-5432\n")
            let on = try alice.expect(["vault", "share", "bank", "bob", "--permission", "use"]).stdout
            #expect(on.contains("`smsgw vault shares bank` shows when it is acknowledged"), "\(on)")
            // A title with a space is quoted, so the command shown runs as printed.
            try alice.expect(["vault", "add", "my bank", "--password-stdin"], input: "share-Me-1098\n")
            let spaced = try alice.expect(["vault", "share", "my bank", "bob", "--permission", "use"]).stdout
            #expect(spaced.contains("`smsgw vault shares 'my bank'`"), "\(spaced)")
            let revoked = try alice.expect(["vault", "revoke", "my bank", "bob"]).stdout
            #expect(revoked.contains("bob's copy will be deleted when bob's gateway receives it"), "\(revoked)")
            #expect(revoked.contains("`smsgw vault rotate 'my bank'`"), "\(revoked)")
            // Pasted by hand at bob's, the share is kept; `log show` calls what was done a note, not an error.
            let shares = try alice.expect(["log", "--json"]).lines.compactMap { line -> String? in
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return (object?["text"] as? String)?.hasPrefix("Vault: \"my mail\"") == true ? object?["ciphertext"] as? String : nil
            }
            #expect(try bob.decrypt(shares, from: alice).status == 0)
            let kept = try bob.expect(["log", "show", "1"]).lines
            #expect(kept.last?.hasPrefix("  note: A vault item shared by alice") == true, "\(kept)")
            let again = try alice.run(["vault", "revoke", "my bank", "bob"])
            #expect(again.status == 65 && again.stderr.contains("`smsgw vault shares 'my bank'` lists its holders"), "\(again.stderr)")
            let otp = try alice.expect(["otp", "add", "my site", "--generate"]).stderr
            #expect(otp.contains("`smsgw otp uri 'my site'`"), "\(otp)")
        }
    }
}
