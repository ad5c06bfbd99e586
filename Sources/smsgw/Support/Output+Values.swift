import Foundation
import GSM7
import Operations
import TerminalIO

extension Output {
    /// Tells stderr which characters `--transliterate` replaced ("line N: " first in a `--lines` batch).
    static func report(_ replacements: [Transliteration], line: Int?) {
        guard !replacements.isEmpty else { return }
        diagnostic((line.map { "line \($0): " } ?? "") + "transliterated " + replacements.map(\.summary).joined(separator: "; ") + ".")
    }

    /// Encodes a value as one line of compact JSON: ``OperationsJSON``, the encoding every front end shares.
    static func json(_ value: some Encodable) throws -> String {
        try OperationsJSON.string(value)
    }

    /// A password's entropy as every command shows it, to one decimal: "130.9 bits" (20 characters
    /// of all classes: 131 would hide that they are slightly below 20 × log2 of the alphabet).
    static func bits(_ value: Double) -> String {
        String(format: "%.1f bits", value)
    }

    /// ISO 8601 in the local time zone with its offset, e.g. 2026-11-22T07:25:02+01:00.
    static func timestamp(_ date: Date) -> String {
        OperationsJSON.timestamp(date)
    }
}
