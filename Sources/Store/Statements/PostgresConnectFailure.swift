import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

extension StoreError {
    /// Why connecting to the PostgreSQL server failed, as a sentence an operator can act on: the
    /// server's certificate refused (``configuration(_:)``: `tls_ca_file` or the URL's host name
    /// is what to change), a server without TLS while TLS is required (``configuration(_:)``),
    /// the server's own refusal (a wrong password: its message, as for any statement), or the
    /// server not reached at all (the system's reason, `connection refused`). Never the
    /// password: postgres-nio's errors do not hold it.
    init(connectingFailed error: any Error) {
        // The socket the store opens itself for TCP (``PostgresKeepalive``) fails before postgres-nio has it.
        if error is NIOConnectionError || error is IOError || error is ChannelError {
            self = .server("cannot connect to the PostgreSQL server: \(Self.reason(error) ?? "\(error)")", cause: .cannotOpen)
            return
        }
        guard let error = error as? PSQLError, error.serverInfo == nil else {
            self = Self.serverMessage(error)
            return
        }
        if error.code == .sslUnsupported {
            self = .configuration(
                "The PostgreSQL server does not offer TLS, which the store's tls setting requires; turn ssl on in the server's configuration, or set tls = \"disable\" for a server on this machine."
            )
        } else if let tls = error.underlying as? NIOSSLError {
            self = .configuration(
                Self.refusedCertificate(tls)
                    ? "The PostgreSQL server's TLS certificate was not accepted: it must be signed by a CA in tls_ca_file (the system's CAs without it) and name the host in the store's url; check both."
                    : "The TLS handshake with the PostgreSQL server failed; check the server's ssl settings and the store's tls and tls_ca_file."
            )
        } else {
            self = .server(
                "cannot connect to the PostgreSQL server: \(Self.reason(error.underlying) ?? "\(error.code)")", cause: .cannotOpen)
        }
    }

    /// Why an established connection stopped listening: the server's message and SQLSTATE (a
    /// terminated session, a server shutting down), else why the connection closed.
    init(listeningFailed error: any Error) {
        guard let error = error as? PSQLError else {
            self = Self.serverMessage(error)
            return
        }
        let closed = "the connection to the PostgreSQL server closed: \(Self.reason(error.underlying) ?? "\(error.code)")"
        self = .server(PostgresServer.serverWords(error) ?? closed, cause: .postgres(sqlState: error.serverInfo?[.sqlState]))
    }

    /// The system's words for why a connection failed (`connection refused`), else the error's.
    private static func reason(_ error: (any Error)?) -> String? {
        if let failure = error as? NIOConnectionError, let last = failure.connectionErrors.last?.error {
            return reason(last)
        }
        if let failure = error as? IOError { return String(cString: strerror(failure.errnoCode)).lowercased() }
        return error.map { "\($0)" }
    }

    /// Whether the handshake failed on the server's certificate (its CA or its name), not on
    /// something else: BoringSSL says so only in its error's text, which also holds source paths.
    private static func refusedCertificate(_ error: NIOSSLError) -> Bool {
        switch error {
        case .unableToValidateCertificate: true
        case .handshakeFailed(let reason): "\(reason)".contains("CERTIFICATE_VERIFY_FAILED")
        default: false
        }
    }

    /// The error ``PostgresServer/wrapping(_:)`` makes of it.
    private static func serverMessage(_ error: any Error) -> StoreError {
        do {
            return try PostgresServer.wrapping { throw error }
        } catch let error as StoreError {
            return error
        } catch {
            return .server("\(error)", cause: .other)
        }
    }
}
