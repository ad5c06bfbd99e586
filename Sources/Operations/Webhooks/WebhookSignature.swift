public import Foundation

/// Standard Webhooks signing: the three headers of a signed request.
///
/// The signed content is `webhook-id.webhook-timestamp.body`; `webhook-signature` holds one
/// `v1,<base64 HMAC-SHA256>` per secret, separated by spaces, so a receiver that knows either
/// secret of a rotation accepts the request.
public enum WebhookSignature {
    /// The `webhook-signature` header for `body` sent as `id` at `timestamp` (Unix seconds).
    public static func header(id: String, timestamp: Int64, body: Data, secrets: [WebhookSecret]) -> String {
        var content = Data("\(id).\(timestamp).".utf8)
        content.append(body)
        return secrets.map { $0.signature(of: content) }.joined(separator: " ")
    }

    /// Whether `header` holds a valid signature of `body` under `secret`, compared in constant
    /// time (what a receiver does; the tests use it).
    public static func verify(header: String, id: String, timestamp: Int64, body: Data, secret: WebhookSecret) -> Bool {
        let expected = Data(self.header(id: id, timestamp: timestamp, body: body, secrets: [secret]).utf8)
        var found = false
        for candidate in header.split(separator: " ") {
            let given = Data(candidate.utf8)
            guard given.count == expected.count else { continue }
            var difference: UInt8 = 0
            for (left, right) in zip(given, expected) { difference |= left ^ right }
            if difference == 0 { found = true }
        }
        return found
    }

    /// The headers of one request: `webhook-id`, `webhook-timestamp`, `webhook-signature`, and
    /// the JSON content type.
    public static func headers(id: String, timestamp: Int64, body: Data, secrets: [WebhookSecret]) -> [(name: String, value: String)] {
        [
            ("content-type", "application/json"),
            ("webhook-id", id),
            ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", header(id: id, timestamp: timestamp, body: body, secrets: secrets)),
        ]
    }
}
