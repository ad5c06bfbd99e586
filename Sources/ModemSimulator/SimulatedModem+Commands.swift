import GSM7

/// General commands of 3GPP TS 27.007: identification, SIM, network, radio.
extension SimulatedModem {
    static let manufacturer = "SMSGW-SIM"
    static let model = "SimModem 1"
    static let revision = "1.0.0"
    static let operatorName = "SIMNET"
    static let operatorCode = "00101"

    /// A 15-digit IMEI derived from the number, with a valid Luhn check digit.
    var imei: String {
        let digits = number.filter(\.isNumber)
        let body = "35" + String(String(repeating: "0", count: 12) + digits).suffix(12)
        return body + String(Self.luhnCheckDigit(body))
    }

    /// A 15-digit IMSI on the test network 001-01.
    var imsi: String {
        let digits = number.filter(\.isNumber)
        return Self.operatorCode + String(String(repeating: "0", count: 10) + digits).suffix(10)
    }

    static func luhnCheckDigit(_ digits: String) -> Int {
        var sum = 0
        for (offset, c) in digits.reversed().enumerated() {
            var d = Int(String(c)) ?? 0
            if offset % 2 == 0 {
                d *= 2
                if d > 9 { d -= 9 }
            }
            sum += d
        }
        return (10 - sum % 10) % 10
    }

    /// A string parameter in the character set AT+CSCS chose: UCS2 and HEX are hex digits.
    func encodeString(_ text: String) -> String {
        switch state.withLock({ $0.characterSet }) {
        case "UCS2":
            return text.utf16.map { Hex.encode([UInt8($0 >> 8), UInt8($0 & 0xFF)]) }.joined()
        case "HEX":
            return Hex.encode((try? GSM7.septets(for: text)) ?? Array(text.utf8))
        default:
            return text
        }
    }

    /// A string parameter from the client, decoded from the AT+CSCS character set.
    func decodeString(_ text: String) -> String {
        let charset = state.withLock { $0.characterSet }
        guard charset == "UCS2" || charset == "HEX", let octets = try? Hex.decode(text), !octets.isEmpty else {
            return text
        }
        if charset == "HEX" { return (try? GSM7.text(from: octets)) ?? text }
        guard octets.count % 2 == 0 else { return text }
        let units = stride(from: 0, to: octets.count, by: 2).map { UInt16(octets[$0]) << 8 | UInt16(octets[$0 + 1]) }
        return String(decoding: units, as: UTF16.self)
    }

    /// `+CME ERROR` as AT+CMEE asks: plain ERROR, a number, or words.
    func cme(_ code: Int) -> ATReply {
        let mode = state.withLock { $0.cmee }
        switch mode {
        case 0: return .error
        case 2: return ATReply(final: "+CME ERROR: \(Self.cmeText[code] ?? "unknown")")
        default: return ATReply(final: "+CME ERROR: \(code)")
        }
    }

    static let cmeText: [Int: String] = [
        3: "operation not allowed", 4: "operation not supported", 10: "SIM not inserted",
        11: "SIM PIN required", 12: "SIM PUK required", 16: "incorrect password", 21: "invalid index",
        30: "no network service", 100: "unknown",
    ]

    /// A SIM-dependent command while the PIN (or PUK) is still needed.
    func simLockError() -> ATReply? {
        switch state.withLock({ $0.lock }) {
        case .ready: return nil
        case .pinRequired: return cme(11)
        case .pukRequired: return cme(12)
        }
    }

    func executeExtended(_ text: Substring) -> ATReply {
        let command = ATCommand(text)
        switch command.name {
        case "+CMEE":
            return setting(command, query: { "+CMEE: \($0.cmee)" }, test: "+CMEE: (0-2)") { s, p in
                guard let v = Int(p.first ?? ""), (0...2).contains(v) else { return false }
                s.cmee = v
                return true
            }
        case "+CGMI", "+GMI":
            return command.operation == .test ? .ok : .info(Self.manufacturer)
        case "+CGMM", "+GMM":
            return command.operation == .test ? .ok : .info(Self.model)
        case "+CGMR", "+GMR":
            return command.operation == .test ? .ok : .info(Self.revision)
        case "+CGSN", "+GSN":
            return command.operation == .test ? .ok : .info(imei)
        case "+CIMI":
            if command.operation == .test { return .ok }
            return simLockError() ?? .info(imsi)
        case "+CSCS":
            return setting(
                command, query: { "+CSCS: \"\($0.characterSet)\"" },
                test: "+CSCS: (\"GSM\",\"IRA\",\"UCS2\",\"HEX\",\"8859-1\")"
            ) { s, p in
                let set = (p.first ?? "").uppercased()
                guard ["GSM", "IRA", "UCS2", "HEX", "8859-1", "PCCP437"].contains(set) else { return false }
                s.characterSet = set
                return true
            }
        case "+CPIN":
            return pinCommand(command)
        case "+CSQ":
            if command.operation == .test { return .info("+CSQ: (0-31,99),(0-7,99)") }
            return .info(state.withLock { $0.radioOn } ? "+CSQ: 24,99" : "+CSQ: 99,99")
        case "+CREG", "+CGREG", "+CEREG":
            return registration(command)
        case "+COPS":
            return operatorCommand(command)
        case "+CFUN":
            return radioCommand(command)
        case "+CGATT":
            switch command.operation {
            case .test: return .info("+CGATT: (0,1)")
            case .set: return .ok
            default: return .info("+CGATT: \(state.withLock { $0.radioOn } ? 1 : 0)")
            }
        case "+CLIP", "+CRC", "+CLIR":
            return command.operation == .read ? .info("\(command.name): 0,1") : .ok
        case "+CBC":
            return .info("+CBC: 0,100")
        case "+CCLK":
            if command.operation == .read {
                let t = SMSTimestamp(date: .now)
                func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
                return .info(
                    "+CCLK: \"\(two(t.year % 100))/\(two(t.month))/\(two(t.day)),\(two(t.hour)):\(two(t.minute)):\(two(t.second))+00\"")
            }
            return .ok
        default:
            return executeSMS(command)
        }
    }

    /// Read, test and set for a simple setting stored in the state.
    func setting(
        _ command: ATCommand, query: (ModemState) -> String, test: String,
        set: (inout ModemState, [String]) -> Bool
    ) -> ATReply {
        switch command.operation {
        case .read: return .info(state.withLock { query($0) })
        case .test: return .info(test)
        case .execute: return .ok
        case .set(let p): return state.withLock { set(&$0, p) } ? .ok : cme(4)
        }
    }

    private func pinCommand(_ command: ATCommand) -> ATReply {
        switch command.operation {
        case .read, .execute:
            switch state.withLock({ $0.lock }) {
            case .ready: return .info("+CPIN: READY")
            case .pinRequired: return .info("+CPIN: SIM PIN")
            case .pukRequired: return .info("+CPIN: SIM PUK")
            }
        case .test:
            return .ok
        case .set(let p):
            let entered = p.first ?? ""
            enum Outcome {
                case ok
                case wrong(left: Int)
                case notNeeded, puk
            }
            let outcome = state.withLock { s -> Outcome in
                switch s.lock {
                case .ready: return .notNeeded
                case .pukRequired: return .puk
                case .pinRequired:
                    if entered == s.pin {
                        s.lock = .ready
                        s.pinAttempts = 3
                        return .ok
                    }
                    s.pinAttempts -= 1
                    if s.pinAttempts <= 0 { s.lock = .pukRequired }
                    return .wrong(left: s.pinAttempts)
                }
            }
            switch outcome {
            case .ok:
                logger.info("PIN accepted")
                network?.flushPending(to: self)
                return .ok
            case .wrong(let left):
                logger.warning("wrong PIN entered", metadata: [SimulatorLog.attemptsLeft: "\(left)"])
                return cme(16)
            case .notNeeded:
                return cme(3)
            case .puk:
                return cme(12)
            }
        }
    }

    private func registration(_ command: ATCommand) -> ATReply {
        let name = command.name
        switch command.operation {
        case .test:
            return .info("\(name): (0-2)")
        case .set(let p):
            guard let n = Int(p.first ?? ""), (0...2).contains(n) else { return cme(4) }
            if name == "+CREG" { state.withLock { $0.cregMode = n } }
            return .ok
        case .read, .execute:
            let (mode, on, lock) = state.withLock { ($0.cregMode, $0.radioOn, $0.lock) }
            let stat = on && lock == .ready ? 1 : 0
            if mode == 2, stat == 1 {
                return .info("\(name): 2,1,\"00C3\",\"1A2B\"")
            }
            return .info("\(name): \(name == "+CREG" ? mode : 0),\(stat)")
        }
    }

    private func operatorCommand(_ command: ATCommand) -> ATReply {
        switch command.operation {
        case .test:
            return .info("+COPS: (2,\"\(Self.operatorName)\",\"\(Self.operatorName)\",\"\(Self.operatorCode)\"),,(0-4),(0-2)")
        case .set(let p):
            if p.count >= 2, p[0] == "3", let format = Int(p[1]), (0...2).contains(format) {
                state.withLock { $0.copsFormat = format }
            }
            return .ok
        case .read, .execute:
            let (format, on) = state.withLock { ($0.copsFormat, $0.radioOn) }
            guard on else { return .info("+COPS: 0") }
            let name = format == 2 ? Self.operatorCode : encodeString(Self.operatorName)
            return .info("+COPS: 0,\(format),\"\(name)\"")
        }
    }

    private func radioCommand(_ command: ATCommand) -> ATReply {
        switch command.operation {
        case .test:
            return .info("+CFUN: (0,1,4),(0-1)")
        case .read, .execute:
            return .info("+CFUN: \(state.withLock { $0.radioOn } ? 1 : 0)")
        case .set(let p):
            guard let fun = Int(p.first ?? ""), [0, 1, 4].contains(fun) else { return cme(4) }
            let reset = p.count > 1 && p[1] == "1"
            state.withLock { s in
                s.radioOn = fun == 1
                if reset { s.resetForPowerOn() }
            }
            logger.info("radio \(fun == 1 ? "on" : "off")")
            if fun == 1 { network?.flushPending(to: self) }
            return .ok
        }
    }
}
