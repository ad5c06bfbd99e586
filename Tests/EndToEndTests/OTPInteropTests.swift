import ExternalTool
import Foundation
import SplitMix
import TestSupport
import Testing

/// `smsgw otp` as a user runs it, checked against a real peer: GNU `oathtool`.
///
/// Random secrets, digit counts, periods and times (the seed is printed; set `SMSGW_TEST_SEED` to
/// replay) are enrolled with `smsgw otp add` and the codes of `smsgw otp code` compared with
/// `oathtool`'s. `oathtool` must be installed (Debian package `oathtool`); without it the tests
/// fail and say so.
@Suite("smsgw otp against oathtool", .serialized, .blockingOffPool)
struct OTPInteropTests {
    @Test("TOTP codes match oathtool for SHA-1, SHA-256 and SHA-512", arguments: ["sha1", "sha256", "sha512"])
    func totpMatchesOathtool(algorithm: String) throws {
        var rng = SplitMix64.replayable("otp totp \(algorithm)")
        try withTemporaryDirectory { root in
            let peer = try Peer.create("otp", in: root)
            for index in 0..<2 {
                let secret = Self.randomSecret(using: &rng)
                let digits = Int.random(in: 6...8, using: &rng)
                let period = index == 0 ? 30 : Int.random(in: 5...120, using: &rng)
                let name = "totp-\(algorithm)-\(index)"
                try peer.expect([
                    "otp", "add", name, "--secret", Self.base32(secret), "--algorithm", algorithm,
                    "--digits", "\(digits)", "--period", "\(period)",
                ])
                for _ in 0..<3 {
                    let time = Int64.random(in: 0...4_102_444_800, using: &rng)
                    let ours = try peer.expect(["otp", "code", name, "--at", "\(time)"]).lines
                    let theirs = try Self.oathtool([
                        "--totp=\(algorithm.uppercased())", "--digits=\(digits)", "--time-step-size=\(period)s",
                        "--now=@\(time)", Self.hex(secret),
                    ])
                    #expect(ours == theirs, "\(algorithm) digits \(digits) period \(period) time \(time)")
                }
                // Now, stderr says how long the code stays valid, as `vault code` does.
                let now = try peer.expect(["otp", "code", name])
                let seconds = try #require(Int(now.stderr.replacingOccurrences(of: #"\D"#, with: "", options: .regularExpression)))
                #expect(now.stderr.hasSuffix(" more seconds.\n") && (1...period).contains(seconds), "\(now.stderr)")
            }
        }
    }

    @Test("HOTP codes match oathtool, and each `otp code` moves the counter on")
    func hotpMatchesOathtool() throws {
        var rng = SplitMix64.replayable("otp hotp")
        try withTemporaryDirectory { root in
            let peer = try Peer.create("otp", in: root)
            for index in 0..<2 {
                let secret = Self.randomSecret(using: &rng)
                let digits = Int.random(in: 6...8, using: &rng)
                let counter = UInt64.random(in: 0...1_000_000, using: &rng)
                let name = "hotp-\(index)"
                try peer.expect([
                    "otp", "add", name, "--secret", Self.base32(secret), "--hotp", "--counter", "\(counter)",
                    "--digits", "\(digits)",
                ])
                for step in 0..<3 {
                    let code = try peer.expect(["otp", "code", name])
                    #expect(code.stderr.isEmpty, "an HOTP code stays valid until used: \(code.stderr)")
                    let ours = code.lines
                    let theirs = try Self.oathtool([
                        "--hotp", "--digits=\(digits)", "--counter=\(counter + UInt64(step))", Self.hex(secret),
                    ])
                    #expect(ours == theirs, "digits \(digits) counter \(counter + UInt64(step))")
                }
            }
        }
    }

    @Test("`otp verify` accepts a code once, rejects its replay and a wrong code, then throttles")
    func verifyRejectsReplay() throws {
        var rng = SplitMix64.replayable("otp verify")
        try withTemporaryDirectory { root in
            let peer = try Peer.create("otp", in: root)
            let secret = Self.randomSecret(using: &rng)
            try peer.expect(["otp", "add", "login", "--secret", Self.base32(secret)])
            let time = Int64.random(in: 1_000_000_000...4_000_000_000, using: &rng)
            let code = try #require(try peer.expect(["otp", "code", "login", "--at", "\(time)"]).lines.first)
            #expect(try Self.oathtool(["--totp", "--now=@\(time)", Self.hex(secret)]) == [code])

            // The code comes on stdin, as the README shows: no warning.
            let accepted = try peer.expect(["otp", "verify", "login", "--at", "\(time)"], input: code + "\n")
            #expect(accepted.lines == ["Accepted."] && accepted.stderr.isEmpty, "\(accepted.stderr)")
            let replay = try peer.run(["otp", "verify", "login", "-", "--at", "\(time + 1)"], input: code + "\n")
            #expect(replay.status == 65)
            #expect(replay.stderr.contains("already used"))
            let nothing = try peer.run(["otp", "verify", "login", "--at", "\(time + 1)"])
            #expect(nothing.status == 64 && nothing.stderr.contains("No code was given"), "\(nothing.stderr)")

            // The next step's code, one step later: fresh, so accepted; on argv it works, with a warning.
            let next = try #require(try Self.oathtool(["--totp", "--now=@\(time + 30)", Self.hex(secret)]).first)
            let argument = try peer.expect(["otp", "verify", "login", next, "--at", "\(time + 30)"])
            #expect(argument.stderr.contains("warning: the code was given on the command line"), "\(argument.stderr)")

            // Wrong codes: 65 until the policy's free failures are spent, then 77 with a time.
            let wrong = String(format: "%06d", (Int(next)! + 1) % 1_000_000)
            var statuses: [Int32] = []
            var last = RunResult(status: 0, stdout: "", stderr: "")
            for _ in 0..<4 {
                last = try peer.run(["otp", "verify", "login", wrong, "--at", "\(time + 31)"])
                statuses.append(last.status)
            }
            #expect(statuses == [65, 65, 65, 77])
            #expect(last.stderr.contains("try again after"))
        }
    }

    @Test("`otp list` never shows the secret, and `otp uri` round-trips through `otp add --uri`")
    func listAndURI() throws {
        try withTemporaryDirectory { root in
            let peer = try Peer.create("otp", in: root)
            let generated = try peer.expect(["otp", "add", "first", "--generate", "--issuer", "ACME", "--algorithm", "sha256"])
            let uri = try #require(generated.lines.first)
            #expect(uri.hasPrefix("otpauth://totp/ACME:first?secret="))
            let secret = try #require(uri.split(separator: "secret=").last?.split(separator: "&").first)

            let list = try peer.expect(["otp", "list", "--json"])
            #expect(list.stdout.contains("\"first\""))
            #expect(!list.stdout.contains(String(secret)))

            #expect(try peer.expect(["otp", "uri", "first"]).lines == [uri])
            try peer.expect(["otp", "add", "copy", "--uri", uri])
            let time = "1700000000"
            #expect(
                try peer.expect(["otp", "code", "first", "--at", time]).lines == peer.expect(["otp", "code", "copy", "--at", time]).lines)

            let qr = try peer.expect(["otp", "uri", "first", "--qr"])
            #expect(qr.lines.last == uri)
            #expect(qr.lines.count > 10)

            try peer.expect(["otp", "remove", "copy"])
            #expect(try peer.run(["otp", "code", "copy"]).status == 66)
        }
    }

    // MARK: - Helpers

    static func randomSecret(using rng: inout SplitMix64) -> [UInt8] {
        (0..<Int.random(in: 16...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// RFC 4648 Base32 without padding, as `smsgw otp add --secret` reads it.
    static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var text = ""
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                text.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { text.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return text
    }

    /// Runs `oathtool` and returns its output lines.
    static func oathtool(_ arguments: [String]) throws -> [String] {
        let path = try #require(
            ExternalTool("oathtool", override: "OATHTOOL").path,
            "oathtool is not installed, so the OTP interoperability tests cannot run: install it with `apt-get install oathtool` (or set OATHTOOL to its path)"
        )
        let result = try ExternalTool.run(path, arguments)
        try #require(result.status == 0, "oathtool \(arguments.dropLast().joined(separator: " ")) failed: \(result.errors)")
        return result.lines
    }
}
