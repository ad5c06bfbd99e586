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
        defer { terminal.close() }
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
        let fd: Int32
        let owned: Bool
        if let inherited = inheritedDescriptor(path) {
            (fd, owned) = (inherited, false)
        } else {
            fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            owned = true
        }
        guard fd >= 0 else { return nil }
        defer { if owned { _ = Glibc.close(fd) } }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count <= maximumFileSize {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
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
