import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a passphrase comes from: an environment variable, a file named by one, or a masked
/// prompt on the controlling terminal. The passphrase is never printed or logged.
struct PassphraseSource {
    /// The variable holding the passphrase itself, e.g. SMSGW_PASSPHRASE.
    var variable: String
    /// The variable naming a file whose first line is the passphrase, e.g. SMSGW_PASSPHRASE_FILE.
    var fileVariable: String

    /// The account passphrase: SMSGW_PASSPHRASE / SMSGW_PASSPHRASE_FILE.
    static let account = PassphraseSource(variable: "SMSGW_PASSPHRASE", fileVariable: "SMSGW_PASSPHRASE_FILE")
    /// A new passphrase for `account passwd`: SMSGW_NEW_PASSPHRASE / SMSGW_NEW_PASSPHRASE_FILE.
    static let new = PassphraseSource(variable: "SMSGW_NEW_PASSPHRASE", fileVariable: "SMSGW_NEW_PASSPHRASE_FILE")

    /// Reads the passphrase from the environment, else prompts (twice when `confirm`).
    ///
    /// - Throws: ``CLIError`` with status 77 when there is no terminal and no variable is set,
    ///   66 when the file is missing, 64 (usage) when the two typed passphrases differ.
    func read(prompt: String, confirm: Bool = false) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let value = environment[variable], !value.isEmpty { return value }
        if let path = environment[fileVariable], !path.isEmpty { return try firstLine(ofFile: path) }
        guard let terminal = Terminal.open() else {
            throw CLIError(
                "No passphrase is available and there is no terminal to ask on; set \(fileVariable) to a file holding it (or \(variable)).",
                status: .authentication)
        }
        defer { terminal.close() }
        let first = try terminal.readMasked(prompt: prompt)
        if confirm {
            let second = try terminal.readMasked(prompt: "Repeat it: ")
            guard first == second else {
                throw CLIError("The two passphrases differ; run the command again and type the same one twice.", status: .usage)
            }
        }
        return first
    }

    private func firstLine(ofFile path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("Cannot read the passphrase file \(path) named by \(fileVariable); check the path and its permissions.", status: .notFound)
        }
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let passphrase = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !passphrase.isEmpty else {
            throw CLIError("The first line of \(path) (named by \(fileVariable)) is empty; put the passphrase on it.", status: .authentication)
        }
        return passphrase
    }
}

/// The state to put back if a signal arrives while echo is off. A C signal handler cannot
/// capture context, so it lives in a global; only written with signals blocked by design of the
/// prompt (set before echo goes off, cleared after it comes back).
nonisolated(unsafe) private var echoRestore: (fd: Int32, settings: termios)?

/// The controlling terminal (/dev/tty), for prompts that must not come from a pipe.
struct Terminal {
    let fd: Int32

    /// Opens /dev/tty, or nil when the process has no controlling terminal.
    static func open() -> Terminal? {
        let fd = Glibc.open("/dev/tty", O_RDWR | O_NOCTTY)
        return fd >= 0 ? Terminal(fd: fd) : nil
    }

    func close() { _ = Glibc.close(fd) }

    /// Writes `text` to the terminal.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc.write(fd, &bytes, bytes.count)
    }

    /// Reads one line with echo on (confirmations).
    func readLine(prompt: String) -> String? {
        write(prompt)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(fd, &byte, 1) == 1 {
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Reads one line with echo off; echo comes back on return, error, SIGINT or SIGTERM.
    func readMasked(prompt: String) throws -> String {
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else {
            throw CLIError("Cannot switch off echo on the terminal; set SMSGW_PASSPHRASE_FILE instead.", status: .authentication)
        }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ICANON)
        echoRestore = (fd, original)
        let previousInt = signal(SIGINT, restoreEchoAndExit)
        let previousTerm = signal(SIGTERM, restoreEchoAndExit)
        _ = tcsetattr(fd, TCSAFLUSH, &silent)
        defer {
            _ = tcsetattr(fd, TCSAFLUSH, &original)
            echoRestore = nil
            signal(SIGINT, previousInt)
            signal(SIGTERM, previousTerm)
            write("\n")
        }
        guard let line = readLine(prompt: prompt), !line.isEmpty else {
            throw CLIError("No passphrase was typed; run the command again.", status: .authentication)
        }
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }
}

/// Puts echo back and exits as the signal would (128 + signal number).
private func restoreEchoAndExit(_ signalNumber: Int32) {
    if var saved = echoRestore {
        _ = tcsetattr(saved.fd, TCSAFLUSH, &saved.settings)
        var newline: UInt8 = 0x0A
        _ = Glibc.write(saved.fd, &newline, 1)
    }
    _exit(128 + signalNumber)
}
