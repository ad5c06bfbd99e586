/// Why a PDU could not be decoded or encoded.
public enum PDUError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The PDU ended before the field named here was complete.
    case truncated(field: String)
    /// A field holds a value this codec does not accept.
    case invalid(field: String, reason: String)
    /// The hexadecimal text is not an even number of hex digits.
    case invalidHex(String)
    /// The text cannot be carried in the requested alphabet.
    case unencodableText(String)

    public var description: String {
        switch self {
        case .truncated(let field):
            return "The PDU is truncated: \(field) is incomplete; check the PDU length."
        case .invalid(let field, let reason):
            return "The PDU field \(field) is invalid: \(reason)."
        case .invalidHex(let text):
            return "'\(text.prefix(40))' is not hexadecimal PDU text; use an even number of 0-9/A-F digits."
        case .unencodableText(let reason):
            return "The text cannot be encoded: \(reason)."
        }
    }
}
