import ArgumentParser
import Foundation
import OTP
import Store

/// `smsgw otp`: one-time passcode generators (HOTP and TOTP), kept encrypted in the store.
struct OTPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "otp",
        abstract: "Keep HOTP and TOTP generators: enrol, show codes, verify codes.",
        discussion: """
            Secrets and parameters are encrypted in the store; no command prints a secret except \
            `otp add --generate` (the enrolment URI, once) and `otp uri`. `otp verify` accepts a \
            TOTP code one step either side of now (an HOTP code up to 10 counters ahead), refuses a \
            code already used, and after repeated failures refuses attempts for a while; all of it \
            is saved in the same transaction as the check. Exit status of `otp verify`: 0 accepted, \
            65 wrong or already used, 77 too many failures (the message says when to retry).
            """,
        subcommands: [Add.self, List.self, Code.self, Verify.self, URI.self, Remove.self]
    )
}

// MARK: - Stored form

/// What `otp` keeps in an entry's encrypted `secret` blob: the key and every parameter, as JSON.
///
/// For HOTP, ``counter`` is the counter of the next code `otp code` prints; the verifier's own
/// counter lives in the entry's state (``OTPVerificationState``), so that verifying a code does
/// not move the generator and generating one does not make it a replay.
struct OTPEnrolment: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        case totp, hotp
    }

    /// The key, base64 in the JSON.
    var secret: Data
    var kind: Kind
    var algorithm: OTPAlgorithm
    var digits: Int
    /// TOTP: seconds per step.
    var period: Int64?
    /// HOTP: the counter of the next code to generate.
    var counter: UInt64?
    var issuer: String?
    var account: String

    /// The parameters of an `otpauth://` URI.
    init(uri: OTPAuthURI) {
        secret = Data(uri.secret.bytes)
        algorithm = uri.algorithm
        digits = uri.digits
        issuer = uri.issuer
        account = uri.account
        switch uri.kind {
        case .totp(let period):
            kind = .totp
            self.period = period
        case .hotp(let counter):
            kind = .hotp
            self.counter = counter
        }
    }

    init(decoding data: Data, name: String) throws {
        do {
            self = try JSONDecoder().decode(OTPEnrolment.self, from: data)
        } catch {
            throw StoreError.corrupted(
                "The OTP entry \"\(name)\" cannot be read; remove it with `smsgw otp remove \(name)` and add it again.")
        }
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// The enrolment URI, which validates every parameter on the way.
    func uri() throws -> OTPAuthURI {
        try OTPFailure.mapping {
            let key = try OTPSecret(bytes: secret)
            let uriKind: OTPAuthURI.Kind = switch kind {
            case .totp: .totp(period: period ?? TOTP.defaultPeriod)
            case .hotp: .hotp(counter: counter ?? 0)
            }
            return try OTPAuthURI(
                kind: uriKind, secret: key, issuer: issuer, account: account, algorithm: algorithm, digits: digits)
        }
    }

    /// The verifier: ±1 TOTP step, or 10 HOTP counters of look-ahead (RFC 4226 §7.4).
    func verifier() throws -> OTPVerifier {
        let uri = try uri()
        if let totp = uri.totp { return OTPVerifier(totp: totp, window: 1) }
        return OTPVerifier(hotp: uri.hotp)
    }

    /// The verification state of a new enrolment.
    var initialState: OTPVerificationState {
        switch kind {
        case .totp: .newTOTP
        case .hotp: .newHOTP(counter: counter ?? 0)
        }
    }

    static func decodeState(_ data: Data?, name: String, initial: OTPVerificationState) throws -> OTPVerificationState {
        guard let data else { return initial }
        do {
            return try JSONDecoder().decode(OTPVerificationState.self, from: data)
        } catch {
            throw StoreError.corrupted(
                "The verification state of \"\(name)\" cannot be read; remove the entry with `smsgw otp remove \(name)` and add it again.")
        }
    }

    static func encodeState(_ state: OTPVerificationState) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(state)
    }
}

/// Turns ``OTPError``, which ErrorReport does not know, into a ``CLIError`` with status 65.
enum OTPFailure {
    /// The name, unless it is (in any spelling the store takes for it) the reserved login name,
    /// which only `smsgw account 2fa` manages; checked before unlocking, so a refused name costs
    /// no passphrase prompt and no two-factor code.
    static func userEntry(_ name: String) throws -> String {
        guard !LoginSecondFactor.isReserved(name) else {
            throw CLIError(
                "\"\(name)\" is reserved for two-factor login; manage it with `smsgw account 2fa`.", status: .usage)
        }
        return name
    }

    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as OTPError {
            throw CLIError(Self.sentence(error.message), status: .dataError)
        } catch let error as QRCodeError {
            throw CLIError(Self.sentence(error.message), status: .dataError)
        }
    }

    /// The OTP module's messages start in lower case and end without a full stop.
    static func sentence(_ message: String) -> String {
        guard let first = message.first else { return message }
        let capitalised = first.uppercased() + message.dropFirst()
        return capitalised.hasSuffix(".") ? capitalised : capitalised + "."
    }
}

/// The current Unix time.
private func unixNow() -> Int64 { TOTP.unixTime(Date()) }

// MARK: - Commands

extension OTPCommand {
    /// `smsgw otp add`: enrols a generator from a Base32 secret, an otpauth URI, or a new secret.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a generator from --secret, --uri or --generate.",
            discussion: """
                With --generate a random 20-byte (SHA-1), 32-byte (SHA-256) or 64-byte (SHA-512) \
                secret is made and its otpauth:// URI printed once, for an authenticator app; add --qr \
                to draw it. The account defaults to NAME.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The entry's name (1 to 64 characters, unique without regard to case).")
        var name: String

        @Option(help: ArgumentHelp("The shared secret in Base32 (case, spaces and padding ignored).", valueName: "base32"))
        var secret: String?

        @Option(help: ArgumentHelp("An otpauth:// URI carrying the secret and every parameter.", valueName: "uri"))
        var uri: String?

        @Flag(help: "Generate a random secret and print its otpauth:// URI once.")
        var generate = false

        @Option(help: ArgumentHelp("sha1, sha256 or sha512 (default sha1).", valueName: "name"))
        var algorithm: String?

        @Option(help: ArgumentHelp("Code length, 6 to 8 (default 6).", valueName: "n"))
        var digits: Int?

        @Option(help: ArgumentHelp("TOTP: seconds per code (default 30).", valueName: "seconds"))
        var period: Int64?

        @Option(help: ArgumentHelp("HOTP: the counter of the first code (default 0).", valueName: "n"))
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
            guard sources == 1 else {
                throw ValidationError("Give exactly one of --secret, --uri or --generate.")
            }
            if uri != nil, algorithm != nil || digits != nil || period != nil || counter != nil || issuer != nil || account != nil || hotp {
                throw ValidationError("An otpauth URI carries its own parameters; leave out --algorithm, --digits, --period, --counter, --issuer, --account and --hotp.")
            }
            if let algorithm, OTPAlgorithm(name: algorithm) == nil {
                throw ValidationError("--algorithm must be sha1, sha256 or sha512.")
            }
            if let digits, !HOTP.allowedDigits.contains(digits) {
                throw ValidationError("--digits must be 6, 7 or 8.")
            }
            if let period, period <= 0 {
                throw ValidationError("--period must be a positive number of seconds.")
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

        func run() throws {
            _ = try OTPFailure.userEntry(name)
            let enrolment = try makeEnrolment()
            let enrolmentURI = try enrolment.uri()
            let store = try StoreAccess.unlock(global)
            try store.addOTPEntry(
                name: name, secret: enrolment.encoded(), state: OTPEnrolment.encodeState(enrolment.initialState))
            if generate {
                Output.line(enrolmentURI.string)
                if qr {
                    let code = try OTPFailure.mapping { try QRCode(Array(enrolmentURI.string.utf8)) }
                    print(code.terminalString(invert: true), terminator: "")
                    Output.flush()
                }
                Output.error("Added \"\(name)\"; the URI above holds the secret and is not shown again unless you run `smsgw otp uri \(name)`.")
            } else {
                Output.line("Added \"\(name)\" (\(enrolmentURI.kind.summary), \(enrolment.algorithm), \(enrolment.digits) digits).")
            }
        }

        private func makeEnrolment() throws -> OTPEnrolment {
            if let uri {
                return OTPEnrolment(uri: try OTPFailure.mapping { try OTPAuthURI(parsing: uri) })
            }
            let algorithm = algorithm.flatMap(OTPAlgorithm.init(name:)) ?? .sha1
            let key: OTPSecret = try OTPFailure.mapping {
                if let secret { return try OTPSecret(base32: secret) }
                return OTPSecret.random(byteCount: algorithm.recommendedSecretByteCount)
            }
            let parsed = try OTPFailure.mapping {
                try OTPAuthURI(
                    kind: hotp ? .hotp(counter: counter ?? 0) : .totp(period: period ?? TOTP.defaultPeriod),
                    secret: key, issuer: issuer, account: account ?? name, algorithm: algorithm, digits: digits ?? 6)
            }
            return OTPEnrolment(uri: parsed)
        }
    }

    /// `smsgw otp list`: names and parameters, never secrets.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the generators (never their secrets).")

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Print one JSON array.")
        var json = false

        /// One entry as `--json` prints it.
        struct Item: Encodable {
            var name: String
            var type: String
            var algorithm: String
            var digits: Int
            var period: Int64?
            var counter: UInt64?
            var issuer: String?
            var account: String
            var createdAt: Date
        }

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let items = try store.otpEntries().filter { !LoginSecondFactor.isReserved($0.name) }.map { entry in
                let enrolment = try OTPEnrolment(decoding: entry.secret, name: entry.name)
                return Item(
                    name: entry.name, type: enrolment.kind.rawValue, algorithm: enrolment.algorithm.name.lowercased(),
                    digits: enrolment.digits, period: enrolment.period, counter: enrolment.counter,
                    issuer: enrolment.issuer, account: enrolment.account, createdAt: entry.createdAt)
            }
            if json {
                Output.line(try Output.json(items))
                return
            }
            if items.isEmpty {
                Output.error("No OTP entries yet; add one with `smsgw otp add NAME --generate`.")
                return
            }
            for item in items {
                let timing = item.period.map { "every \($0) s" } ?? "counter \(item.counter ?? 0)"
                let label = item.issuer.map { "\($0):\(item.account)" } ?? item.account
                Output.line("\(item.name)\t\(item.type)\t\(item.algorithm)\t\(item.digits) digits\t\(timing)\t\(label)")
            }
        }
    }

    /// `smsgw otp code`: the current TOTP code, or the next HOTP code (advancing the counter).
    struct Code: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "code",
            abstract: "Print the current code (HOTP: the next one; the counter moves on).",
            discussion: "An HOTP code is taken and its counter advanced in one transaction, so no code is printed twice."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The entry's name.")
        var name: String

        @Option(help: ArgumentHelp("TOTP: the Unix time to compute the code for (default now).", valueName: "unixtime"))
        var at: Int64?

        func run() throws {
            let name = try OTPFailure.userEntry(name)
            let store = try StoreAccess.unlock(global)
            let code: String = try store.write { tx in
                let entry = try tx.otpEntry(named: name)
                var enrolment = try OTPEnrolment(decoding: entry.secret, name: entry.name)
                let uri = try enrolment.uri()
                if let totp = uri.totp {
                    return try OTPFailure.mapping { try totp.code(at: at ?? unixNow()) }
                }
                if at != nil {
                    throw CLIError("\"\(entry.name)\" is an HOTP entry, whose codes follow a counter; leave out --at.", status: .usage)
                }
                let counter = enrolment.counter ?? 0
                guard counter < .max else {
                    throw CLIError("The counter of \"\(entry.name)\" is exhausted; remove the entry and enrol a new secret.", status: .dataError)
                }
                enrolment.counter = counter + 1
                try tx.updateOTPEntry(named: entry.name, secret: enrolment.encoded())
                return uri.hotp.code(counter: counter)
            }
            Output.line(code)
        }
    }

    /// `smsgw otp verify`: checks a code, with replay rejection and throttling saved in the same
    /// transaction.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check a code: exit 0 accepted, 65 wrong or already used, 77 too many failures.",
            discussion: """
                TOTP accepts one step either side of the time; HOTP accepts up to 10 counters ahead and \
                resynchronises. The state (last accepted step, failures, refusal time) is committed with \
                the check, so a code is accepted at most once across processes.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The entry's name.")
        var name: String

        @Argument(help: "The code as typed (spaces are ignored).")
        var code: String

        @Option(help: ArgumentHelp("The Unix time of the attempt (default now).", valueName: "unixtime"))
        var at: Int64?

        func run() throws {
            let name = try OTPFailure.userEntry(name)
            let store = try StoreAccess.unlock(global)
            let now = at ?? unixNow()
            let (entryName, result) = try store.write { tx in
                let entry = try tx.otpEntry(named: name)
                let enrolment = try OTPEnrolment(decoding: entry.secret, name: entry.name)
                let state = try OTPEnrolment.decodeState(entry.state, name: entry.name, initial: enrolment.initialState)
                let outcome = try enrolment.verifier().verify(code, state: state, now: now)
                if outcome.state != state {
                    try tx.updateOTPEntry(named: entry.name, state: OTPEnrolment.encodeState(outcome.state))
                }
                return (entry.name, outcome.result)
            }
            switch result {
            case .accepted:
                Output.line("Accepted.")
            case .rejected:
                throw CLIError("The code is wrong for \"\(entryName)\"; check the code (and the clock) and try again.", status: .dataError)
            case .replayed:
                throw CLIError("The code for \"\(entryName)\" was already used; wait for the next code and enter that.", status: .dataError)
            case .throttled(let until):
                let date = Date(timeIntervalSince1970: TimeInterval(until))
                throw CLIError(
                    "Too many wrong codes for \"\(entryName)\"; try again after \(Output.timestamp(date)) (in \(max(1, until - now)) seconds).",
                    status: .authentication)
            }
        }
    }

    /// `smsgw otp uri`: the enrolment URI, optionally drawn as a QR code.
    struct URI: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uri",
            abstract: "Print the otpauth:// URI (it contains the secret).",
            discussion: """
                With --qr the URI is also drawn as a QR code in half-block characters, for light text \
                on a dark terminal; add --light-background for dark text on a light one.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The entry's name.")
        var name: String

        @Flag(help: "Also draw the URI as a QR code.")
        var qr = false

        @Flag(help: "Draw the QR code for dark text on a light background.")
        var lightBackground = false

        func run() throws {
            let name = try OTPFailure.userEntry(name)
            let store = try StoreAccess.unlock(global)
            let entry = try store.otpEntry(named: name)
            let uri = try OTPEnrolment(decoding: entry.secret, name: entry.name).uri().string
            if qr {
                let code = try OTPFailure.mapping { try QRCode(Array(uri.utf8)) }
                print(code.terminalString(invert: !lightBackground), terminator: "")
                Output.flush()
            }
            Output.line(uri)
        }
    }

    /// `smsgw otp remove`: deletes an entry.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a generator.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The entry's name.")
        var name: String

        func run() throws {
            let name = try OTPFailure.userEntry(name)
            let store = try StoreAccess.unlock(global)
            try store.removeOTPEntry(named: name)
            Output.line("Removed \"\(name)\".")
        }
    }
}

extension OTPAuthURI.Kind {
    /// "TOTP every 30 s" or "HOTP from counter 0".
    var summary: String {
        switch self {
        case .totp(let period): "TOTP every \(period) s"
        case .hotp(let counter): "HOTP from counter \(counter)"
        }
    }
}
