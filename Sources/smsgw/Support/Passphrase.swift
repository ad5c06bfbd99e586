import Foundation
import SystemCalls

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a passphrase comes from: an environment variable, a file named by one, or a masked
/// prompt on the controlling terminal. The passphrase is never printed or logged.
///
/// When both variables are set, the one holding the passphrase itself wins (as with borg's
/// BORG_PASSPHRASE) and the file is not read; ``Passphrase/origin`` says which one was used, so a
/// "wrong passphrase" error can name it.
struct PassphraseSource {
    /// The variable holding the passphrase itself, e.g. SMSGW_PASSPHRASE.
    var variable: String
    /// The variable naming a file whose first line is the passphrase, e.g. SMSGW_PASSPHRASE_FILE.
    var fileVariable: String

    /// The account passphrase: SMSGW_PASSPHRASE / SMSGW_PASSPHRASE_FILE.
    static let account = PassphraseSource(variable: "SMSGW_PASSPHRASE", fileVariable: "SMSGW_PASSPHRASE_FILE")
    /// A new passphrase for `account passwd`: SMSGW_NEW_PASSPHRASE / SMSGW_NEW_PASSPHRASE_FILE.
    static let new = PassphraseSource(variable: "SMSGW_NEW_PASSPHRASE", fileVariable: "SMSGW_NEW_PASSPHRASE_FILE")

    /// The longest passphrase file read; anything longer is not a passphrase file.
    static let maximumFileSize = 64 << 10

    /// A passphrase and where it came from.
    struct Passphrase {
        var value: String
        /// Where it was read, for messages: "SMSGW_PASSPHRASE", "the file /x (SMSGW_PASSPHRASE_FILE)", "the terminal".
        var origin: String
    }

    /// Reads the passphrase from the environment, else prompts (twice when `confirm`).
    ///
    /// - Throws: ``CLIError`` with status 77 when there is no terminal and no variable is set,
    ///   66 when the file is missing, 64 (usage) when the two typed passphrases differ.
    func read(prompt: String, confirm: Bool = false) throws -> String {
        try readWithOrigin(prompt: prompt, confirm: confirm).value
    }

    /// Like ``read(prompt:confirm:)``, with where the passphrase came from.
    func readWithOrigin(prompt: String, confirm: Bool = false) throws -> Passphrase {
        let environment = ProcessInfo.processInfo.environment
        if let value = environment[variable], !value.isEmpty {
            let ignored = environment[fileVariable].map { $0.isEmpty ? "" : " (\(fileVariable) is ignored while it is set)" } ?? ""
            return Passphrase(value: value, origin: variable + ignored)
        }
        if let path = environment[fileVariable], !path.isEmpty {
            return Passphrase(value: try firstLine(ofFile: path), origin: "the file \(path) (\(fileVariable))")
        }
        guard let terminal = Terminal.open() else {
            throw CLIError(
                "No passphrase is available and there is no terminal to ask on; set \(fileVariable) to a file holding it (or \(variable)).",
                status: .authentication)
        }
        let first = try terminal.readMasked(prompt: prompt)
        if confirm {
            let second = try terminal.readMasked(prompt: "Repeat it: ")
            guard first == second else {
                throw CLIError("The two passphrases differ; run the command again and type the same one twice.", status: .usage)
            }
        }
        return Passphrase(value: first, origin: "the terminal")
    }

    /// Overwrites the value of ``variable`` in the process's environment block and removes it,
    /// so neither a child process nor /proc/PID/environ sees the passphrase afterwards.
    ///
    /// Call it before other threads read the environment (the daemon does, right after reading).
    func removeFromEnvironment() {
        if let value = getenv(variable) {
            // /proc/PID/environ shows the original block, which unsetenv alone leaves intact.
            memset(value, 0, strlen(value))
        }
        unsetenv(variable)
    }

    /// The first line of the file at `path` (LF, CRLF or CR ends it), never empty.
    ///
    /// `/dev/stdin`, `/dev/fd/N` and `/proc/self/fd/N` are read from the inherited descriptor
    /// itself instead of being opened again, so `runuser -u smsgw -- … < /etc/smsgw/passphrase`
    /// works although the service user may not open that root-only file.
    func firstLine(ofFile path: String) throws -> String {
        guard let data = Self.contents(ofFile: path) else {
            throw CLIError("Cannot read the passphrase file \(path) named by \(fileVariable); check the path and its permissions.", status: .notFound)
        }
        let passphrase = Self.firstLine(of: data)
        guard !passphrase.isEmpty else {
            throw CLIError("The first line of \(path) (named by \(fileVariable)) is empty; put the passphrase on it.", status: .authentication)
        }
        return passphrase
    }

    /// The bytes before the first LF or CR, as UTF-8 text.
    ///
    /// Split on bytes, not Characters: "\r\n" is one Swift Character, so splitting a String on
    /// "\n" would leave a CRLF line whole.
    static func firstLine(of data: Data) -> String {
        let end = data.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? data.endIndex
        return String(decoding: data[data.startIndex..<end], as: UTF8.self)
    }

    /// The file's bytes (at most ``maximumFileSize``), or nil when it cannot be read.
    static func contents(ofFile path: String) -> Data? {
        // An inherited descriptor is read through a duplicate (sharing its offset), so closing
        // ours leaves the inherited one open.
        let file: FileDescriptor
        do {
            if let inherited = inheritedDescriptor(path) {
                file = try FileDescriptor.duplicate(inherited, path: path)
            } else {
                file = try FileDescriptor.open(path, O_RDONLY)
            }
        } catch {
            return nil
        }
        var data = Data()
        while data.count <= maximumFileSize {
            guard let chunk = try? file.read(upTo: 4096) else { return nil }
            if chunk.isEmpty { break }
            data.append(contentsOf: chunk)
        }
        return data
    }

    /// The descriptor number a path names in this process (`/dev/stdin` is 0), or nil for other paths.
    static func inheritedDescriptor(_ path: String) -> Int32? {
        if path == "/dev/stdin" { return 0 }
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
            return Int32(path.dropFirst(prefix.count))
        }
        return nil
    }
}

/// The state to put back if a signal arrives while echo is off. A C signal handler cannot
/// capture context, so it lives in a global; only written with signals blocked by design of the
/// prompt (set before echo goes off, cleared after it comes back).
nonisolated(unsafe) private var echoRestore: (fd: Int32, settings: termios)?

/// The controlling terminal (/dev/tty), for prompts that must not come from a pipe.
///
/// Non-copyable: it owns its descriptor, which closes when the value goes away.
struct Terminal: ~Copyable {
    let file: FileDescriptor

    /// Opens /dev/tty, or nil when the process has no controlling terminal.
    static func open() -> Terminal? {
        guard let file = try? FileDescriptor.open("/dev/tty", O_RDWR | O_NOCTTY) else { return nil }
        return Terminal(file: file)
    }

    /// Writes `text` to the terminal.
    func write(_ text: String) {
        _ = try? file.writeAll(Array(text.utf8))
    }

    /// Reads one line with echo on (confirmations).
    func readLine(prompt: String) -> String? {
        write(prompt)
        var bytes: [UInt8] = []
        while let byte = try? file.read(upTo: 1), let first = byte.first {
            if first == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Reads one line with echo off; echo comes back on return, error, SIGINT or SIGTERM.
    func readMasked(prompt: String) throws -> String {
        guard let original = try? file.terminalAttributes() else {
            throw CLIError("Cannot switch off echo on the terminal; set SMSGW_PASSPHRASE_FILE instead.", status: .authentication)
        }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ICANON)
        echoRestore = (file.rawValue, original)
        let previousInt = signal(SIGINT, restoreEchoAndExit)
        let previousTerm = signal(SIGTERM, restoreEchoAndExit)
        try? file.setTerminalAttributes(silent, when: TCSAFLUSH)
        defer {
            try? file.setTerminalAttributes(original, when: TCSAFLUSH)
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
///
/// The raw calls are on purpose: a signal handler may make only async-signal-safe calls, and
/// SystemCalls' wrappers allocate (their errors hold strings).
private func restoreEchoAndExit(_ signalNumber: Int32) {
    if var saved = echoRestore {
        _ = tcsetattr(saved.fd, TCSAFLUSH, &saved.settings)
        var newline: UInt8 = 0x0A
        _ = Glibc.write(saved.fd, &newline, 1)
    }
    _exit(128 + signalNumber)
}
