/// A piece of HTML whose every interpolated string is escaped.
///
/// Literal parts are markup written in this module; anything interpolated as a `String` (a text
/// from an SMS, a sender, an operator name, a modem's network name) is escaped for text and
/// double-quoted attribute values alike, so it renders as inert text wherever it lands. Only an
/// `HTML` value is inserted as markup. Attribute values are always written in double quotes.
public struct HTML: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The markup.
    public private(set) var markup: String

    public init(stringLiteral markup: String) { self.markup = markup }

    public init(stringInterpolation: StringInterpolation) { markup = stringInterpolation.markup }

    /// Nothing.
    public static let empty = HTML(stringLiteral: "")

    public var description: String { markup }

    /// The pieces one after another.
    public static func joined(_ pieces: [HTML]) -> HTML { HTML(stringLiteral: pieces.map(\.markup).joined()) }

    /// `html` when `condition` holds, else nothing.
    public static func when(_ condition: Bool, _ html: @autoclosure () -> HTML) -> HTML { condition ? html() : .empty }

    public struct StringInterpolation: StringInterpolationProtocol {
        var markup = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        public mutating func appendLiteral(_ literal: String) { markup += literal }

        /// Text from anywhere: escaped.
        public mutating func appendInterpolation(_ text: String) { markup += HTML.escape(text) }

        /// Text that may be absent: escaped, or `placeholder` (escaped too).
        public mutating func appendInterpolation(_ text: String?, or placeholder: String) {
            markup += HTML.escape(text ?? placeholder)
        }

        public mutating func appendInterpolation(_ number: some BinaryInteger) { markup += String(number) }

        /// Markup built by this module.
        public mutating func appendInterpolation(_ html: HTML) { markup += html.markup }

        public mutating func appendInterpolation(_ pieces: [HTML]) { markup += pieces.map(\.markup).joined() }

        /// One path segment of a URL (a contact's name in `/contacts/NAME`): percent-encoded, then escaped.
        public mutating func appendInterpolation(segment: String) { markup += HTML.escape(HTML.percentEncoded(segment)) }
    }

    /// `text` escaped for HTML text and double-quoted attribute values.
    ///
    /// Besides `& < > " '`, characters that could change how the surrounding text reads are
    /// shown as visible codes instead of being passed on: C0 and C1 controls (but tab and line
    /// feed), DEL, the bidirectional overrides, embeddings and isolates (U+202A–U+202E,
    /// U+2066–U+2069) with which an SMS could make its text read backwards around it, and the
    /// bidirectional marks and line separators (U+061C, U+200E, U+200F, U+2028, U+2029), as
    /// the command line escapes them.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if isHidden(scalar) {
                    result += "[U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Whether `scalar` is shown as a code rather than passed on (see ``escape(_:)``).
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `segment` percent-encoded for a URL path: everything but unreserved ASCII.
    static func percentEncoded(_ segment: String) -> String {
        var result = ""
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
