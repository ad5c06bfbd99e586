public import Foundation

/// The one JSON encoding of the values the operations return, used by `--json` today and the HTTP
/// API tomorrow: keys sorted, times in ISO 8601 with the local offset, slashes as they are; each
/// type writes absent values as `null` so every object of a kind has the same keys.
public enum OperationsJSON {
    /// `value` as one line of compact JSON.
    public static func string(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A fresh encoder with the shared settings (JSONEncoder is not safe to share between threads).
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(timestamp(date))
        }
        return encoder
    }

    /// ISO 8601 in the local time zone with its offset, e.g. 2026-11-22T07:25:02+01:00.
    public static func timestamp(_ date: Date) -> String {
        InternetTime.string(date)
    }
}
