import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smsgw` running in the background while the test does other things: what it writes (stdout
/// and stderr together) is collected as it comes. On request it runs on a terminal of its own,
/// through script(1), so it prompts as it would for a person.
final class BackgroundSMSGW: @unchecked Sendable {
    // `output` is only touched with `lock` held; `process` and `input` are set once in init.
    private let process: Process
    private let input = Pipe()
    private let lock = NSLock()
    private var output = Data()

    private init(process: Process) { self.process = process }

    /// Starts `smsgw arguments…` with `environment` added; `onTerminal` runs it under
    /// `script -qfec … /dev/null`, whose pseudo-terminal becomes its controlling terminal.
    static func start(_ arguments: [String], environment: [String: String], onTerminal: Bool = false) throws -> BackgroundSMSGW {
        let process = try SMSGWBinary.makeProcess(arguments, environment: environment)
        if onTerminal {
            let words = [try SMSGWBinary.require().path] + arguments
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = [
                "-qfec", words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " "), "/dev/null",
            ]
        }
        let running = BackgroundSMSGW(process: process)
        let output = Pipe()
        process.standardInput = running.input
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            running.lock.withLock { running.output.append(data) }
        }
        try process.run()
        return running
    }

    /// Everything it wrote so far.
    var text: String { lock.withLock { String(decoding: output, as: UTF8.self) } }

    /// Waits until it has written `needle`; records an issue and throws after `timeout` seconds
    /// or when it ended without writing it.
    func waitForOutput(containing needle: String, timeout: TimeInterval) async throws {
        let deadline = Date() + timeout
        while !text.contains(needle) {
            guard Date() < deadline, process.isRunning else {
                Issue.record("smsgw never wrote \"\(needle)\"; it wrote: \(text)")
                throw Timeout()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Writes `text` to its standard input and closes it (a passphrase read from /dev/stdin).
    func finishInput(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try input.fileHandleForWriting.close()
    }

    /// Waits for it to end by itself; its exit status, or nil when it still runs after `timeout`
    /// seconds (it is then stopped).
    func waitForExit(timeout: TimeInterval) async throws -> Int32? {
        guard let ended = await process.exit(within: .seconds(timeout)) else {
            stop()
            return nil
        }
        return ended.status
    }

    /// Stops it with SIGKILL: a child of the test process inherits its blocked SIGTERM. Under
    /// script(1) the program then reads end-of-file from its vanished terminal and exits. Blocks
    /// its thread for that moment (it runs in a `defer`), but not until Foundation sees the end.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        _ = process.waitForExit()
        try? input.fileHandleForWriting.close()
    }

    struct Timeout: Error {}
}
