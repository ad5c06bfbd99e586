import Foundation
import NIOSSL
import PostgresNIO

extension PostgresAddress {
    /// postgres-nio's configuration for this address: a unix socket, or TCP with the TLS asked for.
    ///
    /// - Throws: ``StoreError/configuration(_:)`` when the TLS context cannot be made (an
    ///   unreadable or malformed `tls_ca_file`).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
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
