import Foundation
import TerminalIO

/// The desktop clipboard, through `wl-copy` (Wayland) or `xclip` (X11), whichever the session has.
///
/// A copied password is cleared after a delay by a detached shell, unless the clipboard holds
/// something else by then (the person copied another thing meanwhile). The shell compares
/// against the password in its own environment, never its argv: /proc/PID/environ is readable
/// by this user only, who can read the clipboard anyway.
struct Clipboard {
    /// The commands that put stdin on the clipboard, print it, and clear it.
    let copy: [String]
    let paste: [String]
    let clear: [String]
    let name: String

    /// The clipboard of this session, or nil when neither tool (or no display) is there.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> Clipboard? {
        func find(_ tool: String) -> String? { ExecutableSearch.find(tool, path: environment["PATH"]) }
        if environment["WAYLAND_DISPLAY"] != nil, let copy = find("wl-copy"), let paste = find("wl-paste") {
            return Clipboard(copy: [copy], paste: [paste, "--no-newline"], clear: [copy, "--clear"], name: "wl-copy")
        }
        if environment["DISPLAY"] != nil, let xclip = find("xclip") {
            return Clipboard(
                copy: [xclip, "-selection", "clipboard", "-in"], paste: [xclip, "-selection", "clipboard", "-out"],
                clear: [xclip, "-selection", "clipboard", "-in", "/dev/null"], name: "xclip")
        }
        return nil
    }

    /// Puts `text` on the clipboard and starts the shell that clears it after `seconds`.
    func put(_ text: String, clearingAfter seconds: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: copy[0])
        process.arguments = Array(copy.dropFirst())
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError(
                "\(name) could not set the clipboard (exit \(process.terminationStatus)); check the desktop session.", status: .unavailable)
        }
        try startClearing(text, after: seconds)
    }

    /// A shell, detached from this process's session, that clears the clipboard after the delay
    /// if it still holds `text`.
    private func startClearing(_ text: String, after seconds: Int) throws {
        let quote = { (words: [String]) in words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        }
        let script = "sleep \(seconds); [ \"$(\(quote(paste)) 2>/dev/null)\" = \"$SMSGW_CLIPBOARD_TEXT\" ] && \(quote(clear))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["/bin/sh", "-c", script]
        process.environment = ChildEnvironment.make(adding: ["SMSGW_CLIPBOARD_TEXT": text])
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }
}
