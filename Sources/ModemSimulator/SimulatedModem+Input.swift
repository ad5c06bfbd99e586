import Foundation

extension SimulatedModem {
    /// Handles bytes from the client: echo, line assembly, the PDU after a "> " prompt.
    func receive(_ bytes: [UInt8]) {
        var output: [UInt8] = []
        var lines: [String] = []
        var pduEnd: (text: [UInt8], cancelled: Bool)?
        let discarded = state.withLock { s -> Bool in
            if s.hung { return true }
            for byte in bytes {
                if s.pendingSend != nil {
                    if byte == 0x1A || byte == 0x1B {
                        pduEnd = (s.pendingSend!.buffer, byte == 0x1B)
                        // The rest of the chunk belongs to the next command; rare, so handled simply.
                        continue
                    }
                    if pduEnd == nil {
                        s.pendingSend!.buffer.append(byte)
                        if s.echo { output.append(byte) }
                    }
                    continue
                }
                switch byte {
                case 0x0D:
                    if s.echo { output.append(byte) }
                    lines.append(String(decoding: s.inputBuffer, as: UTF8.self))
                    s.inputBuffer = []
                case 0x0A, 0x1A, 0x1B, 0x00:
                    continue
                default:
                    if s.echo { output.append(byte) }
                    if s.inputBuffer.count < 4096 { s.inputBuffer.append(byte) }
                }
            }
            s.busy = true
            return false
        }
        if discarded { return }
        if !output.isEmpty { terminal.withLock { $0?.write(output) } }
        if let pduEnd {
            let reply = pduEnd.cancelled ? ATReply.ok : finishSend(pduEnd.text)
            state.withLock { $0.pendingSend = nil }
            write(format(reply))
        }
        for line in lines {
            let reply = execute(line: line)
            if let reply { write(format(reply)) }
            if reply?.final == nil, reply != nil { break }
        }
        let held = state.withLock { s -> [String] in
            s.busy = false
            guard s.pendingSend == nil, s.inputBuffer.isEmpty else { return [] }
            defer { s.heldUnsolicited = [] }
            return s.heldUnsolicited
        }
        for text in held { write("\r\n" + text + "\r\n") }
    }

    func format(_ reply: ATReply) -> String {
        var out = ""
        if !reply.lines.isEmpty { out += "\r\n" + reply.lines.joined(separator: "\r\n") + "\r\n" }
        if let final = reply.final {
            out += "\r\n" + final + "\r\n"
        } else {
            out += "\r\n> "
        }
        return out
    }

    /// Runs one command line ("AT..."); `nil` for a line that is not a command.
    func execute(line rawLine: String) -> ATReply? {
        let line = rawLine.trimmingSpaces
        guard line.count >= 2, line.prefix(2).uppercased() == "AT" else {
            if !line.isEmpty { logger.debug("ignored non-AT line", metadata: [SimulatorLog.line: "\(line)"]) }
            return nil
        }
        var body = Substring(line.dropFirst(2))
        logger.trace("AT command", metadata: [SimulatorLog.command: "\(line)"])
        // Basic commands (E1, V1, Z, &F, I …) come first; extended ones (+X) follow, split by ';'.
        var infos: [String] = []
        while let c = body.first, !"+^*$%".contains(c) {
            guard let reply = executeBasic(&body) else { return ATReply(lines: infos, final: "ERROR") }
            infos += reply.lines
        }
        if body.isEmpty { return ATReply(lines: infos) }
        for command in splitExtended(body) {
            let reply = executeExtended(command)
            infos += reply.lines
            if reply.final != "OK" { return ATReply(lines: infos, final: reply.final) }
        }
        return ATReply(lines: infos)
    }

    /// Executes one basic command at the start of `body` and removes it.
    private func executeBasic(_ body: inout Substring) -> ATReply? {
        guard let letter = body.first?.uppercased() else { return .ok }
        body = body.dropFirst()
        var name = letter
        if letter == "&", let next = body.first {
            name += next.uppercased()
            body = body.dropFirst()
        }
        let digits = body.prefix { $0.isNumber }
        body = body.dropFirst(digits.count)
        let value = Int(digits) ?? 0
        switch name {
        case "E":
            state.withLock { $0.echo = value != 0 }
            return .ok
        case "V":
            state.withLock { $0.verbose = value != 0 }
            return .ok
        case "Z", "&F":
            state.withLock { s in
                s.echo = true
                s.cmee = 0
                s.textMode = false
                s.characterSet = "GSM"
            }
            return .ok
        case "I":
            return value == 0 ? .info("SMSGW-SIM SimModem 1") : .info("SMSGW-SIM SimModem 1, revision 1.0.0")
        case "Q", "X", "&C", "&D", "&K", "&W", "S", "L", "M":
            if name == "S" {
                // S-registers: ATS0=0, ATS3?…; swallow "=n" or "?".
                let rest = body.prefix { $0 == "=" || $0 == "?" || $0.isNumber }
                body = body.dropFirst(rest.count)
            }
            return .ok
        default:
            return nil
        }
    }

    /// Splits `+CMGF=0;+CSCS="GSM"` at semicolons outside quotes.
    private func splitExtended(_ body: Substring) -> [Substring] {
        var parts: [Substring] = []
        var start = body.startIndex
        var quoted = false
        var index = body.startIndex
        while index < body.endIndex {
            let c = body[index]
            if c == "\"" { quoted.toggle() }
            if c == ";", !quoted {
                parts.append(body[start..<index])
                start = body.index(after: index)
            }
            index = body.index(after: index)
        }
        parts.append(body[start..<body.endIndex])
        return parts.map { $0.hasPrefix("+") || $0.hasPrefix("^") ? $0 : "+" + $0 }.filter { $0 != "+" }
    }
}
