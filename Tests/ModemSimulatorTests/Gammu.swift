import Foundation
import ModemSimulator
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The gammu command-line tool, run as a user would, with a time limit.
enum Gammu {
    static let path = "/usr/bin/gammu"

    struct Result {
        var status: Int32
        var output: String
        var timedOut: Bool
        /// gammu's `--debug textall` log, when asked for.
        var debug: String
    }

    /// Fails the test, saying how to install gammu, when it is missing.
    static func require() throws {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            Issue.record("gammu is not installed at \(path); install it with `apt-get install gammu libgammu-dev`.")
            throw SimulatorError("gammu missing")
        }
    }

    static func run(_ gammurc: URL, _ arguments: [String], timeout: Double = 20, debug: Bool = false) throws -> Result {
        try require()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gammu-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputURL = scratch.appendingPathComponent("out")
        let debugURL = scratch.appendingPathComponent("debug")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        var args = ["-c", gammurc.path]
        if debug { args += ["--debug", "textall", "--debug-file", debugURL.path] }
        process.arguments = args + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        process.environment = environment
        let handle = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var ended = process.waitForExit(within: .seconds(timeout))
        let timedOut = ended == nil
        if timedOut {
            process.terminate()
            ended = process.waitForExit(within: .milliseconds(300))
            if ended == nil { kill(process.processIdentifier, SIGKILL) }
        }
        let status = (ended ?? process.waitForExit()).status
        try? handle.close()
        let output = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        let debugText = (try? String(contentsOf: debugURL, encoding: .utf8)) ?? ""
        return Result(status: status, output: output, timedOut: timedOut, debug: debugText)
    }
}
