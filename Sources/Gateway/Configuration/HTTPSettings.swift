import Foundation

/// The `[http]` table: where the HTTP API listens, its TLS files and its limits.
///
/// A listener on an address other than loopback without TLS is refused unless
/// ``allowPlaintext`` is set (``validate()``): bearer tokens and message texts would cross the
/// network in clear text.
public struct HTTPSettings: Sendable, Equatable {
    /// `listen`: `HOST:PORT` (`[::1]:PORT` for IPv6), or nil when `listen = "off"` turns the API off.
    public var listen: Address?
    /// `tls_certificate`: a PEM file with the certificate chain, leaf first.
    public var tlsCertificate: String?
    /// `tls_key`: a PEM file with the certificate's private key.
    public var tlsKey: String?
    /// `allow_plaintext`: serve plain HTTP on an address other than loopback (behind a TLS proxy).
    public var allowPlaintext: Bool
    /// `max_queued`: refuse new sends (503) while this many messages wait in the outbox; nil for no limit.
    public var maxQueued: Int?
    /// `auth_failure_limit`: failed authentications from one address within a minute after which
    /// its requests without a valid token get 429 (a valid token is always served).
    public var authFailureLimit: Int
    /// `idle_timeout_seconds`: a connection with no request in progress (waiting for the next
    /// request, or for the rest of a request's head) is closed after this long.
    public var idleTimeoutSeconds: Double
    /// `request_timeout_seconds`: a request whose head and body have not all arrived this long
    /// after its head is cut off with its connection.
    public var requestTimeoutSeconds: Double

    /// The default ``idleTimeoutSeconds``.
    public static let defaultIdleTimeout = 60.0
    /// The default ``requestTimeoutSeconds``.
    public static let defaultRequestTimeout = 30.0

    /// The default listen address.
    public static let defaultAddress = Address(host: "127.0.0.1", port: 8640)

    public init(
        listen: Address? = HTTPSettings.defaultAddress, tlsCertificate: String? = nil, tlsKey: String? = nil,
        allowPlaintext: Bool = false, maxQueued: Int? = nil, authFailureLimit: Int = 10,
        idleTimeoutSeconds: Double = HTTPSettings.defaultIdleTimeout, requestTimeoutSeconds: Double = HTTPSettings.defaultRequestTimeout
    ) {
        self.authFailureLimit = authFailureLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.listen = listen
        self.tlsCertificate = tlsCertificate
        self.tlsKey = tlsKey
        self.allowPlaintext = allowPlaintext
        self.maxQueued = maxQueued
    }

    /// A host and a TCP port (0 for any free port).
    public struct Address: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// Parses `HOST:PORT` or `[IPv6]:PORT`; nil when it is neither.
        public init?(_ text: String) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard let colon = trimmed.lastIndex(of: ":"), let port = Int(trimmed[trimmed.index(after: colon)...]),
                (0...65535).contains(port)
            else { return nil }
            var host = String(trimmed[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
            self.host = host
            self.port = port
        }

        /// Whether only this machine can reach the address.
        public var isLoopback: Bool {
            host == "localhost" || host == "::1" || host.hasPrefix("127.")
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// Whether TLS is configured.
    public var servesTLS: Bool { tlsCertificate != nil }

    /// Checks the TLS files go together, that the private key is not readable by every user, and
    /// that plain HTTP stays on loopback unless allowed.
    public func validate() throws(ConfigurationError) {
        switch (tlsCertificate, tlsKey) {
        case (nil, .some):
            throw ConfigurationError(key: "http.tls_certificate", "http.tls_key is set without http.tls_certificate; set both or neither.")
        case (.some, nil):
            throw ConfigurationError(key: "http.tls_key", "http.tls_certificate is set without http.tls_key; set both or neither.")
        default: break
        }
        if let tlsKey { try SecretFile.refuseOpen(tlsKey, key: "http.tls_key") }
        if let listen, !listen.isLoopback, !servesTLS, !allowPlaintext {
            throw ConfigurationError(
                key: "http.listen",
                "http.listen is \(listen), which other machines can reach, and no TLS is configured: API tokens and message texts would cross the network readable by anyone on the path. Set http.tls_certificate and http.tls_key, listen on 127.0.0.1, or set http.allow_plaintext = true when a TLS proxy on this machine fronts it."
            )
        }
    }
}
