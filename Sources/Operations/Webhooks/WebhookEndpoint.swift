public import Foundation

/// One `[[webhook]]` endpoint: where events go, which ones, signed with which secrets.
///
/// Its description never shows a secret. The URL, as written, is its identity in the store.
public struct WebhookEndpoint: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Where requests go (http or https; plain http only to loopback unless the configuration allows it).
    public var url: URL
    /// The event types it receives.
    public var events: Set<EventType>
    /// The signing secrets: one, or several while a secret is rotated (every one signs).
    public var secrets: [WebhookSecret]
    /// Whether a `message.received` event carries the decrypted text (`data.message.text`).
    public var includeText: Bool
    /// How delivery retries are spaced.
    public var retry: RetrySchedule
    /// How long one request may take before it counts as failed and is retried.
    public var timeoutSeconds: Double

    public init(
        url: URL, events: Set<EventType> = Set(EventType.allCases), secrets: [WebhookSecret], includeText: Bool = false,
        retry: RetrySchedule = RetrySchedule(), timeoutSeconds: Double = 15
    ) {
        self.url = url
        self.events = events
        self.secrets = secrets
        self.includeText = includeText
        self.retry = retry
        self.timeoutSeconds = timeoutSeconds
    }

    /// The store's key for the endpoint.
    public var key: String { url.absoluteString }

    /// The endpoint for log lines: scheme, host and port, never the path or query, which may
    /// hold a receiver's token.
    public var logName: String {
        "\(url.scheme ?? "http")://\(url.host ?? "?")\(url.port.map { ":\($0)" } ?? "")"
    }

    public var description: String {
        "WebhookEndpoint(\(url.absoluteString), events: \(events.map(\.rawValue).sorted().joined(separator: ",")), includeText: \(includeText))"
    }
    public var customMirror: Mirror { Mirror(self, children: ["url": url, "includeText": includeText]) }

    /// Whether `host` is a loopback address or name, where plain http never leaves the machine.
    public static func isLoopback(host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
