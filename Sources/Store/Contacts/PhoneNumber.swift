import Foundation

/// A phone number in E.164 form: "+" then 8 to 15 digits, the first not 0.
///
/// Parsing accepts what people type: spaces, dashes, dots, slashes and parentheses are ignored,
/// and an international "00" prefix becomes "+". A number without a country code is refused,
/// because the gateway cannot guess which country the modem's network will assume.
public struct PhoneNumber: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    /// The normalised form, for example "+442079460958".
    public let e164: String

    /// Parses and normalises `text`.
    ///
    /// - Throws: ``StoreError/invalidInput(_:)`` saying what is wrong and what to type instead.
    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw StoreError.invalidInput("The phone number is empty; give it with its country code, e.g. +44 20 7946 0958.")
        }
        let separators: Set<Character> = [" ", "-", ".", "/", "(", ")", "\u{00A0}"]
        var compact = ""
        for character in trimmed where !separators.contains(character) {
            guard character == "+" || ("0"..."9").contains(character) else {
                throw StoreError.invalidInput(
                    "The phone number \"\(trimmed)\" contains \"\(character)\"; use only digits, spaces, dashes and a leading +."
                )
            }
            compact.append(character)
        }
        let digits: Substring
        if compact.hasPrefix("+") {
            digits = compact.dropFirst()
        } else if compact.hasPrefix("00") {
            digits = compact.dropFirst(2)
        } else {
            throw StoreError.invalidInput(
                "The phone number \"\(trimmed)\" has no country code; add the country code, e.g. +44 20 7946 0958."
            )
        }
        guard !digits.contains("+") else {
            throw StoreError.invalidInput("The phone number \"\(trimmed)\" has a + after the start; write it once, at the front.")
        }
        guard (8...15).contains(digits.count) else {
            throw StoreError.invalidInput(
                "The phone number \"\(trimmed)\" has \(digits.count) digits; an international number has 8 to 15 digits after the +."
            )
        }
        guard digits.first != "0" else {
            throw StoreError.invalidInput(
                "The phone number \"\(trimmed)\" starts with 0 after the country prefix; country codes never start with 0, so check it."
            )
        }
        e164 = "+" + digits
    }

    /// Reads a number already stored in E.164 form.
    init(storedE164 value: String) throws(StoreError) {
        // Already normalised, as every stored number is: taken as it is, without the parse
        // (Foundation's trimming and a character set), which each outbox and contact row paid.
        let bytes = value.utf8
        if (9...16).contains(bytes.count), bytes.first == UInt8(ascii: "+"),
            bytes.dropFirst().first != UInt8(ascii: "0"),
            bytes.dropFirst().allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        {
            e164 = value
            return
        }
        do {
            self = try PhoneNumber(value)
        } catch {
            throw .corrupted("A stored phone number is malformed; give the contact its numbers again.")
        }
    }

    public var description: String { e164 }

    public static func < (lhs: PhoneNumber, rhs: PhoneNumber) -> Bool { lhs.e164 < rhs.e164 }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = try PhoneNumber(container.decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(e164)
    }
}
