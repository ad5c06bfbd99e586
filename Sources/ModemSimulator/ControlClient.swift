import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Sends commands to a running simulator's control socket (what `smsgw sim ctl` does).
public enum ControlClient {
    /// Sends one command line and returns the one-line answer without its newline.
    /// - Parameters:
    ///   - command: For example `drop 0.1 +15550001` or `status`.
    ///   - socketPath: The network's ``SimulatedNetwork/controlSocketPath``.
    ///   - timeout: Seconds to wait for the answer.
    /// - Throws: ``SimulatorError`` when nothing listens there or no answer comes in time.
    public static func send(_ command: String, socketPath: String, timeout: Double = 10) throws -> String {
        let socket: FileDescriptor
        do throws(SystemCallError) {
            socket = try UnixSocket.connect(to: socketPath)
        } catch  where error.code == ENAMETOOLONG {
            throw SimulatorError("The control socket path \(socketPath) is too long.", category: .invalidInput)
        } catch {
            throw SimulatorError("No simulator answers at \(socketPath) (\(error.reason)); start the simulator in that directory first.")
        }
        let line = Array((command.replacingOccurrences(of: "\n", with: " ") + "\n").utf8)
        _ = try? socket.sendAll(line)
        var answer: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard socket.isReadable(within: .milliseconds(100)) else { continue }
            guard let chunk = try? socket.read(upTo: 4096), !chunk.isEmpty else { break }
            answer += chunk
            if let newline = answer.firstIndex(of: 0x0A) {
                return String(decoding: answer[..<newline], as: UTF8.self)
            }
        }
        throw SimulatorError("The simulator at \(socketPath) did not answer within \(Int(timeout)) s.")
    }
}
