import Foundation
import GSM7

/// Injecting SMS into a modem from outside the simulated network.
extension SimulatedNetwork {
    /// Delivers `text` to the modem `number` as if `sender` had sent it: GSM-7 when it fits, UCS2
    /// otherwise, split into concatenated parts (8-bit reference) when longer than one SMS.
    /// Injected SMS skip the fault plans.
    /// - Throws: ``SimulatorError`` when no modem has that number.
    public func inject(text: String, from sender: String, to number: String) throws {
        guard let destination = modem(number: number) else {
            throw SimulatorError(
                "No simulated modem has the number \(number); check the numbers the simulator's status lists.", category: .notFound)
        }
        let reference = state.withLock { s -> UInt16 in
            s.concatenationReference = (s.concatenationReference &+ 1) & 0xFF
            return s.concatenationReference
        }
        let parts = try Self.split(text: text, reference: reference)
        let now = SMSTimestamp(date: Date())
        var items: [PendingDelivery] = []
        for userData in parts {
            let deliver = SMSDeliver(
                originator: PhoneAddress(sender), userData: userData, serviceCentreTimestamp: now)
            let tpdu = try deliver.encoded()
            let pdu = try PhoneAddress(Self.serviceCentreNumber).encodedSMSC() + tpdu
            items.append(PendingDelivery(pdu: pdu, tpduLength: tpdu.count, isStatusReport: false, from: sender))
        }
        let deliveries = items
        routingQueue.async { [self] in
            for item in deliveries { deliver(item, to: destination, event: "injected") }
        }
    }

    /// Delivers one part of a concatenated SMS (8-bit reference) to the modem `number` as if
    /// `sender` had sent it, whether or not the other parts ever come: what any bulk SMS API lets
    /// a stranger send. Skips the fault plans.
    /// - Parameters:
    ///   - part: This part's number, from 1.
    ///   - total: How many parts the header announces.
    ///   - reference: The reference the parts share (0…255).
    /// - Throws: ``SimulatorError`` for an unknown modem or a part outside 1…total.
    public func inject(part: Int, of total: Int, reference: Int, text: String, from sender: String, to number: String) throws {
        guard let destination = modem(number: number) else {
            throw SimulatorError(
                "No simulated modem has the number \(number); check the numbers the simulator's status lists.", category: .notFound)
        }
        guard (1...255).contains(total), (1...total).contains(part), (0...255).contains(reference) else {
            throw SimulatorError("A part is numbered 1…TOTAL (TOTAL at most 255) with a reference 0…255.", category: .invalidInput)
        }
        let septets = try Array(GSM7.septets(for: text).prefix(153))
        let header = UserDataHeader(
            concatenation: Concatenation(
                reference: UInt16(reference), total: UInt8(total), sequence: UInt8(part)))
        let message = SMSDeliver(
            originator: PhoneAddress(sender), userData: UserData(alphabet: .gsm7, header: header, content: septets),
            serviceCentreTimestamp: SMSTimestamp(date: Date()))
        let tpdu = try message.encoded()
        let item = PendingDelivery(
            pdu: try PhoneAddress(Self.serviceCentreNumber).encodedSMSC() + tpdu, tpduLength: tpdu.count,
            isStatusReport: false, from: sender)
        routingQueue.async { [self] in deliver(item, to: destination, event: "injected") }
    }

    /// Stores a raw PDU in the modem `number`: an SMSC address and an SMS-DELIVER or
    /// SMS-STATUS-REPORT as +CMGR shows them, or such a TPDU alone (the SMSC address is added).
    /// Octets that decode as neither are stored as given, to test how a client copes.
    public func inject(pdu: [UInt8], to number: String) throws {
        guard let destination = modem(number: number) else {
            throw SimulatorError(
                "No simulated modem has the number \(number); check the numbers the simulator's status lists.", category: .notFound)
        }
        var full = pdu
        var tpduLength = max(0, pdu.count - 1 - Int(pdu.first ?? 0))
        var isReport = false
        if let decoded = try? SMSPDU.decode(pdu, direction: .mobileTerminated) {
            if case .statusReport = decoded.tpdu { isReport = true }
        } else if let tpdu = try? TPDU.decode(pdu, direction: .mobileTerminated) {
            if case .statusReport = tpdu { isReport = true }
            full = try PhoneAddress(Self.serviceCentreNumber).encodedSMSC() + pdu
            tpduLength = pdu.count
        }
        let item = PendingDelivery(pdu: full, tpduLength: tpduLength, isStatusReport: isReport, from: "inject")
        routingQueue.async { [self] in deliver(item, to: destination, event: "injected") }
    }

    /// Splits text into the user data of one SMS, or of concatenated parts when it does not fit.
    static func split(text: String, reference: UInt16) throws -> [UserData] {
        if let septets = try? GSM7.septets(for: text) {
            if septets.count <= UserData.maxSeptets { return [UserData(alphabet: .gsm7, content: septets)] }
            var chunks: [[UInt8]] = []
            var current: [UInt8] = []
            var i = 0
            while i < septets.count {
                let width = septets[i] == 0x1B ? 2 : 1
                if current.count + width > 153 {
                    chunks.append(current)
                    current = []
                }
                current += septets[i..<min(i + width, septets.count)]
                i += width
            }
            if !current.isEmpty { chunks.append(current) }
            return concatenated(chunks, alphabet: .gsm7, reference: reference)
        }
        let units = Array(text.utf16)
        let octets: ([UInt16]) -> [UInt8] = { $0.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        if units.count <= 70 { return [UserData(alphabet: .ucs2, content: octets(units))] }
        var chunks: [[UInt8]] = []
        var current: [UInt16] = []
        var i = 0
        while i < units.count {
            let width = UTF16.isLeadSurrogate(units[i]) ? 2 : 1
            if current.count + width > 67 {
                chunks.append(octets(current))
                current = []
            }
            current += units[i..<min(i + width, units.count)]
            i += width
        }
        if !current.isEmpty { chunks.append(octets(current)) }
        return concatenated(chunks, alphabet: .ucs2, reference: reference)
    }

    private static func concatenated(_ chunks: [[UInt8]], alphabet: SMSAlphabet, reference: UInt16) -> [UserData] {
        chunks.enumerated().map { offset, chunk in
            let header = UserDataHeader(
                concatenation: Concatenation(
                    reference: reference, total: UInt8(chunks.count), sequence: UInt8(offset + 1)))
            return UserData(alphabet: alphabet, header: header, content: chunk)
        }
    }
}
