public import Foundation
public import Logging
public import Store

/// The `[store]` table: which database the gateway keeps its state in, for `serve` and every
/// command.
///
/// SQLite in the data directory unless `backend = "postgresql"`; then `url` says where, the
/// password comes from `password_file` (refused when every user may read it) or the
/// environment variable `SMSGW_STORE_PASSWORD`, never from the file, and `tls` with
/// `tls_ca_file` say how the connection is encrypted.
public struct StoreSettings: Sendable, Equatable {
    /// `backend`: `sqlite` (the default) or `postgresql`.
    public enum Backend: String, Sendable, CaseIterable {
        case sqlite
        case postgresql
    }

    public var backend = Backend.sqlite
    /// `url`: `postgresql://USER@HOST:PORT/DATABASE` (or `?host=/socket/dir`), without a password.
    public var url: String?
    /// `password_file`: a file holding the database password (0400 or 0440).
    public var passwordFile: String?
    /// `tls`: `require` (the default), `verify-full` or `disable`.
    public var tls = PostgresAddress.TLS.require
    /// `tls_ca_file`: the CA certificates `verify-full` trusts (PEM); the system's without it.
    public var tlsCAFile: String?
    /// `allow_asynchronous_replicas`: run beside standbys no commit waits for (a warning, not a
    /// refusal): only when none of them will ever be promoted.
    public var allowAsynchronousReplicas = false

    /// The environment variable holding the database password when there is no `password_file`.
    public static let passwordVariable = "SMSGW_STORE_PASSWORD"

    public init() {}

    /// Opens the configured store: SQLite in `dataDirectory`, or the PostgreSQL database with
    /// `dataDirectory` holding this node's locks and status socket.
    ///
    /// - Parameter creating: Whether a missing SQLite store is created (see
    ///   ``Store/GatewayStore/open(directory:logger:creating:)``).
    /// - Throws: ``ConfigurationError`` for a missing url or an unreadable or open password
    ///   file; the store's errors otherwise.
    public func open(
        dataDirectory: URL, logger: Logger, creating: Bool = true,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> GatewayStore {
        switch backend {
        case .sqlite: try GatewayStore.open(directory: dataDirectory, logger: logger, creating: creating)
        case .postgresql:
            try GatewayStore.open(postgres: try address(environment: environment), directory: dataDirectory, logger: logger)
        }
    }

    /// The contacts' names in the configured store, for shell completion, which never asks for
    /// a passphrase and never creates a store: read in the clear from SQLite in `dataDirectory`
    /// or from the PostgreSQL database; none when it cannot be read (a missing password, a
    /// server that does not answer within 2 s).
    public func contactNames(
        dataDirectory: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        switch backend {
        case .sqlite: GatewayStore.contactNames(inDirectory: dataDirectory)
        case .postgresql: (try? address(environment: environment)).map(GatewayStore.contactNames(postgres:)) ?? []
        }
    }

    /// The PostgreSQL server, database and credentials.
    ///
    /// - Throws: ``ConfigurationError`` naming `store.url` or `store.password_file`.
    public func address(environment: [String: String]) throws(ConfigurationError) -> PostgresAddress {
        guard let url else {
            throw ConfigurationError(
                key: "store.url", "store.url is required with backend = \"postgresql\"; write it as postgresql://USER@HOST:PORT/DATABASE.")
        }
        var password = environment[Self.passwordVariable]
        if let passwordFile {
            let data = try SecretFile.read(
                passwordFile, key: "store.password_file",
                unreadable: "store.password_file: cannot read \(passwordFile); check the path and that this user may read it.")
            password = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        }
        do {
            return try PostgresAddress(url: url, password: password, tls: tls, tlsCAFile: tlsCAFile)
        } catch {
            throw ConfigurationError(key: "store.url", "\(error)")
        }
    }

    /// The start-up check of a PostgreSQL server's durability (``ServerDurability``): nil on
    /// SQLite; a warning is logged as one line naming the setting; a refusal throws.
    ///
    /// - Throws: ``ConfigurationError`` (key `store`) with the refusal's sentence.
    @discardableResult
    public func checkDurability(of store: GatewayStore, logger: Logger) throws -> ServerDurability.Verdict? {
        guard let durability = try store.serverDurability() else { return nil }
        let verdict = durability.verdict(allowAsynchronousReplicas: allowAsynchronousReplicas)
        switch verdict {
        case .durable: break
        case .warning(let sentence): logger.warning("\(sentence)", metadata: [GatewayLog.store: "\(store.location)"])
        case .refused(let sentence): throw ConfigurationError(key: "store", sentence)
        }
        return verdict
    }
}
