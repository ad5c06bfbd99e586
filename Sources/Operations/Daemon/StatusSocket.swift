public import Foundation

/// The running daemon's status socket, `DATA_DIR/smsgw.serve.sock`: how `smsgw status` learns the
/// daemon's health, modem states, queue counts and contacts' sync states without the passphrase
/// and without an Argon2 unlock.
///
/// The socket is a Unix stream socket, mode 0600 and owned by the service user, inside the 0700
/// data directory; it exists while `smsgw serve` runs (it is made after the store is unlocked and
/// removed at shutdown). The protocol is one request, one answer:
///
/// 1. The client sends one request line: a word in ASCII ending in LF, at most
///    ``maximumRequestLength`` bytes: `status`, `webhooks` (its webhook endpoints, judged by its
///    own configuration), or `wake` (what `smsgw send` sends after it queued a message, so the
///    daemon claims it at once; see ``Daemon/wake(in:)``). Later requests are new words.
/// 2. The daemon answers one line of JSON (``DaemonReply``) and closes the connection:
///    `{"version":1,"status":{…}}` with the ``GatewayStatus`` that `smsgw status --json` prints,
///    `{"version":1,"webhooks":[…]}` with the ``WebhookStatus`` lines of `webhook list --json`,
///    `{"version":1}` for `wake`, or `{"version":1,"error":"…"}` for a request it does not know. Clients ignore keys they do
///    not know, so the reply can grow.
///
/// Nothing secret crosses it: no texts, keys, codes, webhook secrets or ciphertexts, only what
/// `status` and `webhook list` show.
public enum StatusSocket {
    /// The socket's file name inside the data directory.
    public static let fileName = "smsgw.serve.sock"
    /// The version of the reply's shape.
    public static let version = 1
    /// The longest request line read.
    package static let maximumRequestLength = 256
    /// The longest reply a client reads.
    static let maximumReplyLength = 16 << 20

    /// The requests the daemon answers.
    public enum Request: String, Sendable, CaseIterable {
        /// The ``GatewayStatus`` of the running daemon.
        case status
        /// The daemon's webhook endpoints with their progress (``WebhookStatus``).
        case webhooks
        /// Look at the outbox now: a message was just queued. The reply carries neither status
        /// nor error.
        case wake
    }

    /// The socket's path for a data directory.
    public static func path(in directory: URL) -> String {
        directory.appendingPathComponent(fileName).path
    }

    /// The JSON coding of replies on the wire: sorted keys, dates as seconds since 1970.
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}

/// One answer of the status socket.
public struct DaemonReply: Sendable, Equatable, Codable {
    /// ``StatusSocket/version``.
    public var version: Int
    /// The daemon's status, for a `status` request.
    public var status: GatewayStatus?
    /// The daemon's webhook endpoints, for a `webhooks` request.
    public var webhooks: [WebhookStatus]?
    /// Why the request was not answered, in a sentence.
    public var error: String?

    public init(status: GatewayStatus? = nil, webhooks: [WebhookStatus]? = nil, error: String? = nil) {
        self.version = StatusSocket.version
        self.status = status
        self.webhooks = webhooks
        self.error = error
    }
}
