/// libgammu's debug output at level "text", taken apart: the modem's answers for evidence, and
/// lines made safe for the trace log.
enum DebugText {
    /// The lines of the modem's answer among captured debug lines: libgammu's AT driver prints
    /// every line of a reply as `N "line"`; the first is the command echo, which is left out.
    static func answer(in captured: [String]) -> [String] {
        var lines: [String] = []
        for line in captured {
            guard let quoted = numberedLine(line) else { continue }
            if quoted.number == 1 { lines.removeAll() }  // a new reply starts
            if quoted.number > 1 { lines.append(quoted.text) }
        }
        return lines.isEmpty ? Array(captured.suffix(8)) : lines
    }

    /// `N "text"` as the AT driver prints reply lines, or nil.
    static func numberedLine(_ line: String) -> (number: Int, text: String)? {
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 3, let number = Int(digits) else { return nil }
        let rest = line.dropFirst(digits.count)
        guard rest.hasPrefix(" \""), rest.hasSuffix("\""), rest.count >= 3 else { return nil }
        return (number, String(rest.dropFirst(2).dropLast()))
    }
}

/// Makes libgammu's debug lines fit for the trace log: no message texts, PDUs, IMSI or IMEI,
/// whatever a modem or an SMS puts there.
///
/// - Frame dumps (`41A|54T|…`, every octet in hex and as a character) are left out whole.
/// - Long runs of hex digits (12 or more: PDUs, UCS-2 strings, IMSI, IMEI, phone numbers) become
///   `<N hex digits>`.
/// - libgammu prints a decoded text on the lines after "… SMS, length N"; those lines are left
///   out until a line libgammu itself writes (an AT reply line, a known message) comes again.
/// - Control characters become `?`, so a hostile text cannot forge log lines or colour a terminal.
struct TraceRedactor {
    private var insideText = false

    /// The line to trace, or nil to leave it out.
    mutating func redact(_ line: String) -> String? {
        if Self.isFrameDump(line) { return nil }
        if insideText {
            guard Self.isDriverLine(line) else { return nil }
            insideText = false
        }
        if line.contains("SMS, length") || line.hasPrefix("Text:") { insideText = true }
        return Self.masked(line)
    }

    /// A line of libgammu's frame dump: cells of two hex digits, the character, and `|`.
    static func isFrameDump(_ line: String) -> Bool {
        let head = Array(line.utf8.prefix(4))
        guard head.count == 4 else { return false }
        return Character(UnicodeScalar(head[0])).isHexDigit && Character(UnicodeScalar(head[1])).isHexDigit
            && head[3] == UInt8(ascii: "|")
    }

    /// Lines libgammu writes itself, as opposed to a text it decoded.
    static func isDriverLine(_ line: String) -> Bool {
        if DebugText.numberedLine(line) != nil { return true }
        return driverPrefixes.contains { line.hasPrefix($0) }
    }

    static let driverPrefixes = [
        "SMS folder", "ATGEN folder", "Getting", "Reading", "Cache status", "SENDING", "Sending", "RECEIVED",
        "Decoding date", "Incoming", "Read ", "No more", "Deleting", "Setting", "SMS type", "SMS center",
        "Type of UDH", "UDH header", "Remote number", "Message type", "Checking", "Enabling", "Disabling",
        "Parsing", "Returning", "Available", "Used :", "Size :", "SMS status", "SMS listing", "Outbox",
        "[", "Waiting", "Trying", "Forcing", "Assuming", "Did not", "Failed", "Uknown", "Unknown", "WARNING",
        "Leaving", "Entering", "AT reply", "Checking line", "Number =", "Number type", "Number Length", "GSM_",
    ]

    static func masked(_ line: String) -> String {
        var out = ""
        var run = ""
        func flush() {
            out += run.count >= 12 ? "<\(run.count) hex digits>" : run
            run = ""
        }
        for character in line {
            if character.isHexDigit {
                run.append(character)
                continue
            }
            flush()
            let isControl = character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
            out.append(isControl ? "?" : character)
        }
        flush()
        return out
    }
}
