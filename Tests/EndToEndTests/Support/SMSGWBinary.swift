import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What one run of the binary produced.
struct RunResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Stdout split into lines (the final newline does not make an empty last line).
    var lines: [String] {
        var parts = stdout.components(separatedBy: "\n")
        if parts.last == "" { parts.removeLast() }
        return parts
    }
}

/// Finds and runs the built `smsgw` executable as a user would.
enum SMSGWBinary {
    /// The executable: $SMSGW_BINARY, else `smsgw` beside the test bundle.
    static let url: URL? = {
        let fm = FileManager.default
        if let path = ProcessInfo.processInfo.environment["SMSGW_BINARY"], fm.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        var candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent())
            candidates.append(executable.deletingLastPathComponent().deletingLastPathComponent())
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for directory in candidates {
            let file = directory.appendingPathComponent("smsgw")
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                fm.isExecutableFile(atPath: file.path)
            {
                return file
            }
        }
        return nil
    }()

    /// The executable, or a test failure that says how to build it.
    static func require() throws -> URL {
        guard let url else {
            Issue.record(
                "The smsgw executable was not found beside the test bundle (\(Bundle.main.bundleURL.path)); run `swift build` first or set SMSGW_BINARY."
            )
            throw MissingBinary()
        }
        return url
    }

    struct MissingBinary: Error {}

    /// Runs `smsgw arguments…` (or `program`) with `environment` added, `input` on stdin; waits for it.
    static func run(
        _ arguments: [String], environment: [String: String], input: String = "", removing: [String] = [], program: URL? = nil
    ) throws -> RunResult {
        let process = try makeProcess(arguments, environment: environment, removing: removing)
        if let program { process.executableURL = program }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-e2e-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inURL = scratch.appendingPathComponent("in")
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        try Data(input.utf8).write(to: inURL)
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let stdin = try FileHandle(forReadingFrom: inURL)
        let stdout = try FileHandle(forWritingTo: outURL)
        let stderr = try FileHandle(forWritingTo: errURL)
        defer {
            try? stdin.close()
            try? stdout.close()
            try? stderr.close()
        }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let ended = process.waitForExit()
        return RunResult(
            status: ended.status,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Runs `script` with `bash -euo pipefail` as a user types it, with `environment` added.
    static func runShell(_ script: String, environment: [String: String]) throws -> RunResult {
        try run(["-euo", "pipefail", "-c", script], environment: environment, program: URL(fileURLWithPath: "/bin/bash"))
    }

    /// A configured but not started process (for tests that kill it).
    static func makeProcess(_ arguments: [String], environment: [String: String], removing: [String] = []) throws -> Process {
        let process = Process()
        process.executableURL = try require()
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("SMSGW_") { env[key] = nil }
        env.merge(environment) { $1 }
        for key in removing { env[key] = nil }
        process.environment = env
        return process
    }
}
