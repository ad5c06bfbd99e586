public import Foundation

/// Where a PostgreSQL store lives and how to reach it: `[store] url`, the password (from a file
/// or the environment, never from the configuration) and the TLS options.
///
/// The URL is libpq's form without a password: `postgresql://USER@HOST:PORT/DATABASE`, or, on a
/// unix socket, `postgresql://USER@/DATABASE?host=/run/postgresql` (the socket's directory; a
/// `port` parameter names the socket's port, 5432 without).
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// Whether and how the connection is encrypted (libpq's `sslmode` of the same names).
    public enum TLS: String, Sendable, CaseIterable {
        /// Plain TCP: only for a server on the loopback interface or a private network.
        case disable
        /// Encrypted; the server's certificate is not checked.
        case require
        /// Encrypted, the certificate checked against `tls_ca_file` (or the system's roots) and
        /// the host name.
        case verifyFull = "verify-full"
    }

    /// The server's host name or address, or the directory of its unix socket (starting `/`).
    public var host: String
    public var port: Int
    public var user: String
    public var database: String
    /// The password; nil where the server trusts the user (a unix socket with peer auth).
    public var password: String?
    public var tls: TLS
    /// The CA certificates (PEM) that `verify-full` checks the server against.
    public var tlsCAFile: String?

    public init(
        host: String, port: Int = 5432, user: String, database: String, password: String? = nil, tls: TLS = .require,
        tlsCAFile: String? = nil
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.database = database
        self.password = password
        self.tls = tls
        self.tlsCAFile = tlsCAFile
    }

    /// Reads a `postgresql://` URL.
    ///
    /// - Throws: ``StoreError/configuration(_:)`` when it is not one, names no user or database,
    ///   or holds a password.
    public init(url: String, password: String?, tls: TLS = .require, tlsCAFile: String? = nil) throws {
        guard let components = URLComponents(string: url), ["postgresql", "postgres"].contains(components.scheme ?? "") else {
            throw StoreError.configuration(
                "The store's url is not a postgresql:// URL; write it as postgresql://USER@HOST:PORT/DATABASE.")
        }
        guard components.password == nil else {
            throw StoreError.configuration(
                "The store's url holds a password; remove it and give the password in password_file or the environment.")
        }
        let socket = components.queryItems?.first { $0.name == "host" }?.value
        let port = components.port ?? components.queryItems?.first { $0.name == "port" }?.value.flatMap { Int($0) }
        let database = String(components.path.drop { $0 == "/" })
        guard let user = components.user, !user.isEmpty, !database.isEmpty, let host = socket ?? components.host,
            !host.isEmpty
        else {
            throw StoreError.configuration(
                "The store's url must name a user, a host and a database: postgresql://USER@HOST:PORT/DATABASE.")
        }
        self.init(
            host: host, port: port ?? 5432, user: user, database: database, password: password, tls: tls,
            tlsCAFile: tlsCAFile)
    }

    /// Whether ``host`` is a unix socket's directory.
    public var isUnixSocket: Bool { host.hasPrefix("/") }

    /// The address without the password, for logs and `serve --check`.
    public var description: String {
        isUnixSocket ? "postgresql://\(user)@/\(database)?host=\(host)&port=\(port)" : "postgresql://\(user)@\(host):\(port)/\(database)"
    }
}
