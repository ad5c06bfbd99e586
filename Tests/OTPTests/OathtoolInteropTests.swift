import ExternalTool
import Foundation
import OTP
import SplitMix
import Testing

/// Interoperability with a real peer: GNU `oathtool` from the OATH Toolkit.
///
/// Random secrets, times, periods, start times and counters (the seed is printed) are given to
/// both implementations and the codes compared. `oathtool` must be installed (Debian package
/// `oathtool`); if it is missing the tests fail and say so rather than pass silently.
@Suite("oathtool interoperability")
struct OathtoolInteropTests {
    static let oathtool = ExternalTool("oathtool", override: "OATHTOOL")

    /// Runs `oathtool` and returns its output lines, or records why it failed.
    static func run(_ arguments: [String]) throws -> [String] {
        let path = try #require(
            oathtool.path,
            "oathtool is not installed, so the interoperability tests cannot run: install it with `apt-get install oathtool` (or set OATHTOOL to its path)"
        )
        let result = try ExternalTool.run(path, arguments)
        try #require(result.status == 0, "oathtool \(arguments.dropLast().joined(separator: " ")) failed: \(result.errors)")
        return result.lines
    }

    /// A random secret of 10 to 64 bytes.
    static func randomSecret(_ random: inout SplitMix64) throws -> OTPSecret {
        try OTPSecret(bytes: (0..<Int.random(in: 10...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    @Test("TOTP with SHA-1, SHA-256 and SHA-512 matches oathtool for 20 random secrets and times")
    func totp() throws {
        var random = SplitMix64.replayable("oathtool TOTP")
        let window = 2
        for _ in 0..<20 {
            let secret = try Self.randomSecret(&random)
            let digits = Int.random(in: 6...8, using: &random)
            let period = [1, 30, 30, 60, Int64.random(in: 1...3_600, using: &random)].randomElement(using: &random)!
            let startTime = Bool.random(using: &random) ? 0 : Int64.random(in: 0...1_000_000_000, using: &random)
            let time = Int64.random(in: startTime...20_000_000_000, using: &random)
            for algorithm in OTPAlgorithm.allCases {
                let totp = try TOTP(secret: secret, algorithm: algorithm, digits: digits, period: period, startTime: startTime)
                let theirs = try Self.run([
                    "--totp=\(algorithm.name)", "--base32", "--digits=\(digits)",
                    "--time-step-size=\(period)", "--start-time=@\(startTime)", "--now=@\(time)",
                    "--window=\(window)", secret.base32,
                ])
                let step = try totp.step(at: time)
                let ours = (0...UInt64(window)).map { totp.code(step: step + $0) }
                #expect(ours == theirs, "\(algorithm) \(digits) digits, period \(period), T0 \(startTime), time \(time)")
            }
        }
    }

    @Test("HOTP matches oathtool for 20 random secrets and 64-bit counters")
    func hotp() throws {
        var random = SplitMix64.replayable("oathtool HOTP")
        let window = 2
        for _ in 0..<20 {
            let secret = try Self.randomSecret(&random)
            let digits = Int.random(in: 6...8, using: &random)
            let counter =
                Bool.random(using: &random)
                ? UInt64.random(in: 0...1_000_000, using: &random)
                : UInt64.random(in: 0...(UInt64.max - UInt64(window)), using: &random)
            // oathtool's HOTP mode is SHA-1 only, as RFC 4226 defines it.
            let hotp = try HOTP(secret: secret, digits: digits)
            let theirs = try Self.run([
                "--hotp", "--base32", "--digits=\(digits)", "--counter=\(counter)", "--window=\(window)", secret.base32,
            ])
            let ours = (0...UInt64(window)).map { hotp.code(counter: counter + $0) }
            #expect(ours == theirs, "\(digits) digits, counter \(counter)")
        }
    }

    @Test("The RFC 6238 vectors agree with oathtool too", arguments: TOTPTests.appendixB)
    func rfcVectors(_ vector: TOTPTests.Vector) throws {
        let secret = TOTPTests.seed(for: vector.algorithm)
        let theirs = try Self.run([
            "--totp=\(vector.algorithm.name)", "--base32", "--digits=8", "--now=@\(vector.time)", secret.base32,
        ])
        #expect(theirs == [vector.code])
    }
}
