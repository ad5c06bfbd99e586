import Foundation
import NIOSSL
import PostgresNIO

extension PostgresAddress {
    /// postgres-nio's configuration for this address: a unix socket, or TCP with the TLS asked for.
    ///
    /// - Throws: ``StoreError/configuration(_:)`` when the TLS context cannot be made (an
    ///   unreadable or malformed `tls_ca_file`).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration = try transportConfiguration()
        configuration.options.additionalStartupParameters.append(("application_name", Self.applicationName))
        return configuration
    }

    /// What `pg_stat_activity.application_name` shows for this process's connections, "smsgw on
    /// HOST (pid N)", so an operator can tell which node (and which process of it) holds a
    /// session: the listening one that stopped reading, a lock waited on. PostgreSQL keeps 63
    /// bytes of it; PgBouncer passes it on.
    static let applicationName: String = {
        var name = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&name, name.count) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        return "smsgw on \(host) (pid \(getpid()))"
    }()

    /// The unix socket, or TCP with the TLS asked for.
    private func transportConfiguration() throws -> PostgresConnection.Configuration {
        if isUnixSocket {
            return PostgresConnection.Configuration(
                unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        }
        let tls: PostgresConnection.Configuration.TLS
        switch self.tls {
        case .disable:
            tls = .disable
        case .require:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            tls = .require(try Self.context(configuration))
        case .verifyFull:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .fullVerification
            if let tlsCAFile { configuration.trustRoots = .file(tlsCAFile) }
            tls = .require(try Self.context(configuration))
        }
        return PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
    }

    private static func context(_ configuration: TLSConfiguration) throws -> NIOSSLContext {
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw StoreError.configuration(
                "Cannot set up TLS for the PostgreSQL connection (\(error)); check tls_ca_file, a PEM file this user can read.")
        }
    }
}
