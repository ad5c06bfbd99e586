import GSM7

/// TP-UD with its header: the text (or octets) of an SMS and how it is coded.
public struct UserData: Sendable, Equatable, Hashable {
    public var alphabet: SMSAlphabet
    public var header: UserDataHeader?
    /// Septets (one per element, escapes included) for GSM-7; octets for 8-bit and UCS2.
    public var content: [UInt8]

    /// Most septets (GSM-7) or octets (8-bit, UCS2) one SMS carries, header included.
    public static let maxSeptets = 160
    public static let maxOctets = 140

    public init(alphabet: SMSAlphabet, header: UserDataHeader? = nil, content: [UInt8]) {
        self.alphabet = alphabet
        self.header = header
        self.content = content
    }

    /// Encodes text, choosing GSM-7 when every character fits and UCS2 otherwise unless
    /// `alphabet` says which.
    /// - Throws: ``PDUError/unencodableText(_:)`` when the text does not fit the alphabet or one SMS.
    public init(text: String, alphabet: SMSAlphabet? = nil, header: UserDataHeader? = nil) throws(PDUError) {
        let chosen = alphabet ?? ((try? GSM7.septets(for: text)) != nil ? .gsm7 : .ucs2)
        let content: [UInt8]
        switch chosen {
        case .gsm7:
            do { content = try GSM7.septets(for: text) } catch { throw .unencodableText("\(error)") }
        case .ucs2:
            content = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case .eightBit:
            content = Array(text.utf8)
        }
        self.init(alphabet: chosen, header: header, content: content)
        let size = self.length
        guard size <= (chosen == .gsm7 ? Self.maxSeptets : Self.maxOctets) else {
            throw .unencodableText("\(size) \(chosen == .gsm7 ? "septets" : "octets") exceed one SMS")
        }
    }

    /// The text, or `nil` for 8-bit data and malformed content.
    public var text: String? {
        switch alphabet {
        case .gsm7:
            return try? GSM7.text(from: content)
        case .ucs2:
            guard content.count % 2 == 0 else { return nil }
            var units: [UInt16] = []
            var i = 0
            while i < content.count {
                units.append(UInt16(content[i]) << 8 | UInt16(content[i + 1]))
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        case .eightBit:
            return nil
        }
    }

    /// Octets of the header including TP-UDHL (0 without a header).
    private var headerOctets: [UInt8] { header?.encoded ?? [] }

    /// Padding bits after the header so the first septet starts on a septet boundary.
    static func fillBits(headerOctetCount: Int) -> Int {
        headerOctetCount == 0 ? 0 : (7 - (headerOctetCount * 8) % 7) % 7
    }

    /// TP-UDL: septets (GSM-7, header counted in septets with its fill bits) or octets.
    public var length: Int {
        let h = headerOctets.count
        switch alphabet {
        case .gsm7: return (h * 8 + Self.fillBits(headerOctetCount: h)) / 7 + content.count
        default: return h + content.count
        }
    }

    /// The TP-UDL octet and the TP-UD octets.
    public func encoded() throws(PDUError) -> (length: UInt8, octets: [UInt8]) {
        let udl = length
        guard udl <= (alphabet == .gsm7 ? Self.maxSeptets : Self.maxOctets) else {
            throw .invalid(field: "TP-UDL", reason: "\(udl) exceeds one SMS")
        }
        let h = headerOctets
        switch alphabet {
        case .gsm7:
            return (UInt8(udl), h + GSM7.pack(content, fillBits: Self.fillBits(headerOctetCount: h.count)))
        default:
            return (UInt8(udl), h + content)
        }
    }

    /// Decodes TP-UD given TP-UDL, the alphabet and TP-UDHI.
    static func decode(
        length udl: Int, octets: [UInt8], alphabet: SMSAlphabet, hasHeader: Bool
    ) throws(PDUError) -> UserData {
        let octetCount = alphabet == .gsm7 ? (udl * 7 + 7) / 8 : udl
        guard udl <= (alphabet == .gsm7 ? maxSeptets : maxOctets) else {
            throw .invalid(field: "TP-UDL", reason: "\(udl) exceeds one SMS")
        }
        guard octets.count >= octetCount else { throw .truncated(field: "TP-UD") }
        let ud = Array(octets.prefix(octetCount))
        var header: UserDataHeader?
        var headerCount = 0
        if hasHeader {
            let decoded = try UserDataHeader.decode(ud)
            header = decoded
            headerCount = 1 + Int(ud[0])
        }
        switch alphabet {
        case .gsm7:
            let fill = fillBits(headerOctetCount: headerCount)
            let headerSeptets = (headerCount * 8 + fill) / 7
            guard udl >= headerSeptets else {
                throw .invalid(field: "TP-UDL", reason: "shorter than the user data header")
            }
            let septets = GSM7.unpack(Array(ud[headerCount...]), count: udl - headerSeptets, fillBits: fill)
            return UserData(alphabet: .gsm7, header: header, content: septets)
        default:
            guard udl >= headerCount else {
                throw .invalid(field: "TP-UDL", reason: "shorter than the user data header")
            }
            return UserData(alphabet: alphabet, header: header, content: Array(ud[headerCount...]))
        }
    }
}
