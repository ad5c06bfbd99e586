import ArgumentParser
import Foundation
import OTP
import Operations
import TerminalIO

extension OTPCommand {
    /// `smsgw otp add`: enrols a generator from a Base32 secret, an otpauth URI, or a new secret.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a generator from a secret or otpauth:// URI (asked for), or --generate.",
            discussion: """
                Without --secret, --uri or --generate the secret or URI is typed at a masked prompt (stdin in \
                scripts). --generate makes a random secret and prints its URI once (--qr draws it).
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The entry's name (1 to 64 characters, unique without regard to case).")
        var name: String

        @Option(help: ArgumentHelp("The shared secret in Base32 (case, spaces and padding ignored); better left out.", valueName: "base32"))
        var secret: String?

        @Option(help: ArgumentHelp("An otpauth:// URI carrying the secret and every parameter; better left out.", valueName: "uri"))
        var uri: String?

        @Flag(help: "Generate a random secret and print its otpauth:// URI once.")
        var generate = false

        @Option(help: ArgumentHelp("sha1, sha256 or sha512 (default sha1).", valueName: "name"))
        var algorithm: OTPAlgorithm?

        @Option(parsing: .unconditional, help: ArgumentHelp("Code length, 6 to 8 (default 6).", valueName: "n"))
        var digits: Int?

        @Option(
            parsing: .unconditional, help: ArgumentHelp("TOTP: seconds per code (default 30).", valueName: "seconds"),
            transform: OTPPeriod.parsing)
        var period: OTPPeriod?

        @Option(
            parsing: .unconditional, help: ArgumentHelp("HOTP: the counter of the first code (default 0).", valueName: "n"),
            transform: WholeNumber.zeroOrMore)
        var counter: UInt64?

        @Option(help: ArgumentHelp("The service name shown by authenticator apps.", valueName: "issuer"))
        var issuer: String?

        @Option(help: ArgumentHelp("The account name shown by authenticator apps (default NAME).", valueName: "account"))
        var account: String?

        @Flag(help: "Counter-based (HOTP) instead of time-based (TOTP).")
        var hotp = false

        @Flag(help: "With --generate, also draw the URI as a QR code.")
        var qr = false

        func validate() throws {
            let sources = [secret != nil, uri != nil, generate].filter { $0 }.count
            guard sources <= 1 else {
                throw ValidationError("Give at most one of --secret, --uri or --generate.")
            }
            if uri != nil, hasParameters {
                throw ValidationError(Self.uriParameters)
            }
            if let digits, !HOTP.allowedDigits.contains(digits) {
                throw ValidationError("--digits must be 6, 7 or 8.")
            }
            if hotp, period != nil {
                throw ValidationError("--period applies to TOTP; leave it out with --hotp.")
            }
            if !hotp, counter != nil {
                throw ValidationError("--counter applies to HOTP; add --hotp.")
            }
            if qr, !generate {
                throw ValidationError("--qr draws a generated secret's URI; use it with --generate, or run `smsgw otp uri NAME --qr`.")
            }
        }

        /// Whether any option an otpauth URI would carry itself was given.
        private var hasParameters: Bool {
            algorithm != nil || digits != nil || period != nil || counter != nil || issuer != nil || account != nil || hotp
        }

        /// Why a URI and parameters together are refused, in the options' words.
        static let uriParameters =
            "An otpauth URI carries its own parameters; leave out --algorithm, --digits, --period, --counter, --issuer, --account and --hotp."

        func run() throws {
            try OTPEntries.requireUserName(name)
            let store = try StoreAccess.unlock(global)
            var rng = SystemRandomNumberGenerator()
            let added = try OTPEntries.add(try request(), named: name, to: store, using: &rng)
            if generate {
                Output.line(added.uri.string)
                if qr { try QRDrawing.print(added.uri, invert: true) }
                Output.diagnostic(
                    "Added \"\(name)\"; the URI above holds the secret and is not shown again unless you run `smsgw otp uri \(Shell.quote(name))`."
                )
            } else {
                let timing = added.summary.period.map { "TOTP every \($0) s" } ?? "HOTP from counter \(added.summary.counter ?? 0)"
                Output.line("Added \"\(name)\" (\(timing), \(added.uri.algorithm), \(added.uri.digits) digits).")
            }
        }

        /// The enrolment the options ask for, the secret or URI read from its option, a masked
        /// prompt or stdin (never echoed).
        private func request() throws -> OTPEnrolmentRequest {
            let source: OTPEnrolmentRequest.Source
            if generate {
                source = .generated
            } else if let uri {
                source = .uri(try SecretInput.read(uri, what: "otpauth URI", prompt: "otpauth:// URI for \(name): "))
            } else if let secret {
                source = .base32(try SecretInput.read(secret, what: "secret", prompt: "Base32 secret for \(name): "))
            } else {
                source = .typed(try SecretInput.read(nil, what: "secret", prompt: "Base32 secret or otpauth:// URI for \(name): "))
            }
            let kind: OTPEnrolmentRequest.Kind? = hotp ? .hotp(counter: counter) : period.map { .totp(period: $0.seconds) }
            return OTPEnrolmentRequest(
                source: source, kind: kind, algorithm: algorithm, digits: digits,
                issuer: issuer, account: account)
        }
    }
}
