import Foundation

/// The SMSC: accepts SMS-SUBMITs, applies faults, routes SMS-DELIVERs with store and forward, and
/// returns status reports.
///
/// An SMS to a number no modem has is accepted (+CMGS answers normally, as a real network does)
/// and, if the sender asked for a report, answered with a status report whose TP-ST is 0x44
/// ("not obtainable", permanent). A dropped SMS vanishes without a report.
extension SimulatedNetwork {
    /// Fault decisions for one submitted SMS, drawn together so a seed replays a scenario.
    struct RoutingDecision {
        var drop = false
        var duplicate = false
        var delays: [Double] = [0]
        var corruptionDraw: UInt64?
    }

    /// Called by a modem for AT+CMGS; returns a +CMS ERROR code to answer with, or `nil` if accepted.
    func submit(from sender: SimulatedModem, pdu: [UInt8], submit: SMSSubmit, reference: UInt8) -> Int? {
        let modemPlan = sender.faults
        let destination = modem(number: submit.destination.description)
        let destinationPlan = destination?.faults ?? .none
        let (error, decision) = state.withLock { s -> (Int?, RoutingDecision) in
            for plan in [modemPlan, s.faults] {
                if let fault = plan.sendError, s.random.chance(fault.probability) { return (fault.cmsCode, .init()) }
            }
            var d = RoutingDecision()
            let plans = [s.faults, modemPlan, destinationPlan]
            d.drop = plans.contains { s.random.chance($0.dropRate) }
            d.duplicate = plans.contains { s.random.chance($0.duplicateRate) }
            if plans.contains(where: { s.random.chance($0.corruptRate) }) { d.corruptionDraw = s.random.next() }
            let range = destinationPlan.delay ?? modemPlan.delay ?? s.faults.delay
            d.delays = (0..<(d.duplicate ? 2 : 1)).map { _ in
                guard let range, range.upperBound > 0 else { return 0 }
                return Double.random(in: range, using: &s.random)
            }
            return (nil, d)
        }
        let to = submit.destination.description
        if let error {
            traffic.append(
                from: sender.number, to: to, direction: "submit", pdu: pdu, event: "cms-error",
                detail: "+CMS ERROR: \(error)")
            logger.info("SMS-SUBMIT refused by fault injection", metadata: [SimulatorLog.cms: "\(error)"])
            return error
        }
        traffic.append(
            from: sender.number, to: to, direction: "submit", pdu: pdu, event: "accepted",
            detail: "mr=\(reference)")
        let submitted = SMSTimestamp(date: Date())
        routingQueue.async { [self] in
            route(submit, from: sender, reference: reference, submitted: submitted, decision: decision)
        }
        return nil
    }

    private func route(
        _ submit: SMSSubmit, from sender: SimulatedModem, reference: UInt8, submitted: SMSTimestamp,
        decision: RoutingDecision
    ) {
        let to = submit.destination.description
        let report =
            submit.statusReportRequest
            ? ReportRequest(sender: sender, reference: reference, recipient: submit.destination, submitted: submitted)
            : nil
        guard let destination = modem(number: to) else {
            traffic.append(from: sender.number, to: to, direction: "deliver", pdu: [], event: "unknown-number")
            logger.info("SMS to an unknown number", metadata: [SimulatorLog.to: "\(to)"])
            if let report { sendStatusReport(report, status: SMSStatusReport.Status.notObtainable) }
            return
        }
        var userData = submit.userData
        var event = "stored"
        if let draw = decision.corruptionDraw {
            userData = Self.corrupt(userData, draw: draw)
            event = "corrupted"
        }
        var message = SMSDeliver(
            originator: PhoneAddress(sender.number), userData: userData, serviceCentreTimestamp: submitted,
            protocolIdentifier: submit.protocolIdentifier, statusReportIndication: submit.statusReportRequest)
        message.dataCoding = submit.dataCoding
        guard let tpdu = try? message.encoded(),
            let smsc = try? PhoneAddress(Self.serviceCentreNumber).encodedSMSC()
        else { return }
        if decision.drop {
            traffic.append(from: sender.number, to: to, direction: "deliver", pdu: smsc + tpdu, event: "dropped")
            return
        }
        for (copy, delay) in decision.delays.enumerated() {
            let item = PendingDelivery(
                pdu: smsc + tpdu, tpduLength: tpdu.count, isStatusReport: false, from: sender.number,
                report: copy == 0 ? report : nil)
            let copyEvent = copy == 0 ? event : "duplicated"
            if delay > 0 {
                routingQueue.asyncAfter(deadline: .now() + delay) { [self] in
                    deliver(item, to: destination, event: copyEvent)
                }
            } else {
                deliver(item, to: destination, event: copyEvent)
            }
        }
    }

    /// Stores into the destination or queues at the SMSC; runs on ``routingQueue``.
    func deliver(_ item: PendingDelivery, to destination: SimulatedModem, event: String) {
        let key = Self.normalise(destination.number)
        let waiting = state.withLock { !($0.pending[key] ?? []).isEmpty }
        let direction = item.isStatusReport ? "status-report" : "deliver"
        if !waiting, destination.accept(pdu: item.pdu, tpduLength: item.tpduLength, isStatusReport: item.isStatusReport) {
            traffic.append(from: item.from, to: destination.number, direction: direction, pdu: item.pdu, event: event)
            if let report = item.report { sendStatusReport(report, status: SMSStatusReport.Status.delivered) }
            return
        }
        state.withLock { $0.pending[key, default: []].append(item) }
        traffic.append(from: item.from, to: destination.number, direction: direction, pdu: item.pdu, event: "queued")
    }

    /// Tries again to deliver what waits at the SMSC for `modem` (after a delete, a replug, the
    /// radio coming on or the PIN being entered).
    func flushPending(to modem: SimulatedModem) {
        routingQueue.async { [self] in
            let key = Self.normalise(modem.number)
            while let item = state.withLock({ $0.pending[key]?.first }) {
                guard modem.accept(pdu: item.pdu, tpduLength: item.tpduLength, isStatusReport: item.isStatusReport)
                else { return }
                state.withLock { _ = $0.pending[key]?.removeFirst() }
                traffic.append(
                    from: item.from, to: modem.number,
                    direction: item.isStatusReport ? "status-report" : "deliver",
                    pdu: item.pdu, event: "forwarded")
                if let report = item.report { sendStatusReport(report, status: SMSStatusReport.Status.delivered) }
            }
        }
    }

    /// SMS waiting at the SMSC for this modem.
    public func pendingCount(for modem: SimulatedModem) -> Int {
        let key = Self.normalise(modem.number)
        return state.withLock { $0.pending[key]?.count ?? 0 }
    }

    private func sendStatusReport(_ request: ReportRequest, status: UInt8) {
        let report = SMSStatusReport(
            messageReference: request.reference, recipient: request.recipient,
            serviceCentreTimestamp: request.submitted, dischargeTime: SMSTimestamp(date: Date()), status: status)
        guard let tpdu = try? report.encoded(),
            let smsc = try? PhoneAddress(Self.serviceCentreNumber).encodedSMSC()
        else { return }
        let item = PendingDelivery(
            pdu: smsc + tpdu, tpduLength: tpdu.count, isStatusReport: true, from: Self.serviceCentreNumber,
            report: nil)
        deliver(item, to: request.sender, event: "stored")
    }

    /// Changes one character of the text: a septet, a UTF-16 unit or an octet, never into an escape.
    static func corrupt(_ userData: UserData, draw: UInt64) -> UserData {
        var data = userData
        switch data.alphabet {
        case .gsm7:
            let candidates = data.content.indices.filter { i in
                data.content[i] != 0x1B && (i == 0 || data.content[i - 1] != 0x1B)
            }
            guard !candidates.isEmpty else { return data }
            let i = candidates[Int(draw % UInt64(candidates.count))]
            let old = data.content[i]
            data.content[i] = old == 0x58 ? 0x59 : 0x58  // 'X', or 'Y' where it was 'X'
        case .ucs2:
            let units = data.content.count / 2
            guard units > 0 else { return data }
            let i = Int(draw % UInt64(units)) * 2
            let isX = data.content[i] == 0 && data.content[i + 1] == 0x58
            data.content[i] = 0
            data.content[i + 1] = isX ? 0x59 : 0x58
        case .eightBit:
            guard !data.content.isEmpty else { return data }
            data.content[Int(draw % UInt64(data.content.count))] ^= 0x01
        }
        return data
    }
}
