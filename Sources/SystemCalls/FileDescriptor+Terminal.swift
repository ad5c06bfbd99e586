import CSystemCalls
public import Glibc

extension FileDescriptor {
    /// Opens a new pseudo-terminal master (`posix_openpt(3)`), with its slave granted to this user
    /// and unlocked, so that ``pseudoTerminalPath()`` can be opened.
    /// - Parameter flags: `O_RDWR | O_NOCTTY`, …; `O_CLOEXEC` is added.
    /// - Throws: ``SystemCallError`` naming the call that failed; nothing is left open.
    public static func openPseudoTerminal(_ flags: Int32) throws(SystemCallError) -> FileDescriptor {
        let path = "/dev/ptmx"
        let raw = try SystemCall.run("posix_openpt", path: path) { smsgw_posix_openpt(flags | O_CLOEXEC) }
        let master = FileDescriptor(owning: raw, path: path)
        try SystemCall.run("grantpt", path: path) { smsgw_grantpt(raw) }
        try SystemCall.run("unlockpt", path: path) { smsgw_unlockpt(raw) }
        return master
    }

    /// The path of this pseudo-terminal master's slave, e.g. `/dev/pts/3` (`ptsname_r(3)`).
    public func pseudoTerminalPath() throws(SystemCallError) -> String {
        var name = [CChar](repeating: 0, count: 128)
        let code = smsgw_ptsname_r(rawValue, &name, name.count)
        guard code == 0 else { throw SystemCallError(call: "ptsname_r", path: path, code: code) }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The terminal's settings (`tcgetattr(3)`).
    /// - Throws: ``SystemCallError``; `ENOTTY` when the descriptor is no terminal.
    public func terminalAttributes() throws(SystemCallError) -> termios {
        var attributes = termios()
        try SystemCall.run("tcgetattr", path: path) { tcgetattr(rawValue, &attributes) }
        return attributes
    }

    /// Changes the terminal's settings (`tcsetattr(3)`).
    /// - Parameter when: `TCSANOW`, or `TCSAFLUSH` to drop typed-ahead input first.
    public func setTerminalAttributes(_ attributes: termios, when: Int32 = TCSANOW) throws(SystemCallError) {
        var attributes = attributes
        try SystemCall.run("tcsetattr", path: path) { tcsetattr(rawValue, when, &attributes) }
    }
}
