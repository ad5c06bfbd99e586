import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One pseudo-terminal pair: the master side the simulated modem reads and writes, and the
/// slave side (`/dev/pts/N`) a client such as libgammu opens as its serial port.
///
/// Sendable: the descriptors are immutable and `closed` is behind a mutex; ``SimulatedModem``
/// still serialises reads, writes and close under its terminal lock so a descriptor is never
/// used after it is closed and reused.
final class PseudoTerminal: Sendable {
    let master: Int32
    /// Kept open by the simulator so that the master does not see a hang-up (and poll does not spin)
    /// between one client closing the port and the next opening it.
    let slave: Int32
    let slavePath: String
    /// An inotify descriptor that reports clients opening and closing ``slavePath`` (-1 if none);
    /// poll it and call ``releaseExclusivityIfIdle()`` when it is readable.
    let watch: Int32
    /// Clients that have the slave open now, as counted from the inotify events.
    private let clients = Mutex(0)
    private let isClosed = Mutex(false)
    private var closed: Bool { isClosed.withLock { $0 } }

    private init(master: Int32, slave: Int32, slavePath: String, watch: Int32) {
        self.master = master
        self.slave = slave
        self.slavePath = slavePath
        self.watch = watch
    }

    /// Opens a new pair in raw mode (no echo, no line editing, no CR/LF translation).
    static func open() throws -> PseudoTerminal {
        let master = PTYCalls.openpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw SimulatorError.posix("posix_openpt") }
        guard PTYCalls.grantpt(master) == 0, PTYCalls.unlockpt(master) == 0 else {
            let error = SimulatorError.posix("grantpt/unlockpt")
            Glibc.close(master)
            throw error
        }
        var name = [CChar](repeating: 0, count: 128)
        guard PTYCalls.ptsname(master, &name, name.count) == 0 else {
            let error = SimulatorError.posix("ptsname_r")
            Glibc.close(master)
            throw error
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard slave >= 0 else {
            let error = SimulatorError.posix("open \(path)")
            Glibc.close(master)
            throw error
        }
        var attributes = termios()
        if tcgetattr(slave, &attributes) == 0 {
            cfmakeraw(&attributes)
            cfsetispeed(&attributes, speed_t(B115200))
            cfsetospeed(&attributes, speed_t(B115200))
            tcsetattr(slave, TCSANOW, &attributes)
        }
        let flags = fcntl(master, F_GETFL)
        _ = fcntl(master, F_SETFL, flags | O_NONBLOCK)
        // Watched after our own open, so only clients are counted.
        var watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if watch >= 0, inotify_add_watch(watch, path, UInt32(IN_OPEN | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE)) < 0 {
            Glibc.close(watch)
            watch = -1
        }
        return PseudoTerminal(master: master, slave: slave, slavePath: path, watch: watch)
    }

    /// Reads the open and close events of the slave; once the last client closed it, clears the
    /// exclusive-use flag (TIOCEXCL) that libgammu set when it opened the port.
    ///
    /// The kernel clears that flag only when the last descriptor of the terminal closes, and the
    /// simulator keeps one open, so without this only root (which TIOCEXCL does not stop) could
    /// open a simulated modem a second time: a restarted `serve`, or gammu after smsgw.
    func releaseExclusivityIfIdle() {
        guard !closed, watch >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var sawClose = false
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(watch, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
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
        if sawClose, clients.withLock({ $0 == 0 }) {
            _ = ioctl(slave, UInt(TIOCNXCL))
        }
    }

    /// Writes all bytes it can; drops the rest when nobody drains the terminal (as a modem would),
    /// after a few milliseconds at most, so a port nobody reads never stalls the SMSC.
    func write(_ bytes: [UInt8]) {
        guard !closed else { return }
        var offset = 0
        var spins = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            if n > 0 {
                offset += n
            } else if n < 0, errno == EAGAIN || errno == EINTR, spins < 5 {
                spins += 1
                usleep(1000)
            } else {
                return
            }
        }
    }

    /// Reads what is available without blocking; `nil` on end of file or error.
    func readAvailable() -> [UInt8]? {
        guard !closed else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
        if n > 0 { return Array(buffer[0..<n]) }
        if n < 0, errno == EAGAIN || errno == EINTR { return [] }
        return nil
    }

    func close() {
        let wasOpen = isClosed.withLock { c -> Bool in
            defer { c = true }
            return !c
        }
        guard wasOpen else { return }
        if watch >= 0 { Glibc.close(watch) }
        Glibc.close(slave)
        Glibc.close(master)
    }

    deinit {
        close()
    }
}

/// The POSIX pseudo-terminal calls, looked up at run time: Glibc's Swift module hides them behind
/// `_XOPEN_SOURCE`, but every glibc exports them.
private enum PTYCalls {
    typealias IntCall = @convention(c) (Int32) -> Int32
    typealias OpenCall = @convention(c) (Int32) -> Int32
    typealias NameCall = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    private static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            fatalError("glibc does not export \(name)")
        }
        return unsafeBitCast(pointer, to: type)
    }

    static let openpt = symbol("posix_openpt", as: OpenCall.self)
    static let grantpt = symbol("grantpt", as: IntCall.self)
    static let unlockpt = symbol("unlockpt", as: IntCall.self)
    static let ptsname = symbol("ptsname_r", as: NameCall.self)
}

/// Points `link` at `target` atomically (a temporary link renamed over the old one), so a client
/// never sees the path missing during a replug.
func replaceSymlink(at link: String, pointingTo target: String) throws {
    let temporary = link + ".tmp-\(getpid())"
    unlink(temporary)
    guard symlink(target, temporary) == 0 else { throw SimulatorError.posix("symlink \(temporary)") }
    guard rename(temporary, link) == 0 else {
        let error = SimulatorError.posix("rename \(temporary)")
        unlink(temporary)
        throw error
    }
}
