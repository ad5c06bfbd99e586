import ArgumentParser
import Foundation
import OTP
import Store

extension OTPCommand {
    /// `smsgw otp list`: names and parameters, never secrets.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the generators (never their secrets).")

        @OptionGroup(title: "Global options") var global: GlobalOptions

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
                Output.diagnostic("No OTP entries yet; add one with `smsgw otp add NAME --generate`.")
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

        @OptionGroup(title: "Global options") var global: GlobalOptions

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

        @OptionGroup(title: "Global options") var global: GlobalOptions

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

        @OptionGroup(title: "Global options") var global: GlobalOptions

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

        @OptionGroup(title: "Global options") var global: GlobalOptions

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
