import Foundation
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// One pseudo-terminal pair: the master side the simulated modem reads and writes, and the
/// slave side (`/dev/pts/N`) a client such as libgammu opens as its serial port.
///
/// Sendable: the descriptors are owned behind a mutex and closed once; ``SimulatedModem`` still
/// serialises reads, writes and close under its terminal lock, and stops polling the numbers
/// once the terminal is closed.
final class PseudoTerminal: Sendable {
    /// The master's number, for `poll` only; reads, writes and the close go through ``files``.
    let master: Int32
    let slavePath: String
    /// An inotify descriptor's number, for `poll` only (-1 if none): it reports clients opening
    /// and closing ``slavePath``; call ``releaseExclusivityIfIdle()`` when it is readable.
    let watch: Int32
    /// Clients that have the slave open now, as counted from the inotify events.
    private let clients = Mutex(0)
    /// The open descriptors; nil once closed.
    private let files: Mutex<Files?>

    private struct Files: ~Copyable {
        let master: FileDescriptor
        /// Kept open by the simulator so that the master does not see a hang-up (and poll does not
        /// spin) between one client closing the port and the next opening it.
        let slave: FileDescriptor
        let watch: FileDescriptor?

        /// The inotify descriptor's number, -1 without one.
        var watchNumber: Int32 {
            switch watch {
            case .some(let watch): watch.rawValue
            case .none: -1
            }
        }
    }

    private init(files: consuming Files, slavePath: String) {
        master = files.master.rawValue
        watch = files.watchNumber
        self.slavePath = slavePath
        self.files = Mutex(files)
    }

    /// Opens a new pair in raw mode (no echo, no line editing, no CR/LF translation).
    /// - Throws: ``SimulatorError`` naming the call that failed; nothing is left open.
    static func open() throws -> PseudoTerminal {
        do throws(SystemCallError) {
            let master = try FileDescriptor.openPseudoTerminal(O_RDWR | O_NOCTTY)
            let path = try master.pseudoTerminalPath()
            let slave = try FileDescriptor.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
            if var attributes = try? slave.terminalAttributes() {
                cfmakeraw(&attributes)
                cfsetispeed(&attributes, speed_t(B115200))
                cfsetospeed(&attributes, speed_t(B115200))
                try? slave.setTerminalAttributes(attributes)
            }
            try master.setNonBlocking()
            // Watched after our own open, so only clients are counted.
            let watch = watchOpenings(of: path)
            return PseudoTerminal(files: Files(master: master, slave: slave, watch: watch), slavePath: path)
        } catch {
            throw SimulatorError(error.description)
        }
    }

    /// An inotify descriptor reporting opens and closes of `path`, or nil when there is none.
    private static func watchOpenings(of path: String) -> FileDescriptor? {
        guard let raw = try? SystemCall.run("inotify_init1", path: path, { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }) else {
            return nil
        }
        let watch = FileDescriptor(owning: raw, path: path)
        let events = UInt32(IN_OPEN | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE)
        guard (try? SystemCall.run("inotify_add_watch", path: path, { inotify_add_watch(raw, path, events) })) != nil else {
            return nil
        }
        return watch
    }

    /// Runs `body` with the open descriptors; nil once the terminal is closed.
    private func withFiles<T>(_ body: (borrowing Files) -> T) -> T? {
        files.withLock { files in
            switch files {
            case .some(let open): body(open)
            case .none: nil
            }
        }
    }

    /// Reads the open and close events of the slave; once the last client closed it, clears the
    /// exclusive-use flag (TIOCEXCL) that libgammu set when it opened the port.
    ///
    /// The kernel clears that flag only when the last descriptor of the terminal closes, and the
    /// simulator keeps one open, so without this only root (which TIOCEXCL does not stop) could
    /// open a simulated modem a second time: a restarted `serve`, or gammu after smsgw.
    func releaseExclusivityIfIdle() {
        _ = withFiles { files in
            let sawClose: Bool
            switch files.watch {
            case .some(let watch): sawClose = countClients(from: watch)
            case .none: return
            }
            if sawClose, clients.withLock({ $0 == 0 }) {
                let slave = files.slave.rawValue
                _ = try? SystemCall.run("ioctl", path: slavePath) { ioctl(slave, UInt(TIOCNXCL)) }
            }
        }
    }

    /// Reads the pending inotify events and counts the clients; returns whether one closed.
    private func countClients(from watch: borrowing FileDescriptor) -> Bool {
        let header = MemoryLayout<inotify_event>.size
        var sawClose = false
        while let buffer = try? watch.read(upTo: 4096), buffer.count >= header {
            var offset = 0
            while offset + header <= buffer.count {
                let (mask, nameLength) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.mask, Int(event.len))
                }
                clients.withLock { count in
                    if mask & UInt32(IN_OPEN) != 0 { count += 1 }
                    if mask & UInt32(IN_CLOSE_WRITE | IN_CLOSE_NOWRITE) != 0 {
                        count = max(0, count - 1)
                        sawClose = true
                    }
                }
                offset += header + nameLength
            }
        }
        return sawClose
    }

    /// Writes all bytes it can; drops the rest when nobody drains the terminal (as a modem would),
    /// after a few milliseconds at most, so a port nobody reads never stalls the SMSC.
    func write(_ bytes: [UInt8]) {
        _ = withFiles { files in
            var offset = 0
            var spins = 0
            while offset < bytes.count {
                let written: Int?
                do {
                    written = try files.master.write(bytes[offset...])
                } catch {
                    return
                }
                if let written, written > 0 {
                    offset += written
                } else if spins < 5 {
                    spins += 1
                    Thread.sleep(forTimeInterval: 0.001)
                } else {
                    return
                }
            }
        }
    }

    /// Reads what is available without blocking; `nil` on end of file or error.
    func readAvailable() -> [UInt8]? {
        withFiles { files -> [UInt8]? in
            do {
                guard let bytes = try files.master.read(upTo: 4096) else { return [] }
                return bytes.isEmpty ? nil : bytes
            } catch {
                return nil
            }
        } ?? nil
    }

    func close() {
        _ = files.withLock { $0.take() }
    }
}

/// Points `link` at `target` atomically (a temporary link renamed over the old one), so a client
/// never sees the path missing during a replug.
func replaceSymlink(at link: String, pointingTo target: String) throws {
    let temporary = link + ".tmp-\(getpid())"
    do throws(SystemCallError) {
        try FileSystem.remove(temporary)
        try FileSystem.symbolicLink(at: temporary, to: target)
        do {
            try FileSystem.rename(temporary, to: link)
        } catch {
            try? FileSystem.remove(temporary)
            throw error
        }
    } catch {
        throw SimulatorError(error.description)
    }
}
