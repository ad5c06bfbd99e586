import Foundation

/// The control commands, one line each; the control socket and `smsgw sim ctl` use them.
extension SimulatedNetwork {
    /// The commands ``handleControl(_:)`` understands.
    public static let controlHelp = """
        status | drop P [NUMBER] | duplicate P [NUMBER] | corrupt P [NUMBER] | \
        delay MIN MAX [NUMBER] | delay off [NUMBER] | senderror CODE P [NUMBER] | senderror off [NUMBER] | \
        clear [NUMBER] | hang NUMBER on|off | unplug NUMBER | replug NUMBER | \
        inject FROM TO TEXT… | injectpart FROM TO REF PART TOTAL TEXT… | injectpdu TO HEX | \
        store NUMBER STAT LINE | capacity NUMBER N | delivery NUMBER stored|direct | help
        """

    /// Runs one control command and returns its one-line answer: `OK`, `ERROR <reason>`, or JSON.
    /// A trailing NUMBER applies a fault to that modem; without it, to the global plan.
    public func handleControl(_ line: String) -> String {
        let words = line.trimmingSpaces.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let verb = words.first?.lowercased() else { return "ERROR empty command; try help" }
        let args = Array(words.dropFirst())
        do {
            switch verb {
            case "status":
                return statusJSON()
            case "help":
                return "OK " + Self.controlHelp
            case "drop", "duplicate", "corrupt":
                guard (1...2).contains(args.count), let p = Double(args[0]), (0...1).contains(p) else {
                    return "ERROR usage: \(verb) PROBABILITY(0-1) [NUMBER]"
                }
                try updateFaults(args.count == 2 ? args[1] : nil) { plan in
                    switch verb {
                    case "drop": plan.dropRate = p
                    case "duplicate": plan.duplicateRate = p
                    default: plan.corruptRate = p
                    }
                }
            case "delay":
                if args.first == "off" {
                    try updateFaults(args.count > 1 ? args[1] : nil) { $0.delay = nil }
                } else {
                    guard (2...3).contains(args.count), let low = Double(args[0]), let high = Double(args[1]),
                        low >= 0, high >= low
                    else { return "ERROR usage: delay MIN MAX [NUMBER] (seconds) or delay off [NUMBER]" }
                    try updateFaults(args.count == 3 ? args[2] : nil) { $0.delay = low...high }
                }
            case "senderror":
                if args.first == "off" {
                    try updateFaults(args.count > 1 ? args[1] : nil) { $0.sendError = nil }
                } else {
                    guard (2...3).contains(args.count), let code = Int(args[0]), let p = Double(args[1]),
                        (0...1).contains(p)
                    else { return "ERROR usage: senderror CMS-CODE PROBABILITY [NUMBER] or senderror off [NUMBER]" }
                    try updateFaults(args.count == 3 ? args[2] : nil) {
                        $0.sendError = SendErrorFault(cmsCode: code, probability: p)
                    }
                }
            case "clear":
                try clearFaults(args.first)
            case "hang":
                guard args.count == 2, ["on", "off"].contains(args[1]) else { return "ERROR usage: hang NUMBER on|off" }
                try requireModem(args[0]).setHung(args[1] == "on")
            case "unplug":
                guard args.count == 1 else { return "ERROR usage: unplug NUMBER" }
                try requireModem(args[0]).unplug()
            case "replug":
                guard args.count == 1 else { return "ERROR usage: replug NUMBER" }
                try requireModem(args[0]).replug()
            case "inject":
                guard args.count >= 3 else { return "ERROR usage: inject FROM TO TEXT" }
                let text = Self.restOfLine(line, after: 3)
                try inject(text: text, from: args[0], to: args[1])
            case "injectpart":
                guard args.count >= 6, let reference = Int(args[2]), let part = Int(args[3]), let total = Int(args[4]) else {
                    return "ERROR usage: injectpart FROM TO REFERENCE PART TOTAL TEXT"
                }
                try inject(
                    part: part, of: total, reference: reference, text: Self.restOfLine(line, after: 6),
                    from: args[0], to: args[1])
            case "store":
                guard args.count == 3, let status = Int(args[1]) else {
                    return "ERROR usage: store NUMBER STAT(0-3) PDU-LINE"
                }
                let index = try requireModem(args[0]).store(line: args[2], status: status)
                return "OK \(index)"
            case "capacity":
                guard args.count == 2, let capacity = Int(args[1]), capacity >= 1 else {
                    return "ERROR usage: capacity NUMBER N (N at least 1)"
                }
                try requireModem(args[0]).storageCapacity = capacity
            case "delivery":
                guard args.count == 2, ["stored", "direct"].contains(args[1]) else {
                    return "ERROR usage: delivery NUMBER stored|direct"
                }
                try requireModem(args[0]).deliversDirectly = args[1] == "direct"
            case "injectpdu":
                guard args.count == 2 else { return "ERROR usage: injectpdu TO HEX" }
                try inject(pdu: Hex.decode(args[1]), to: args[0])
            default:
                return "ERROR unknown command '\(verb)'; try help"
            }
            return "OK"
        } catch {
            return "ERROR \(error)"
        }
    }

    private func requireModem(_ number: String) throws -> SimulatedModem {
        guard let modem = modem(number: number) else {
            throw SimulatorError("no modem has the number \(number)", category: .notFound)
        }
        return modem
    }

    /// Every fault off: the fault plans, hung firmware and unplugged ports, of one modem (with the
    /// network's global plan left alone) or of the whole network.
    private func clearFaults(_ number: String?) throws {
        let targets = try number.map { [try requireModem($0)] } ?? modems
        if number == nil { faults = FaultPlan() }
        for modem in targets {
            modem.faults = FaultPlan()
            if modem.isHung { modem.setHung(false) }
            if !modem.isPlugged { try modem.replug() }
        }
    }

    private func updateFaults(_ number: String?, _ change: (inout FaultPlan) -> Void) throws {
        if let number {
            let modem = try requireModem(number)
            var plan = modem.faults
            change(&plan)
            modem.faults = plan
        } else {
            var plan = faults
            change(&plan)
            faults = plan
        }
    }

    /// The text after the first `count` words, spacing kept.
    private static func restOfLine(_ line: String, after count: Int) -> String {
        var rest = Substring(line.trimmingSpaces)
        for _ in 0..<count {
            rest = rest.drop { $0 != " " }.drop { $0 == " " }
        }
        return String(rest)
    }

    /// The network as one line of JSON.
    public func statusJSON() -> String {
        struct ModemStatus: Encodable {
            var number, device: String
            var plugged, hung, radio: Bool
            var stored, submitted, delivered, pending: Int
            var faults: FaultPlan
        }
        struct Status: Encodable {
            var modems: [ModemStatus]
            var faults: FaultPlan
            var controlSocket, trafficLog: String
        }
        let status = Status(
            modems: modems.map {
                ModemStatus(
                    number: $0.number, device: $0.devicePath, plugged: $0.isPlugged, hung: $0.isHung,
                    radio: $0.isRadioOn, stored: $0.storedMessageCount, submitted: $0.submittedCount,
                    delivered: $0.deliveredCount, pending: pendingCount(for: $0), faults: $0.faults)
            },
            faults: faults, controlSocket: controlSocketPath, trafficLog: trafficLogPath)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(status) else { return "ERROR could not encode status" }
        return String(decoding: data, as: UTF8.self)
    }
}
