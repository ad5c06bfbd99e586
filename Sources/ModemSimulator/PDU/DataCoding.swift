/// The character set of the user data, as TP-DCS announces it (3GPP TS 23.038 §4).
public enum SMSAlphabet: Sendable, Equatable, Hashable {
    /// GSM 03.38 default alphabet, septets packed; up to 160 per SMS.
    case gsm7
    /// Raw octets; up to 140 per SMS.
    case eightBit
    /// UTF-16 big endian (UCS2 with surrogates, as handsets send it); up to 70 units per SMS.
    case ucs2
}

/// A TP-DCS octet and what it says.
public struct DataCodingScheme: Sendable, Equatable, Hashable {
    /// The octet as sent.
    public var rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The general data coding value for an alphabet with no message class: 0x00, 0x04 or 0x08.
    public init(alphabet: SMSAlphabet, messageClass: UInt8? = nil) {
        var value: UInt8
        switch alphabet {
        case .gsm7: value = 0x00
        case .eightBit: value = 0x04
        case .ucs2: value = 0x08
        }
        if let messageClass { value |= 0x10 | (messageClass & 0x03) }
        self.rawValue = value
    }

    /// The alphabet; reserved values read as GSM-7, as the specification asks.
    public var alphabet: SMSAlphabet {
        switch rawValue >> 4 {
        case 0x0...0x7:
            switch (rawValue >> 2) & 0x03 {
            case 0x01: return .eightBit
            case 0x02: return .ucs2
            default: return .gsm7
            }
        case 0xE: return .ucs2
        case 0xF: return rawValue & 0x04 != 0 ? .eightBit : .gsm7
        default: return .gsm7
        }
    }

    /// The message class 0-3 when one is given (class 0 is a "flash" SMS).
    public var messageClass: UInt8? {
        switch rawValue >> 4 {
        case 0x0...0x7: return rawValue & 0x10 != 0 ? rawValue & 0x03 : nil
        case 0xF: return rawValue & 0x03
        default: return nil
        }
    }
}
