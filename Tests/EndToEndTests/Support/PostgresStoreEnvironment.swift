import Foundation
import Store
import TestSupport
import Testing

extension PostgresCluster {
    /// A fresh database of this cluster as an operator configures a node for it: the
    /// `SMSGW_STORE_*` variables of `[store]`, with the password in a 0600 file in `root`,
    /// reached on the loopback port (as from another host), without TLS; on `port` instead of
    /// the server's own when given (a forwarder standing for a virtual IP in front of it).
    func storeEnvironment(in root: URL, port: Int? = nil) throws -> (database: PostgresAddress, environment: [String: String]) {
        var database = try freshLoopbackAddress()
        if let port { database.port = port }
        let passwordFile = root.appendingPathComponent("database-password")
        #expect(
            FileManager.default.createFile(
                atPath: passwordFile.path, contents: Data((password + "\n").utf8), attributes: [.posixPermissions: 0o600]))
        let environment = [
            "SMSGW_STORE_BACKEND": "postgresql",
            "SMSGW_STORE_URL": "postgresql://\(database.user)@127.0.0.1:\(database.port)/\(database.database)",
            "SMSGW_STORE_TLS": "disable", "SMSGW_STORE_PASSWORD_FILE": passwordFile.path,
        ]
        return (database, environment)
    }
}
