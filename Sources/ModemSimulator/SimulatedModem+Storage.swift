import Foundation

/// Shaping the modem's SMS storage from outside: its size, entries a client cannot read, copies of
/// sent SMS, and whether SMS are stored at all or handed straight to the client.
extension SimulatedModem {
    /// SMS each memory (SM and ME) holds. Lowering it below what is stored makes the memory full:
    /// nothing is stored until enough is deleted, and the SMSC holds what arrives meanwhile.
    public var storageCapacity: Int {
        get { state.withLock { $0.capacity } }
        set {
            let grew = state.withLock { s -> Bool in
                defer { s.capacity = max(1, newValue) }
                return newValue > s.capacity
            }
            if grew { network?.flushPending(to: self) }
        }
    }

    /// Whether the modem hands SMS straight to the client (+CMT, AT+CNMI <mt> 2) instead of
    /// storing them and announcing the location (+CMTI). It offers only that mode in `AT+CNMI=?`,
    /// so it applies from the client's next connection; a direct SMS nobody reads is lost, as on
    /// real modems.
    public var deliversDirectly: Bool {
        get { state.withLock { $0.directDelivery } }
        set { state.withLock { $0.directDelivery = newValue } }
    }

    /// Puts one entry into the memory the client reads (AT+CPMS <mem1>) at the lowest free index,
    /// without a notification, as firmware, another program or a fault could leave it.
    /// - Parameters:
    ///   - line: The PDU line +CMGL and +CMGR will show: the hex of an SMSC address and a TPDU,
    ///     or anything else (odd-length hex, a truncated PDU) to test how a client copes.
    ///   - status: `<stat>`: 0 received unread, 1 received read, 2 stored unsent, 3 stored sent
    ///     (the last two are SMS-SUBMIT copies in the outbox folders).
    /// - Returns: The index the entry was stored at.
    /// - Throws: ``SimulatorError`` for a bad status or a full memory.
    @discardableResult
    public func store(line: String, status: Int) throws -> Int {
        guard (0...3).contains(status) else {
            throw SimulatorError("The status \(status) is not a stored SMS status; use 0, 1 (received), 2 or 3 (outbox).")
        }
        let octets = try? Hex.decode(line)
        let pdu = octets ?? []
        let tpduLength = octets.map { max(0, $0.count - 1 - Int($0.first ?? 0)) } ?? line.count / 2
        let message = StoredMessage(status: status, pdu: pdu, tpduLength: tpduLength, rawLine: octets == nil ? line : nil)
        return try state.withLock { s in
            let memory = s.readMemory
            guard let index = s.freeIndex(in: memory) else {
                throw SimulatorError("The memory \(memory) of \(number) is full; delete something or raise its capacity.")
            }
            s.memories[memory, default: [:]][index] = message
            return index
        }
    }
}
