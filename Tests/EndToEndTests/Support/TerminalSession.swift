import Foundation
import Synchronization
import TestSupport
import Testing

/// `smsgw` run on a pseudo-terminal, as a person at a terminal runs it: util-linux `script`
/// gives the child a terminal as its controlling terminal, stdin, stdout and stderr, copies what
/// the test types to it and what it writes back.
///
/// Type only after the prompt shows: a masked prompt flushes input typed before echo went off,
/// as a real terminal does.
final class TerminalSession {
    private let process: Process
    private let input: Pipe
    private let output = OutputBuffer()
    private let keystroke: Keystroke

    /// Whether `script` is installed (util-linux; present on Debian).
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

    /// Starts `smsgw arguments…` with `environment` added (the SMSGW_ variables of the test
    /// process removed, as ``SMSGWBinary/run(_:environment:input:removing:)`` does).
    convenience init(_ arguments: [String], environment: [String: String]) throws {
        let binary = try SMSGWBinary.require().path
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SMSGW_") }
        inherited.merge(environment) { $1 }
        try self.init(command: ([binary] + arguments).map(Self.quoted).joined(separator: " "), environment: inherited)
    }

    /// Runs a bash script with exactly `environment`.
    convenience init(bash script: String, environment: [String: String]) throws {
        try self.init(command: "bash " + Self.quoted(script), environment: environment)
    }

    private init(command: String, environment: [String: String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["--quiet", "--flush", "--return", "--command", command, "/dev/null"]
        process.environment = environment.merging(["SHELL": "/bin/sh", "TERM": "dumb"]) { $1 }
        input = Pipe()
        let pipe = Pipe()
        process.standardInput = input
        process.standardOutput = pipe
        process.standardError = pipe
        let keystroke = Keystroke(input.fileHandleForWriting)
        self.keystroke = keystroke
        pipe.fileHandleForReading.readabilityHandler = { [output] handle in
            output.append(handle.availableData)
            keystroke.typeIfShown(output.text)
        }
        try process.run()
    }

    /// Everything the terminal showed so far (line ends as the terminal sends them, CR LF).
    var screen: String { output.text }

    /// Waits until the terminal shows `text`; records an issue and throws after `timeout`.
    func waitFor(_ text: String, timeout: TimeInterval = 30) async throws {
        try await GatewayRig.wait("the terminal to show \"\(text)\" (it shows \"\(screen)\")", timeout: timeout) {
            screen.contains(text)
        }
    }

    /// Types `text` on the terminal (add "\n" for Enter). Typing after the command ended is lost.
    func type(_ text: String) {
        Keystroke.write(text, to: input.fileHandleForWriting)
    }

    /// Types `text` as soon as the terminal shows `marker` (at once if it does already), from the
    /// thread that reads the terminal rather than at the test's next look: a key that must reach a
    /// command while it still runs, on a machine too loaded to run the test in time.
    func type(_ text: String, onceShown marker: String) {
        keystroke.arm(text, onceShown: marker)
        keystroke.typeIfShown(screen)
    }

    /// Waits for the command to end; returns its exit status and the whole screen.
    func finish(timeout: TimeInterval = 60) async throws -> (status: Int32, screen: String) {
        guard let ended = await process.exit(within: .seconds(timeout)) else {
            Issue.record("Timed out after \(Int(timeout)) s waiting for the command on the terminal to end (it shows \"\(screen)\").")
            throw GatewayRig.TimedOut()
        }
        try? input.fileHandleForWriting.close()
        try await Task.sleep(for: .milliseconds(100))  // the last output still in the pipe
        return (ended.status, screen)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    private static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// A key waiting for a text on the terminal (``TerminalSession/type(_:onceShown:)``).
private final class Keystroke: @unchecked Sendable {
    private let input: FileHandle
    private let armed = Mutex<(marker: String, text: String)?>(nil)

    init(_ input: FileHandle) { self.input = input }

    func arm(_ text: String, onceShown marker: String) {
        armed.withLock { $0 = (marker, text) }
    }

    /// Types the armed key, once, when `screen` shows its marker.
    func typeIfShown(_ screen: String) {
        let due = armed.withLock { armed -> String? in
            guard let key = armed, screen.contains(key.marker) else { return nil }
            armed = nil
            return key.text
        }
        if let due { Self.write(due, to: input) }
    }

    /// Writes without trapping: the terminal's end of the pipe is gone once the command ended.
    static func write(_ text: String, to handle: FileHandle) {
        try? handle.write(contentsOf: Data(text.utf8))
    }
}
