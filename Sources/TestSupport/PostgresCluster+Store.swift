public import Store

extension PostgresCluster {
    /// A fresh empty database of this cluster, reached on its unix socket as the superuser
    /// (trusted there, so no password).
    public func freshAddress() throws -> PostgresAddress {
        PostgresAddress(host: socketDirectory, port: port, user: user, database: try createDatabase(), tls: .disable)
    }

    /// The same fresh kind of database, reached on the loopback port with the password, as a
    /// node on another host would, without TLS (set ``PostgresAddress/tls`` and
    /// ``certificateAuthorityFile`` to test it).
    public func freshLoopbackAddress() throws -> PostgresAddress {
        PostgresAddress(
            host: "127.0.0.1", port: port, user: user, database: try createDatabase(), password: password, tls: .disable)
    }
}
