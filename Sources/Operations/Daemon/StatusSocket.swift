public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The running daemon's status socket, `DATA_DIR/smsgw.serve.sock`: how `smsgw status` learns the
/// daemon's health, modem states, queue counts and contacts' sync states without the passphrase
/// and without an Argon2 unlock.
///
/// The socket is a Unix stream socket, mode 0600 and owned by the service user, inside the 0700
/// data directory; it exists while `smsgw serve` runs (it is made after the store is unlocked and
/// removed at shutdown). The protocol is one request, one answer:
///
/// 1. The client sends one request line: a word in ASCII ending in LF, at most
///    ``maximumRequestLength`` bytes. Today the word is `status`; later requests (such as a
///    `wake` from `smsgw send`) are new words.
/// 2. The daemon answers one line of JSON (``DaemonReply``) and closes the connection:
///    `{"version":1,"status":{…}}` with the ``GatewayStatus`` that `smsgw status --json` prints,
///    or `{"version":1,"error":"…"}` for a request it does not know. Clients ignore keys they do
///    not know, so the reply can grow.
///
/// Nothing secret crosses it: no texts, keys, codes or ciphertexts, only what `status` shows.
public enum StatusSocket {
    /// The socket's file name inside the data directory.
    public static let fileName = "smsgw.serve.sock"
    /// The version of the reply's shape.
    public static let version = 1
    /// The longest request line read.
    package static let maximumRequestLength = 256
    /// The longest reply a client reads.
    static let maximumReplyLength = 16 << 20

    /// The requests the daemon answers.
    public enum Request: String, Sendable, CaseIterable {
        /// The ``GatewayStatus`` of the running daemon.
        case status
    }

    /// The socket's path for a data directory.
    public static func path(in directory: URL) -> String {
        directory.appendingPathComponent(fileName).path
    }

    /// The JSON coding of replies on the wire: sorted keys, dates as seconds since 1970.
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    /// Runs `body` with a `sockaddr` for `path`, or returns nil when the path does not fit
    /// `sun_path` (108 bytes with its NUL on Linux).
    package static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Sets the send and receive timeouts of a connected socket, so a stuck peer cannot hold it.
    package static func setTimeouts(_ fd: Int32, seconds: Double) {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        let size = socklen_t(MemoryLayout<timeval>.size)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, size)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, size)
    }

    /// Writes all of `bytes`; false when the peer went away or the send timeout passed.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Reads until `stop` says the bytes are complete, EOF, `limit` bytes or the receive timeout.
    package static func read(_ fd: Int32, limit: Int, until stop: ([UInt8]) -> Bool) -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.count < limit, !stop(received) {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received += chunk[0..<count]
        }
        return received
    }
}

/// One answer of the status socket.
public struct DaemonReply: Sendable, Equatable, Codable {
    /// ``StatusSocket/version``.
    public var version: Int
    /// The daemon's status, for a `status` request.
    public var status: GatewayStatus?
    /// Why the request was not answered, in a sentence.
    public var error: String?

    public init(status: GatewayStatus? = nil, error: String? = nil) {
        self.version = StatusSocket.version
        self.status = status
        self.error = error
    }
}
