import Foundation
import TestSupport
import Testing

@Suite("The tests' throw-away PostgreSQL cluster", .blockingOffPool)
struct PostgresClusterTests {
    @Test("It answers on its private socket without a password and on its loopback port only with its password")
    func answers() throws {
        let cluster = try requirePostgres()
        let socket = try psql(cluster, host: cluster.socketDirectory, password: nil)
        #expect(socket.status == 0, "\(socket.output)")
        #expect(socket.output.contains("15") || socket.output.contains("16") || socket.output.contains("17"))
        let loopback = try psql(cluster, host: "127.0.0.1", password: cluster.password)
        #expect(loopback.status == 0, "\(loopback.output)")
        let wrong = try psql(cluster, host: "127.0.0.1", password: "wrong")
        #expect(wrong.status != 0)
        #expect(wrong.output.contains("password authentication failed"))
        let attributes = try FileManager.default.attributesOfItem(atPath: cluster.socketDirectory)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o077 } == 0)
    }

    /// `psql` from Debian's postgresql-client, asking the server's major version.
    private func psql(_ cluster: PostgresCluster, host: String, password: String?) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [
            "--no-psqlrc", "--no-password", "--tuples-only", "--host=\(host)", "--port=\(cluster.port)",
            "--username=\(cluster.user)", "--dbname=\(cluster.database)", "--command=SHOW server_version_num",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSWORD"] = password
        environment["PGSSLMODE"] = "disable"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.waitForExit().status, text)
    }
}
