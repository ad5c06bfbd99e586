import Foundation
import Synchronization
import TestSupport
import Testing

/// A long-running `smsgw` command (`log --follow`) whose stdout lines the test reads as they come.
final class RunningCommand {
    private let process: Process
    private let output = OutputBuffer()
    private let errors = OutputBuffer()

    /// Starts `smsgw arguments…` as `peer`.
    init(_ arguments: [String], as peer: Peer) throws {
        process = try SMSGWBinary.makeProcess(arguments, environment: peer.environment)
        let pipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [output] handle in output.append(handle.availableData) }
        errorPipe.fileHandleForReading.readabilityHandler = { [errors] handle in errors.append(handle.availableData) }
        try process.run()
    }

    /// What it wrote to stderr so far.
    var stderr: String { errors.text }

    /// The complete lines printed so far.
    var lines: [String] {
        let text = output.text
        var parts = text.components(separatedBy: "\n")
        parts.removeLast()  // what follows the last newline is not a complete line yet
        return parts
    }

    /// The lines printed so far, each decoded as a JSON object.
    var objects: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Ends the command (SIGTERM) and waits for it.
    func stop() {
        if process.isRunning { process.terminate() }
        _ = process.waitForExit()
    }

    deinit { stop() }
}

/// A JSON number as Int64, however JSONSerialization boxed it.
func jsonInteger(_ value: Any?) -> Int64? {
    switch value {
    case let value as Int64: value
    case let value as Int: Int64(value)
    case let value as NSNumber: value.int64Value
    default: nil
    }
}

/// What a child process wrote so far, appended from the pipe's reading thread.
final class OutputBuffer: Sendable {
    private let data = Mutex(Data())

    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }

    /// Everything so far, as UTF-8 text.
    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}
