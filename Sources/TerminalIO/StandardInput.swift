import Glibc
import Synchronization
import SystemCalls

/// Every read of stdin, with a bound: lines and the rest of it, read from the descriptor below
/// C's buffered streams.
///
/// Swift's `readLine` grows its line until a newline comes, so a mistaken pipe (`< /dev/zero`, a
/// binary file) filled memory before anything could refuse it. Here no line and no rest is held
/// past ``TextInput/inputLimit`` bytes. What was read ahead of a line stays in ``buffer``, so the
/// prompts' look at what waits (``TextInput/inputPending()``) asks here first, then the descriptor.
enum StandardInput {
    /// What was read from the descriptor and not handed out yet, and whether it ended.
    private struct State {
        var buffer: [UInt8] = []
        var ended = false
    }

    private static let state = Mutex(State())
    /// Bytes asked of the descriptor at once (a terminal hands over one line per read anyway).
    private static let chunk = 1 << 16

    /// The next line without its LF or CRLF; nil at the end of input.
    ///
    /// - Throws: ``TerminalInputError/inputTooLong(limit:)`` when more than `limit` bytes come
    ///   without a line break; the rest is left unread.
    static func line(limit: Int) throws(TerminalInputError) -> String? {
        try state.withLock { state throws(TerminalInputError) -> String? in
            var searched = 0
            while true {
                if let end = state.buffer[searched...].firstIndex(of: 0x0A) {
                    guard end <= limit else { throw .inputTooLong(limit: limit) }
                    var line = Array(state.buffer[..<end])
                    state.buffer.removeSubrange(...end)
                    if line.last == 0x0D { line.removeLast() }
                    return String(decoding: line, as: UTF8.self)
                }
                searched = state.buffer.count
                guard searched <= limit else { throw .inputTooLong(limit: limit) }
                guard fill(&state) else {
                    defer { state.buffer = [] }
                    return state.buffer.isEmpty ? nil : String(decoding: state.buffer, as: UTF8.self)
                }
            }
        }
    }

    /// Everything left on stdin, as it came.
    ///
    /// - Throws: ``TerminalInputError/inputTooLong(limit:)`` once more than `limit` bytes came,
    ///   without waiting for the rest.
    static func rest(limit: Int) throws(TerminalInputError) -> String {
        try state.withLock { state throws(TerminalInputError) -> String in
            while fill(&state) {
                guard state.buffer.count <= limit else { throw .inputTooLong(limit: limit) }
            }
            guard state.buffer.count <= limit else { throw .inputTooLong(limit: limit) }
            defer { state.buffer = [] }
            return String(decoding: state.buffer, as: UTF8.self)
        }
    }

    /// Whether a whole line was read ahead and waits here.
    static var holdsLine: Bool {
        state.withLock { $0.buffer.contains(0x0A) }
    }

    /// Forgets what was read ahead (the rest of a paste the prompt did not take).
    static func discard() {
        state.withLock { $0.buffer = [] }
    }

    /// Reads one chunk onto the buffer; false at the end of input (or a descriptor that cannot be
    /// read, which ends the input as it did for `readLine`).
    private static func fill(_ state: inout State) -> Bool {
        guard !state.ended else { return false }
        var bytes = [UInt8](repeating: 0, count: chunk)
        let count = (try? SystemCall.run("read") { bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) } }) ?? 0
        guard count > 0 else {
            state.ended = true
            return false
        }
        state.buffer += bytes[..<count]
        return true
    }
}
