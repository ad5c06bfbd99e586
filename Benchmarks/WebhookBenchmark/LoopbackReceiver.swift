import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The smallest HTTP/1.1 server the benchmark needs: on 127.0.0.1, a thread per connection,
/// keep-alive, every request answered `200` with an empty body. No signature is checked: the
/// benchmark measures the sender.
final class LoopbackReceiver: Sendable {
    let port: Int
    private let listener: Int32
    private let count = Atomic<Int>(0)

    var requests: Int { count.load(ordering: .relaxed) }

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && listen(listener, 64) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { continue }
                Thread.detachNewThread { self.serve(connection) }
            }
        }
    }

    /// Reads requests (headers, then `content-length` bytes) and answers each until the peer closes.
    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let answer = Array("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n".utf8)
        while true {
            while let end = Self.headerEnd(buffer) {
                let headers = String(decoding: buffer[..<end], as: UTF8.self).lowercased()
                let length =
                    headers.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                guard buffer.count >= end + 4 + length else { break }
                buffer.removeFirst(end + 4 + length)
                count.add(1, ordering: .relaxed)
                guard answer.withUnsafeBytes({ write(connection, $0.baseAddress, $0.count) }) == answer.count else { return }
            }
            let read = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { return }
            buffer.append(contentsOf: chunk[..<read])
        }
    }

    /// Where the header block ends (the index of its blank line's `\r\n\r\n`), if it has arrived.
    private static func headerEnd(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}
