public import Foundation

/// A command-line program the tests compare against (oathtool, zbarimg, gammu): found through an
/// environment override, the usual places or `$PATH`, and run with its output captured.
public struct ExternalTool: Sendable {
    /// The program's name, e.g. "oathtool".
    public let name: String
    /// The environment variable that may name its path, e.g. "OATHTOOL".
    public let override: String

    public init(_ name: String, override: String) {
        self.name = name
        self.override = override
    }

    /// The program's path: `$override` if set (nil when that is not executable), else
    /// /usr/bin, /usr/local/bin and `$PATH`.
    public var path: String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment[override] {
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
        var candidates = ["/usr/bin/\(name)", "/usr/local/bin/\(name)"]
        if let search = environment["PATH"] {
            candidates += search.split(separator: ":").map { "\($0)/\(name)" }
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What a run printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var output: Data
        public var errors: String
        public var lines: [String] { String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init) }
    }

    /// Runs the program at `path` with `arguments` and waits for it.
    public static func run(_ path: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: data, errors: String(decoding: errorData, as: UTF8.self))
    }
}
