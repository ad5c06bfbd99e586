public import Glibc
public import SystemCalls

/// The state to put back if a signal arrives while echo is off. A C signal handler cannot
/// capture context, so it lives in a global; only written with signals blocked by design of the
/// prompt (set before echo goes off, cleared after it comes back).
nonisolated(unsafe) private var echoRestore: (fd: Int32, settings: termios)?

/// The controlling terminal (/dev/tty), for prompts that must not come from a pipe.
///
/// Non-copyable: it owns its descriptor, which closes when the value goes away.
public struct Terminal: ~Copyable {
    let file: FileDescriptor

    /// A terminal on `file`, which it owns from now on: /dev/tty, or a pseudo-terminal's slave.
    public init(file: consuming FileDescriptor) {
        self.file = file
    }

    /// Opens /dev/tty, or nil when the process has no controlling terminal.
    public static func open() -> Terminal? {
        guard let file = try? FileDescriptor.open("/dev/tty", O_RDWR | O_NOCTTY) else { return nil }
        return Terminal(file: file)
    }

    /// Writes `text` to the terminal.
    public func write(_ text: String) {
        _ = try? file.writeAll(Array(text.utf8))
    }

    /// Reads one line with echo on (confirmations).
    public func readLine(prompt: String) -> String? {
        write(prompt)
        var bytes: [UInt8] = []
        while let byte = try? file.read(upTo: 1), let first = byte.first {
            if first == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Reads one line with echo off; echo comes back on return, error, SIGINT or SIGTERM.
    ///
    /// Input typed before the prompt shows is dropped (`TCSAFLUSH`), as a real terminal does, so
    /// nothing typed ahead ends up in a secret.
    ///
    /// - Throws: ``TerminalInputError/echoUnavailable`` when echo cannot be switched off;
    ///   ``TerminalInputError/nothingTyped`` for an empty line or the end of input.
    public func readMasked(prompt: String) throws(TerminalInputError) -> String {
        guard let original = try? file.terminalAttributes() else { throw .echoUnavailable }
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
        guard let line = readLine(prompt: prompt), !line.isEmpty else { throw .nothingTyped }
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
