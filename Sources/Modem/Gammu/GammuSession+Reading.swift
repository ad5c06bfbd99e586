import CGammu

extension GammuSession {
    // MARK: Reading

    /// Every entry in every folder (SIM and phone memory).
    ///
    /// First the fast `GSM_GetNextSMS` loop (one AT+CMGL listing per memory). When that fails for
    /// a reason other than the link (one stored entry libgammu cannot decode makes every listing
    /// fail), every location is read on its own with `GSM_GetSMS`, so one bad entry costs only
    /// itself: it comes back in ``StorageListing/unreadable`` with the modem's answer as evidence.
    func readStorage() throws(ModemError) -> StorageListing {
        try requireConnection()
        let (listing, failure) = try listStorage()
        guard failure != nil else { return listing }
        return try readEachLocation()
    }

    /// The `GSM_GetNextSMS` loop; the error that stopped it early, unless it was the link's.
    private func listStorage() throws(ModemError) -> (StorageListing, GSM_Error?) {
        let multi = Self.allocateMulti()
        defer { multi.deallocate() }
        var listing = StorageListing()
        var start = true
        // The previous answer in `multi` tells libgammu where to continue, so it is not cleared.
        for _ in 0..<10_000 {
            context.resetErrors()
            let result = GSM_GetNextSMS(machine, multi, start ? 1 : 0)
            start = false
            if result == ERR_EMPTY { return (listing, nil) }
            guard result == ERR_NONE else {
                if Self.isLinkFailure(result) { try check(result, "reading messages") }
                return (listing, result)
            }
            Self.add(multi, to: &listing)
        }
        return (listing, nil)
    }

    /// Reads location after location of each memory, as far as AT+CPMS says it reaches.
    private func readEachLocation() throws(ModemError) -> StorageListing {
        var status = GSM_SMSMemoryStatus()
        context.resetErrors()
        try check(GSM_GetSMSStatus(machine, &status), "reading how full the message storage is")
        var listing = StorageListing(usage: Self.usage(status))
        let multi = Self.allocateMulti()
        defer { multi.deallocate() }
        // libgammu's flat numbering: SIM locations from 1, phone memory from 100 001.
        let memories: [(base: Int, size: Int, memory: StoredMessage.Memory)] = [
            (0, Int(status.SIMSize), .sim), (Int(GSM_PHONE_MAXSMSINFOLDER), Int(status.PhoneSize), .phone),
        ]
        for (base, size, memory) in memories where size > 0 {
            for index in 1...min(size, 1000) {
                UnsafeMutableRawPointer(multi).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<GSM_MultiSMSMessage>.size)
                let parts = Self.parts(of: multi)
                parts.pointee.Folder = 0
                parts.pointee.Location = Int32(base + index)
                multi.pointee.Number = 1
                context.resetErrors()
                context.capture = []
                let result = GSM_GetSMS(machine, multi)
                let captured = context.capture ?? []
                context.capture = nil
                switch result {
                case ERR_NONE:
                    Self.add(multi, to: &listing)
                case ERR_EMPTY, ERR_INVALIDLOCATION:
                    continue
                default:
                    if Self.isLinkFailure(result) { try check(result, "reading messages") }
                    let location = StoredMessage.Location(folder: 0, index: base + index, memory: memory)
                    listing.unreadable.append(Self.unreadable(at: location, captured: captured, error: result))
                }
            }
        }
        return listing
    }

    /// Reads one message by location (after a +CMTI/+CDSI announcement); `nil` when it is empty,
    /// unreadable or an outbox copy (the next full read reports those).
    func read(folder: Int, location: Int) throws(ModemError) -> StoredMessage? {
        try requireConnection()
        let multi = Self.allocateMulti()
        defer { multi.deallocate() }
        let parts = Self.parts(of: multi)
        parts.pointee.Folder = Int32(folder)
        parts.pointee.Location = Int32(location)
        multi.pointee.Number = 1
        context.resetErrors()
        let result = GSM_GetSMS(machine, multi)
        if result == ERR_EMPTY || result == ERR_INVALIDLOCATION { return nil }
        if result != ERR_NONE, !Self.isLinkFailure(result) { return nil }
        try check(result, "reading a message")
        var listing = StorageListing()
        Self.add(multi, to: &listing)
        return listing.messages.first
    }

    /// How full each memory is (AT+CPMS).
    func usage() throws(ModemError) -> StorageUsage {
        try requireConnection()
        var status = GSM_SMSMemoryStatus()
        context.resetErrors()
        try check(GSM_GetSMSStatus(machine, &status), "reading how full the message storage is")
        return Self.usage(status)
    }

    /// Deletes the entry at `location`.
    func delete(_ location: StoredMessage.Location) throws(ModemError) {
        try requireConnection()
        let message = UnsafeMutablePointer<GSM_SMSMessage>.allocate(capacity: 1)
        defer { message.deallocate() }
        UnsafeMutableRawPointer(message).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<GSM_SMSMessage>.size)
        // Locations read back are libgammu's flat numbers (phone memory from 100 001); only
        // folder 0 makes its AT driver split them into memory and index again.
        message.pointee.Folder = 0
        message.pointee.Location = Int32(location.index)
        message.pointee.Memory = Self.memoryType(location.memory)
        context.resetErrors()
        try check(GSM_DeleteSMS(machine, message), "deleting the message at \(location)")
    }

    // MARK: Helpers

    /// Errors that say the link failed (or the call was cut short), not that an entry is bad.
    static func isLinkFailure(_ error: GSM_Error) -> Bool {
        switch error {
        case ERR_TIMEOUT, ERR_ABORTED, ERR_CANCELED, ERR_NOTCONNECTED, ERR_DEVICEREADERROR, ERR_DEVICEWRITEERROR,
            ERR_DEVICENOTEXIST, ERR_DEVICEOPENERROR, ERR_DEVICEDTRRTSERROR, ERR_DEVICECHANGESPEEDERROR,
            ERR_DEVICEPARITYERROR, ERR_NOSIM, ERR_SECURITYERROR, ERR_MOREMEMORY:
            return true
        default:
            return false
        }
    }

    /// Sorts what libgammu returned into received messages and outbox copies.
    private static func add(_ multi: UnsafeMutablePointer<GSM_MultiSMSMessage>, to listing: inout StorageListing) {
        let parts = Self.parts(of: multi)
        for index in 0..<min(Int(multi.pointee.Number), Int(GSM_MAX_MULTI_SMS)) {
            let sms = parts + index
            if sms.pointee.PDU == SMS_Submit {
                listing.outboxCopies.append(Self.location(of: sms))
            } else {
                listing.messages.append(Self.stored(sms))
            }
        }
    }

    private static func usage(_ status: GSM_SMSMemoryStatus) -> StorageUsage {
        StorageUsage(
            simUsed: Int(status.SIMUsed), simSize: Int(status.SIMSize),
            phoneUsed: Int(status.PhoneUsed), phoneSize: Int(status.PhoneSize))
    }

    private static func allocateMulti() -> UnsafeMutablePointer<GSM_MultiSMSMessage> {
        let multi = UnsafeMutablePointer<GSM_MultiSMSMessage>.allocate(capacity: 1)
        UnsafeMutableRawPointer(multi).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<GSM_MultiSMSMessage>.size)
        return multi
    }

    static func parts(of multi: UnsafeMutablePointer<GSM_MultiSMSMessage>) -> UnsafeMutablePointer<GSM_SMSMessage> {
        let offset = MemoryLayout<GSM_MultiSMSMessage>.offset(of: \GSM_MultiSMSMessage.SMS)!
        return (UnsafeMutableRawPointer(multi) + offset).assumingMemoryBound(to: GSM_SMSMessage.self)
    }
}
