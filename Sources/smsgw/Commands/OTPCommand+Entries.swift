import ArgumentParser
import Foundation
import Operations
import TerminalIO

extension OTPCommand {
    /// `smsgw otp list`: names and parameters, never secrets.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the generators (never their secrets).")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Flag(help: "Print one JSON array.")
        var json = false

        func run() throws {
            let entries = try OTPEntries.list(in: try StoreAccess.unlock(global))
            if json {
                Output.line(try Output.json(entries))
                return
            }
            if entries.isEmpty {
                Output.diagnostic("No OTP entries yet; add one with `smsgw otp add NAME --generate`.")
                return
            }
            for entry in entries {
                let timing = entry.period.map { "every \($0) s" } ?? "counter \(entry.counter ?? 0)"
                let label = entry.issuer.map { "\($0):\(entry.account)" } ?? entry.account
                Output.line("\(entry.name)\t\(entry.type)\t\(entry.algorithm)\t\(entry.digits) digits\t\(timing)\t\(label)")
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
            try OTPEntries.requireUserName(name)
            let uri = try OTPEntries.uri(named: name, in: try StoreAccess.unlock(global))
            if qr { try QRDrawing.print(uri, invert: !lightBackground) }
            Output.line(uri.string)
        }
    }

    /// `smsgw otp remove`: deletes an entry.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a generator.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The entry's name.")
        var name: String

        func run() throws {
            try OTPEntries.requireUserName(name)
            try OTPEntries.remove(named: name, from: try StoreAccess.unlock(global))
            Output.line("Removed \"\(name)\".")
        }
    }
}
