public import Foundation
import Glibc
import SystemCalls

/// Where a passphrase comes from: an environment variable, a file named by one, or a masked
/// prompt on the controlling terminal. The passphrase is never printed or logged.
///
/// When both variables are set, the one holding the passphrase itself wins (as with borg's
/// BORG_PASSPHRASE) and the file is not read; ``Passphrase/origin`` says which one was used, so a
/// "wrong passphrase" error can name it.
public struct PassphraseSource: Sendable {
    /// The variable holding the passphrase itself, e.g. SMSGW_PASSPHRASE.
    public var variable: String
    /// The variable naming a file whose first line is the passphrase, e.g. SMSGW_PASSPHRASE_FILE.
    public var fileVariable: String

    public init(variable: String, fileVariable: String) {
        self.variable = variable
        self.fileVariable = fileVariable
    }

    /// The account passphrase: SMSGW_PASSPHRASE / SMSGW_PASSPHRASE_FILE.
    public static let account = PassphraseSource(variable: "SMSGW_PASSPHRASE", fileVariable: "SMSGW_PASSPHRASE_FILE")
    /// A new passphrase for `account passwd`: SMSGW_NEW_PASSPHRASE / SMSGW_NEW_PASSPHRASE_FILE.
    public static let new = PassphraseSource(variable: "SMSGW_NEW_PASSPHRASE", fileVariable: "SMSGW_NEW_PASSPHRASE_FILE")

    /// The longest passphrase file read; anything longer is not a passphrase file.
    public static let maximumFileSize = 64 << 10

    /// A passphrase and where it came from.
    public struct Passphrase: Sendable {
        public var value: String
        /// Where it was read, for messages: "SMSGW_PASSPHRASE", "the file /x (SMSGW_PASSPHRASE_FILE)", "the terminal".
        public var origin: String
    }

    /// Reads the passphrase from the environment, else prompts (twice when `confirm`).
    ///
    /// - Throws: ``TerminalInputError``: no variable set and no terminal, a missing or empty
    ///   file, two typed passphrases that differ, nothing typed.
    public func read(prompt: String, confirm: Bool = false) throws(TerminalInputError) -> String {
        try readWithOrigin(prompt: prompt, confirm: confirm).value
    }

    /// Like ``read(prompt:confirm:)``, with where the passphrase came from.
    ///
    /// - Parameters:
    ///   - environment: The variables to read (the process's unless a test passes others).
    ///   - openTerminal: Opens the terminal to prompt on when no variable is set (``Terminal/open()``).
    public func readWithOrigin(
        prompt: String, confirm: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment,
        openTerminal: () -> Terminal? = Terminal.open
    ) throws(TerminalInputError) -> Passphrase {
        if let value = environment[variable], !value.isEmpty {
            let ignored = environment[fileVariable].map { $0.isEmpty ? "" : " (\(fileVariable) is ignored while it is set)" } ?? ""
            return Passphrase(value: value, origin: variable + ignored)
        }
        if let path = environment[fileVariable], !path.isEmpty {
            return Passphrase(value: try firstLine(ofFile: path), origin: "the file \(path) (\(fileVariable))")
        }
        guard let terminal = openTerminal() else {
            throw .noPassphraseSource(variable: variable, fileVariable: fileVariable)
        }
        let first = try terminal.readMasked(prompt: prompt)
        if confirm {
            let second = try terminal.readMasked(prompt: "Repeat it: ")
            guard first == second else { throw .passphrasesDiffer }
        }
        return Passphrase(value: first, origin: "the terminal")
    }

    /// Overwrites the value of ``variable`` in the process's environment block and removes it,
    /// so neither a child process nor /proc/PID/environ sees the passphrase afterwards.
    ///
    /// Call it before other threads read the environment (the daemon does, right after reading).
    public func removeFromEnvironment() {
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
    public func firstLine(ofFile path: String) throws(TerminalInputError) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .passphraseFileIsDirectory(path: path, variable: fileVariable)
        }
        guard let data = Self.contents(ofFile: path) else {
            throw .passphraseFileUnreadable(path: path, variable: fileVariable)
        }
        let passphrase = Self.firstLine(of: data)
        guard !passphrase.isEmpty else { throw .passphraseFileEmpty(path: path, variable: fileVariable) }
        return passphrase
    }

    /// The bytes before the first LF or CR, as UTF-8 text.
    ///
    /// Split on bytes, not Characters: "\r\n" is one Swift Character, so splitting a String on
    /// "\n" would leave a CRLF line whole.
    public static func firstLine(of data: Data) -> String {
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
    public static func inheritedDescriptor(_ path: String) -> Int32? {
        if path == "/dev/stdin" { return 0 }
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
            return Int32(path.dropFirst(prefix.count))
        }
        return nil
    }
}
