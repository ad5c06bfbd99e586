import Foundation

/// Sending in PDU mode (AT+CMGS): the prompt, the PDU typed after it, and its submission to the network.
extension SimulatedModem {
    func startSend(_ command: ATCommand) -> ATReply {
        switch command.operation {
        case .test: return .ok
        case .read, .execute: return .cms(304)
        case .set(let p):
            if simLockError() != nil { return .cms(311) }
            if state.withLock({ $0.textMode }) {
                guard let destination = p.first, !destination.isEmpty else { return .cms(304) }
                state.withLock { $0.pendingSend = PendingSend(length: 0, textDestination: destination) }
                return .prompt
            }
            guard let length = Int(p.first ?? ""), (1...176).contains(length) else { return .cms(304) }
            state.withLock { $0.pendingSend = PendingSend(length: length) }
            return .prompt
        }
    }

    /// Handles the PDU typed after the "> " prompt: decode, hand to the SMSC, answer +CMGS.
    func finishSend(_ text: [UInt8]) -> ATReply {
        let (length, destination) = state.withLock { ($0.pendingSend?.length ?? 0, $0.pendingSend?.textDestination) }
        if let destination {
            guard let submit = textModeSubmit(destination: destination, typed: text),
                let tpdu = try? submit.encoded()
            else { return .cms(304) }
            return submitToNetwork([0x00] + tpdu, submit)
        }
        let hex = String(decoding: text, as: UTF8.self)
        guard let octets = try? Hex.decode(hex), let smscLength = octets.first,
            octets.count == Int(smscLength) + 1 + length
        else {
            logger.warning("AT+CMGS PDU does not match its length", metadata: [SimulatorLog.pdu: "\(hex)"])
            return .cms(304)
        }
        let submit: SMSSubmit
        do {
            guard case .submit(let s) = try SMSPDU.decode(octets, direction: .mobileOriginated).tpdu else {
                return .cms(304)
            }
            submit = s
        } catch {
            logger.warning("undecodable SMS-SUBMIT", metadata: [SimulatorLog.error: "\(error)"])
            network?.traffic.append(
                from: number, to: "", direction: "submit", pdu: octets, event: "undecodable",
                detail: "\(error)")
            return .cms(304)
        }
        return submitToNetwork(octets, submit)
    }

    /// Hands a decoded SMS-SUBMIT to the SMSC and answers +CMGS with the reference or +CMS ERROR.
    func submitToNetwork(_ octets: [UInt8], _ submit: SMSSubmit) -> ATReply {
        guard state.withLock({ $0.radioOn }) else { return .cms(331) }
        let reference = state.withLock { s -> UInt8 in
            defer { s.nextMessageReference &+= 1 }
            return s.nextMessageReference
        }
        if let code = network?.submit(from: self, pdu: octets, submit: submit, reference: reference) {
            return .cms(code)
        }
        state.withLock { $0.submitted += 1 }
        return .info("+CMGS: \(reference)")
    }

    /// Stores an SMS-DELIVER or SMS-STATUS-REPORT arriving from the SMSC and notifies the client.
    /// - Returns: `false` when the modem cannot take it now (unplugged, radio off, PIN not entered,
    ///   memory full): the SMSC keeps it and tries again later.
}
