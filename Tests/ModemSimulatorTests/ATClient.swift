import Foundation
import ModemSimulator

#if canImport(Glibc)
    import Glibc
#endif

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
