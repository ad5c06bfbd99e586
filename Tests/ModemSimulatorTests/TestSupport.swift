import Foundation
import Logging
import ModemSimulator
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A running simulated network in its own temporary directory, stopped and removed on `close()`.
final class SimulatorFixture: Sendable {
    let network: SimulatedNetwork
    let directory: URL

    init(seed: UInt64 = 1, _ configure: (SimulatedNetwork) throws -> Void) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("smsgw-simtest-\(UUID().uuidString.prefix(8))")
        var logger = Logger(label: "smsgw.sim.test")
        logger.logLevel = .warning
        network = SimulatedNetwork(directory: directory, seed: seed, logger: logger)
        try configure(network)
        try network.start()
    }

    func gammurc(_ number: String) throws -> URL {
        try network.writeGammurc(for: try #require(network.modem(number: number)))
    }

    func modem(_ number: String) throws -> SimulatedModem {
        try #require(network.modem(number: number))
    }

    func close() {
        network.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

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
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                process.terminate()
                usleep(300_000)
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                break
            }
            usleep(20_000)
        }
        process.waitUntilExit()
        try? handle.close()
        let output = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        let debugText = (try? String(contentsOf: debugURL, encoding: .utf8)) ?? ""
        return Result(status: process.terminationStatus, output: output, timedOut: timedOut, debug: debugText)
    }
}

/// A bare AT client on a simulated modem's device, for tests that need exact control.
final class ATClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { throw SimulatorError("cannot open \(path)") }
        var attributes = termios()
        tcgetattr(fd, &attributes)
        cfmakeraw(&attributes)
        tcsetattr(fd, TCSANOW, &attributes)
        tcflush(fd, TCIOFLUSH)
    }

    deinit {
        close(fd)
    }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    /// Reads until `terminator` shows up; `nil` on timeout. Throws on end of file or I/O error.
    func read(until terminators: [String], timeout: Double = 3) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = String(decoding: buffer, as: UTF8.self)
            for terminator in terminators {
                if let range = text.range(of: terminator) {
                    let answer = String(text[..<range.upperBound])
                    buffer = Array(text[range.upperBound...].utf8)
                    return answer
                }
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1024)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer += chunk[0..<n]
            } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                throw SimulatorError("read failed: \(n == 0 ? "end of file" : "errno \(errno)")")
            }
        }
        return nil
    }

    /// Reads up to and including a final result code line (OK, ERROR, +CME/+CMS ERROR).
    func readFinal(timeout: Double = 3) throws -> String? {
        var collected = ""
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let line = try read(until: ["\r\n"], timeout: deadline.timeIntervalSinceNow) else { return nil }
            collected += line
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed == "OK" || trimmed == "ERROR" || trimmed.hasPrefix("+CME ERROR") || trimmed.hasPrefix("+CMS ERROR") {
                return collected
            }
        }
        return nil
    }

    /// Sends a command and returns everything up to its final result code.
    func command(_ line: String, timeout: Double = 3) throws -> String? {
        write(line + "\r")
        return try readFinal(timeout: timeout)
    }

    /// Sends an SMS in PDU mode; returns the answer (`+CMGS: n … OK` or a `+CMS ERROR`).
    func send(_ submit: SMSSubmit) throws -> String? {
        let tpdu = try submit.encoded()
        _ = try command("ATE0")
        write("AT+CMGS=\(tpdu.count)\r")
        guard try read(until: ["> "]) != nil else { return nil }
        write("00" + Hex.encode(tpdu) + "\u{1A}")
        return try readFinal(timeout: 5)
    }
}

extension SMSSubmit {
    static func text(_ text: String, to number: String, report: Bool = false) throws -> SMSSubmit {
        SMSSubmit(destination: PhoneAddress(number), userData: try UserData(text: text), statusReportRequest: report)
    }
}

extension SimulatedModem {
    /// The texts of the SMS-DELIVERs in its memory, in storage order.
    var storedTexts: [String] {
        storedPDUs.compactMap { entry in
            guard case .deliver(let d)? = try? SMSPDU.decode(entry.pdu, direction: .mobileTerminated).tpdu else { return nil }
            return d.userData.text
        }
    }

    /// The status reports in its memory.
    var storedReports: [SMSStatusReport] {
        storedPDUs.compactMap { entry in
            guard case .statusReport(let r)? = try? SMSPDU.decode(entry.pdu, direction: .mobileTerminated).tpdu else { return nil }
            return r
        }
    }
}
