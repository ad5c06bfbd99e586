import Foundation

extension PostgresCluster {
    /// The CA certificate (PEM) that signed the server's certificate: `tls_ca_file` for
    /// `tls = "verify-full"`.
    public var certificateAuthorityFile: String { directory.appendingPathComponent("tls/ca.pem").path }

    /// The server's TLS settings: on, with the certificate ``makeCertificates()`` made.
    var tlsSettings: [String] {
        let tls = directory.appendingPathComponent("tls").path
        return ["-c ssl=on", "-c ssl_cert_file=\(tls)/server.pem", "-c ssl_key_file=\(tls)/server.key"]
    }

    /// Makes a CA and, signed by it, the server's certificate for 127.0.0.1 and `localhost`, as
    /// the cluster's owner (the server refuses a key another user owns or others may read).
    func makeCertificates() throws(PostgresUnavailable) {
        let tls = directory.appendingPathComponent("tls").path
        try run(["/bin/mkdir", "-m", "0700", tls])
        try Self.makeCertificateAuthority(in: tls, run: run)
        try run(
            Self.openssl(["req", "-newkey"] + Self.keyType + ["-keyout", "\(tls)/server.key", "-out", "\(tls)/server.csr"], "localhost"))
        let extensions = "\(tls)/server.ext"
        try run([
            "/bin/sh", "-c",
            "printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nbasicConstraints=critical,CA:FALSE\\nextendedKeyUsage=serverAuth\\n' > \"$0\"",
            extensions,
        ])
        try run([
            "/usr/bin/openssl", "x509", "-req", "-in", "\(tls)/server.csr", "-CA", "\(tls)/ca.pem", "-CAkey", "\(tls)/ca.key",
            "-CAcreateserial", "-days", "30", "-extfile", extensions, "-out", "\(tls)/server.pem",
        ])
        try run(["/bin/chmod", "0600", "\(tls)/server.key", "\(tls)/ca.key"])
    }

    /// Makes a CA of its own in `directory` (`ca.pem`, with its key `ca.key`): one that signed no
    /// server's certificate, for a test that must see verification fail.
    public static func makeUnrelatedCertificateAuthority(in directory: String) throws(PostgresUnavailable) {
        try makeCertificateAuthority(in: directory) { arguments throws(PostgresUnavailable) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { throw PostgresUnavailable("cannot run openssl: \(error)") }
            guard process.waitForExit().succeeded else { throw PostgresUnavailable("openssl could not make a CA in \(directory)") }
            return ""
        }
    }

    private static let keyType = ["ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    private static func makeCertificateAuthority(
        in directory: String, run: ([String]) throws(PostgresUnavailable) -> String
    ) throws(PostgresUnavailable) {
        _ = try run(
            openssl(
                ["req", "-x509", "-days", "30", "-newkey"] + keyType + ["-keyout", "\(directory)/ca.key", "-out", "\(directory)/ca.pem"],
                "smsgw test CA \(UUID().uuidString.prefix(8))"))
    }

    private static func openssl(_ arguments: [String], _ commonName: String) -> [String] {
        ["/usr/bin/openssl"] + arguments + ["-subj", "/CN=\(commonName)"]
    }
}
