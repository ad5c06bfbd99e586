import Foundation

/// SMS commands of 3GPP TS 27.005 in PDU mode, and delivery of SMS into the modem's memory.
extension SimulatedModem {
    static let memories = ["SM", "ME"]

    func executeSMS(_ command: ATCommand) -> ATReply {
        switch command.name {
        case "+CMGF":
            return setting(command, query: { "+CMGF: \($0.textMode ? 1 : 0)" }, test: "+CMGF: (0,1)") { s, p in
                guard let mode = p.first, mode == "0" || mode == "1" else { return false }
                s.textMode = mode == "1"
                return true
            }
        case "+CSMS":
            switch command.operation {
            case .read: return .info("+CSMS: 0,1,1,1")
            case .test: return .info("+CSMS: (0)")
            default: return .info("+CSMS: 1,1,1")
            }
        case "+CSCA":
            if case .set(let p) = command.operation {
                guard let raw = p.first, !raw.isEmpty else { return .cms(304) }
                let address = decodeString(raw)
                state.withLock { $0.serviceCentre = address }
                return .ok
            }
            if command.operation == .test { return .ok }
            let centre = state.withLock { $0.serviceCentre }
            return .info("+CSCA: \"\(encodeString(centre))\",\(centre.hasPrefix("+") ? 145 : 129)")
        case "+CSMP":
            return setting(
                command, query: { "+CSMP: " + $0.csmp.map(String.init).joined(separator: ",") },
                test: ""
            ) { s, p in
                for (i, v) in p.prefix(4).enumerated() { if let n = Int(v) { s.csmp[i] = n } }
                return true
            }
        case "+CNMI":
            guard notifications else { return .error }
            // A modem that delivers directly offers only <mt> 0 and 2, so clients choose +CMT.
            let test =
                state.withLock { $0.directDelivery }
                ? "+CNMI: (0-2),(0,2),(0,2),(0-2),(0,1)" : "+CNMI: (0-2),(0-3),(0,2),(0-2),(0,1)"
            return setting(
                command, query: { "+CNMI: " + $0.cnmi.map(String.init).joined(separator: ",") },
                test: test
            ) { s, p in
                for (i, v) in p.prefix(5).enumerated() where !v.isEmpty {
                    guard let n = Int(v) else { return false }
                    s.cnmi[i] = n
                }
                return true
            }
        case "+CNMA":
            return .ok
        case "+CPMS":
            return preferredMemory(command)
        case "+CMGL":
            return listMessages(command)
        case "+CMGR":
            return readMessage(command)
        case "+CMGD":
            return deleteMessages(command)
        case "+CMGS":
            return startSend(command)
        default:
            return .error
        }
    }

    private func memoryStatus(_ s: ModemState, _ memories: [String]) -> String {
        memories.map { "\($0 == "" ? "" : "\"\($0)\",")\(s.count(in: $0)),\(s.capacity)" }.joined(separator: ",")
    }

    private func preferredMemory(_ command: ATCommand) -> ATReply {
        if let error = simLockError() { return error.final == "ERROR" ? .error : .cms(311) }
        switch command.operation {
        case .test:
            return .info("+CPMS: (\"SM\",\"ME\"),(\"SM\",\"ME\"),(\"SM\",\"ME\")")
        case .read, .execute:
            return .info(
                state.withLock { s in
                    "+CPMS: "
                        + [s.readMemory, s.writeMemory, s.receiveMemory]
                        .map { "\"\($0)\",\(s.count(in: $0)),\(s.capacity)" }.joined(separator: ",")
                })
        case .set(let p):
            let wanted = p.map { $0.uppercased() }
            guard !wanted.isEmpty, wanted.allSatisfy({ Self.memories.contains($0) || $0.isEmpty }) else {
                return .cms(302)
            }
            return .info(
                state.withLock { s in
                    if !wanted[0].isEmpty { s.readMemory = wanted[0] }
                    if wanted.count > 1, !wanted[1].isEmpty { s.writeMemory = wanted[1] }
                    if wanted.count > 2, !wanted[2].isEmpty { s.receiveMemory = wanted[2] }
                    return "+CPMS: "
                        + [s.readMemory, s.writeMemory, s.receiveMemory]
                        .map { "\(s.count(in: $0)),\(s.capacity)" }.joined(separator: ",")
                })
        }
    }

    private func listMessages(_ command: ATCommand) -> ATReply {
        if simLockError() != nil { return .cms(311) }
        let textMode = state.withLock { $0.textMode }
        var wanted = 4
        switch command.operation {
        case .test: return .info(textMode ? "+CMGL: (\"REC UNREAD\",\"REC READ\",\"STO UNSENT\",\"STO SENT\",\"ALL\")" : "+CMGL: (0-4)")
        case .read: return .error
        case .execute: wanted = 0
        case .set(let p):
            let value = p.first ?? ""
            guard let n = textMode ? Self.status(named: value) : Int(value), (0...4).contains(n) else {
                return .cms(textMode ? 302 : 304)
            }
            wanted = n
        }
        let listed = state.withLock { s -> [(Int, StoredMessage)] in
            let memory = s.readMemory
            var listed: [(Int, StoredMessage)] = []
            for index in (s.memories[memory] ?? [:]).keys.sorted() {
                guard var message = s.memories[memory]?[index] else { continue }
                guard wanted == 4 || message.status == wanted else { continue }
                listed.append((index, message))
                if message.status == 0 {
                    message.status = 1
                    s.memories[memory]?[index] = message
                }
            }
            return listed
        }
        let lines = listed.flatMap { index, message in
            textMode
                ? textLines(for: message, index: index)
                : ["+CMGL: \(index),\(message.status),,\(message.tpduLength)", message.pduLine]
        }
        return ATReply(lines: lines)
    }

    private func readMessage(_ command: ATCommand) -> ATReply {
        if simLockError() != nil { return .cms(311) }
        guard case .set(let p) = command.operation else { return command.operation == .test ? .ok : .cms(302) }
        guard let index = Int(p.first ?? "") else { return .cms(321) }
        let result = state.withLock { s -> StoredMessage? in
            guard index >= 1, index <= s.capacity, var message = s.memories[s.readMemory]?[index] else { return nil }
            let shown = message
            if message.status == 0 {
                message.status = 1
                s.memories[s.readMemory]?[index] = message
            }
            return shown
        }
        guard let message = result else { return .cms(321) }
        if state.withLock({ $0.textMode }) { return ATReply(lines: textLines(for: message, index: nil)) }
        return .info("+CMGR: \(message.status),,\(message.tpduLength)", message.pduLine)
    }

    private func deleteMessages(_ command: ATCommand) -> ATReply {
        if simLockError() != nil { return .cms(311) }
        switch command.operation {
        case .test:
            return .info("+CMGD: (1-\(state.withLock { $0.capacity })),(0-4)")
        case .read, .execute:
            return .cms(302)
        case .set(let p):
            guard let index = Int(p.first ?? "") else { return .cms(321) }
            let flag = p.count > 1 ? Int(p[1]) ?? 0 : 0
            let deleted = state.withLock { s -> Int in
                let memory = s.readMemory
                let before = s.count(in: memory)
                switch flag {
                case 0:
                    guard index >= 1, index <= s.capacity else { return -1 }
                    s.memories[memory]?[index] = nil
                case 1...4:
                    let keep: (StoredMessage) -> Bool = { m in
                        switch flag {
                        case 1: return m.status != 1
                        case 2: return m.status != 1 && m.status != 3
                        case 3: return m.status == 0
                        default: return false
                        }
                    }
                    s.memories[memory] = (s.memories[memory] ?? [:]).filter { keep($0.value) }
                default:
                    return -1
                }
                return before - s.count(in: memory)
            }
            guard deleted >= 0 else { return .cms(321) }
            if deleted > 0 { network?.flushPending(to: self) }
            return .ok
        }
    }

    func accept(pdu: [UInt8], tpduLength: Int, isStatusReport: Bool) -> Bool {
        enum Outcome {
            case refused
            case stored(String, Int)
            case routed(Int)
        }
        let outcome = state.withLock { s -> Outcome in
            guard s.plugged, s.radioOn, s.lock == .ready else { return .refused }
            // CNMI <ds>=1 and <mt>=2/3 route straight to the client (+CDS, +CMT) without storing.
            if isStatusReport, s.cnmi[3] == 1, notifications, !s.hung {
                return .routed(s.cnmi[3])
            }
            if !isStatusReport, s.cnmi[1] >= 2, notifications, !s.hung {
                s.delivered += 1
                return .routed(s.cnmi[1])
            }
            let memory = s.receiveMemory
            // A full memory refuses silently: libgammu 1.42 knows no unsolicited "storage full"
            // line (+CIEV, ^SMMEMFULL) and takes one that arrives next to a reply for garbage,
            // so clients must watch AT+CPMS instead, as smsgw does.
            guard let index = s.freeIndex(in: memory) else { return .refused }
            s.memories[memory, default: [:]][index] = StoredMessage(status: 0, pdu: pdu, tpduLength: tpduLength)
            if !isStatusReport { s.delivered += 1 }
            return .stored(memory, index)
        }
        switch outcome {
        case .refused:
            return false
        case .routed:
            let code = isStatusReport ? "+CDS: \(tpduLength)" : "+CMT: ,\(tpduLength)"
            sendUnsolicited(code + "\r\n" + Hex.encode(pdu))
            return true
        case .stored(let memory, let index):
            let cnmi = state.withLock { $0.cnmi }
            if isStatusReport {
                if cnmi[3] == 2 { sendUnsolicited("+CDSI: \"\(memory)\",\(index)") }
            } else if cnmi[1] == 1 {
                sendUnsolicited("+CMTI: \"\(memory)\",\(index)")
            }
            return true
        }
    }
}
