import Foundation
import Glibc
import SystemCalls
import TerminalIO

/// A pseudo-terminal for the prompts: the slave becomes a ``Terminal``, the test types on the
/// master as a person types on a keyboard, and reads back what the terminal showed.
///
/// Type only after the prompt shows: a masked prompt flushes what was typed before echo went
/// off, as a real terminal does.
final class PseudoTerminal: Sendable {
    /// The master side, where the person types and reads.
    private let file: FileDescriptor
    let slavePath: String

    init() throws {
        file = try FileDescriptor.openPseudoTerminal(O_RDWR | O_NOCTTY)
        slavePath = try file.pseudoTerminalPath()
    }

    private var master: Int32 { file.rawValue }

    /// A new ``Terminal`` on the slave side, as ``Terminal/open()`` gives /dev/tty.
    func terminal() -> Terminal? {
        guard let file = try? FileDescriptor.open(slavePath, O_RDWR | O_NOCTTY) else { return nil }
        return Terminal(file: file)
    }

    /// Everything the terminal shows until `text` appears (or `timeout` passes), as text.
    func read(until text: String, timeout: Duration = .seconds(10)) -> String {
        var shown = [UInt8]()
        let deadline = ContinuousClock.now + timeout
        while !String(decoding: shown, as: UTF8.self).contains(text), ContinuousClock.now < deadline {
            var poll = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&poll, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = Glibc.read(master, &buffer, buffer.count)
            if count <= 0 { break }
            shown += buffer.prefix(count)
        }
        return String(decoding: shown, as: UTF8.self)
    }

    /// Types `text` (add "\n" for Enter).
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
    }

    /// Runs `person` on a thread of its own (waiting for prompts and typing) while `body` reads
    /// from the terminal on this one, and returns what `body` returned.
    func withPerson<T>(_ person: @escaping @Sendable (PseudoTerminal) -> Void, _ body: () throws -> T) rethrows -> T {
        let done = DispatchSemaphore(value: 0)
        Thread { [self] in
            person(self)
            done.signal()
        }.start()
        defer { done.wait() }
        return try body()
    }
}
