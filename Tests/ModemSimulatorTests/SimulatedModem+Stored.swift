import ModemSimulator

extension SimulatedModem {
    /// The texts of the SMS-DELIVERs in its memory, in storage order.
    var storedTexts: [String] {
        storedPDUs.compactMap { entry in
            guard case .deliver(let d)? = try? SMSPDU.decode(entry.pdu, direction: .mobileTerminated).tpdu else { return nil }
            return d.userData.text
        }
    }

    /// The status reports in its memory.
    var storedReports: [SMSStatusReport] {
        storedPDUs.compactMap { entry in
            guard case .statusReport(let r)? = try? SMSPDU.decode(entry.pdu, direction: .mobileTerminated).tpdu else { return nil }
            return r
        }
    }
}
