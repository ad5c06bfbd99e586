import Foundation
import Logging
import Synchronization
import SystemCalls

/// One simulated AT modem: a SIM with a number, SMS memory, and a pseudo-terminal that a client
/// such as libgammu's AT driver opens through the stable ``devicePath``.
///
/// Sendable, checked by the compiler: every mutable property lives in the `state` or
/// `terminal` mutex; the rest is immutable after `init` (the network reference is `weak let`).
/// Lock order is state, then terminal; no lock is held while calling into the network.
public final class SimulatedModem: Sendable {
    /// The SIM's number as given, e.g. `+15550001`.
    public let number: String
    /// 1-based position in the network; names the device symlink `modem-<index>`.
    public let index: Int
    let notifications: Bool
    let logger: Logger
    weak let network: SimulatedNetwork?
    let state: Mutex<ModemState>
    let terminal = Mutex<PseudoTerminal?>(nil)
    private let faultPlan = Mutex(FaultPlan())
    private let linkPath: String

    init(
        number: String, index: Int, pin: String?, storageCapacity: Int, notifications: Bool,
        directory: URL, network: SimulatedNetwork, logger: Logger
    ) {
        self.number = number
        self.index = index
        self.notifications = notifications
        self.network = network
        var logger = logger
        logger[metadataKey: SimulatorLog.modem] = "\(number)"
        self.logger = logger
        self.state = Mutex(ModemState(capacity: storageCapacity, pin: pin))
        self.linkPath = directory.appendingPathComponent("modem-\(index)").path
    }

    /// The stable symlink a client opens; it points at the current `/dev/pts/N`, and a replug
    /// repoints it. Absent while the modem is unplugged.
    public var devicePath: String { linkPath }

    /// The faults this modem adds on top of the network's global plan.
    public var faults: FaultPlan {
        get { faultPlan.withLock { $0 } }
        set { faultPlan.withLock { $0 = newValue } }
    }

    /// A hung modem reads and discards everything and answers nothing, like firmware that has
    /// locked up; incoming SMS are still stored, but their notifications are not sent.
    public func setHung(_ hung: Bool) {
        state.withLock {
            $0.hung = hung
            $0.inputBuffer = []
            $0.pendingSend = nil
        }
        logger.info("modem \(hung ? "hung" : "answering again")")
    }

    /// Whether the modem is hung (see ``setHung(_:)``).
    public var isHung: Bool { state.withLock { $0.hung } }

    /// Whether the pseudo-terminal is open.
    public var isPlugged: Bool { state.withLock { $0.plugged } }

    /// Turns the radio off or on as AT+CFUN=0/1 would; with it off, SMS wait at the SMSC and
    /// AT+CMGS answers +CMS ERROR: 331 (no network service).
    public func setRadio(_ on: Bool) {
        state.withLock { $0.radioOn = on }
        if on { network?.flushPending(to: self) }
    }

    /// Whether the radio is on (AT+CFUN=1); with it off, SMS wait at the SMSC.
    public var isRadioOn: Bool { state.withLock { $0.radioOn } }

    /// Closes the pseudo-terminal as if the USB modem were pulled out: the client's next read
    /// fails (EOF/EIO) and ``devicePath`` disappears. SMS for it wait at the SMSC.
    public func unplug() {
        let wasPlugged = state.withLock { s -> Bool in
            defer {
                s.plugged = false
                s.generation += 1
                s.inputBuffer = []
                s.pendingSend = nil
                s.busy = false
            }
            return s.plugged
        }
        guard wasPlugged else { return }
        terminal.withLock {
            $0?.close()
            $0 = nil
        }
        try? FileSystem.remove(linkPath)
        logger.info("modem unplugged")
    }

    /// Opens a new pseudo-terminal and points ``devicePath`` at it, as if the modem were plugged
    /// in again; the modem resets to its power-on settings (PIN asked again if it has one), keeps
    /// its stored SMS, and receives what waited at the SMSC.
    public func replug() throws {
        try plug(reset: true)
        network?.flushPending(to: self)
    }

    /// SMS in the modem's memories (SM and ME).
    public var storedMessageCount: Int {
        state.withLock { s in s.memories.values.reduce(0) { $0 + $1.count } }
    }

    /// SMS-SUBMITs accepted from this modem (answered with +CMGS).
    public var submittedCount: Int { state.withLock { $0.submitted } }

    /// SMS-DELIVERs stored into this modem (status reports not counted).
    public var deliveredCount: Int { state.withLock { $0.delivered } }

    /// The PDUs (SMSC address and TPDU) stored in the modem, by memory and index.
    public var storedPDUs: [(memory: String, index: Int, status: Int, pdu: [UInt8])] {
        state.withLock { s in
            s.memories.keys.sorted().flatMap { memory in
                (s.memories[memory] ?? [:]).keys.sorted().map { index in
                    let m = s.memories[memory]![index]!
                    return (memory, index, m.status, m.pdu)
                }
            }
        }
    }

    /// Polls `condition` every 20 ms until it holds or `timeout` seconds pass.
    /// - Returns: Whether the condition held in time.
    public func waitUntil(timeout: Double, _ condition: @Sendable () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    // MARK: - Terminal lifecycle

    func plug(reset: Bool) throws {
        if isPlugged { return }
        let pty = try PseudoTerminal.open()
        try replaceSymlink(at: linkPath, pointingTo: pty.slavePath)
        let generation = state.withLock { s -> Int in
            if reset { s.resetForPowerOn() }
            s.plugged = true
            s.generation += 1
            return s.generation
        }
        let slavePath = pty.slavePath
        terminal.withLock { $0 = pty }
        logger.info("modem plugged", metadata: [SimulatorLog.pty: "\(slavePath)"])
        let thread = Thread { [self] in self.readLoop(generation: generation, pty: pty) }
        thread.name = "sim-modem-\(index)"
        thread.start()
    }

    func shutdown() {
        unplug()
    }

    private func readLoop(generation: Int, pty: PseudoTerminal) {
        while state.withLock({ $0.generation == generation && $0.plugged }) {
            // A negative descriptor (no inotify) is ignored by poll.
            var descriptors = [
                pollfd(fd: pty.master, events: Int16(POLLIN), revents: 0),
                pollfd(fd: pty.watch, events: Int16(POLLIN), revents: 0),
            ]
            // poll fails only for a bad argument or no memory: the loop looks again.
            guard let ready = try? SystemCall.poll(&descriptors, timeout: .milliseconds(100)), ready > 0 else { continue }
            if descriptors[1].revents != 0 {
                terminal.withLock { current in
                    if current === pty { pty.releaseExclusivityIfIdle() }
                }
            }
            guard descriptors[0].revents != 0 else { continue }
            let chunk: [UInt8]? = state.withLock { s in
                guard s.generation == generation else { return nil }
                return terminal.withLock { $0?.readAvailable() }
            }
            guard let chunk else {
                Thread.sleep(forTimeInterval: 0.05)
                continue
            }
            if !chunk.isEmpty { receive(chunk) }
        }
    }

    /// Writes to the terminal; a no-op while unplugged.
    func write(_ text: String) {
        terminal.withLock { $0?.write(Array(text.utf8)) }
    }

    /// Sends an unsolicited result code now, or after the command being answered.
    func sendUnsolicited(_ text: String) {
        guard notifications else { return }
        let sendNow = state.withLock { s -> Bool in
            guard s.plugged, !s.hung else { return false }
            if s.busy || s.pendingSend != nil || !s.inputBuffer.isEmpty {
                s.heldUnsolicited.append(text)
                return false
            }
            return true
        }
        if sendNow { write("\r\n" + text + "\r\n") }
    }
}

extension ModemState {
    /// Back to power-on settings; memories and counters stay.
    mutating func resetForPowerOn() {
        echo = true
        verbose = true
        cmee = 0
        textMode = false
        characterSet = "GSM"
        cnmi = [2, 1, 0, 2, 0]
        cregMode = 0
        copsFormat = 0
        radioOn = true
        lock = pin == nil || lock == .pukRequired ? (lock == .pukRequired ? .pukRequired : .ready) : .pinRequired
        hung = false
        inputBuffer = []
        pendingSend = nil
        heldUnsolicited = []
        busy = false
    }
}
