public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A throw-away PostgreSQL server for the tests: its own cluster in a private temporary
/// directory, reached on a unix socket in that directory and on a free loopback port, stopped and
/// removed when the test process exits.
///
/// Debian's `postgresql` package provides the server (`/usr/lib/postgresql/N/bin`, or the
/// directory in `SMSGW_POSTGRES_BIN`). `initdb` refuses to run as root, so under root the cluster
/// belongs to the `postgres` user (`runuser -u postgres --`). The superuser is ``user``: trusted
/// on the socket, whose directory only the cluster's owner (and root) can enter, and asked for
/// ``password`` on the loopback port. The server also takes TLS on that port, with a certificate
/// for 127.0.0.1 and `localhost` signed by the cluster's own CA (``certificateAuthorityFile``);
/// plain connections keep working. `fsync` is off: the tests need a server, not durability.
public final class PostgresCluster: Sendable {
    /// The directory holding the cluster, its socket and its log.
    public let directory: URL
    /// The directory of the unix socket (`.s.PGSQL.<port>`).
    public var socketDirectory: String { directory.path }
    /// The loopback port the server listens on (127.0.0.1).
    public let port: Int
    /// The superuser's name.
    public let user = "smsgw"
    /// The superuser's password, random per cluster.
    public let password: String
    /// The database every cluster has.
    public let database = "postgres"

    let binaries: URL
    private let runAs: [String]
    /// The cluster's owner, when it is not this process's user (root's cluster is postgres's).
    private let owner: (uid: uid_t, gid: gid_t)?

    /// The cluster this process shares, started at its first use; or why none could be started.
    public static let shared: Result<PostgresCluster, PostgresUnavailable> = {
        let result = Result { () throws(PostgresUnavailable) in try PostgresCluster() }
        if case .success = result {
            atexit { if case .success(let cluster) = PostgresCluster.shared { cluster.stop() } }
        }
        return result
    }()

    /// Whether a run must fail rather than skip when no server can be started (CI sets
    /// `SMSGW_REQUIRE_POSTGRES=1`).
    public static var required: Bool { ProcessInfo.processInfo.environment["SMSGW_REQUIRE_POSTGRES"] == "1" }

    /// Starts a cluster of its own (the tests share ``shared``; a failover test, or one that
    /// stops its server, needs its own).
    public init() throws(PostgresUnavailable) {
        binaries = try Self.findBinaries()
        password = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        var template = Array((FileManager.default.temporaryDirectory.path + "/smsgw-postgres-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw PostgresUnavailable("cannot create a temporary directory for the cluster")
        }
        directory = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        if geteuid() == 0 {
            guard let owner = getpwnam("postgres") else {
                throw PostgresUnavailable("running as root and there is no postgres user to own the cluster")
            }
            runAs = ["/usr/sbin/runuser", "-u", "postgres", "--"]
            self.owner = (owner.pointee.pw_uid, owner.pointee.pw_gid)
        } else {
            runAs = []
            owner = nil
        }
        port = try Self.freePort()
        do {
            try start()
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private func start() throws(PostgresUnavailable) {
        let passwordFile = directory.appendingPathComponent("password").path
        guard
            FileManager.default.createFile(
                atPath: passwordFile, contents: Data((password + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw PostgresUnavailable("cannot write the cluster's password file") }
        if let owner {
            guard chown(directory.path, owner.uid, owner.gid) == 0, chown(passwordFile, owner.uid, owner.gid) == 0 else {
                throw PostgresUnavailable("cannot give \(directory.path) to the postgres user")
            }
        }
        try run([
            binaries.appendingPathComponent("initdb").path, "--pgdata=\(directory.path)/data", "--username=\(user)",
            "--pwfile=\(passwordFile)", "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8",
            "--no-locale", "--no-sync",
        ])
        try makeCertificates()
        try startServer(data: "\(directory.path)/data", port: port, log: "server.log", settings: tlsSettings)
    }

    /// Starts the server of the data directory `data` on the loopback `port` and a socket in
    /// ``directory``, logging to `log` there, and waits until it accepts connections.
    func startServer(data: String, port: Int, log: String, settings: [String]) throws(PostgresUnavailable) {
        let options = ["-c listen_addresses=127.0.0.1", "-p \(port)", "-k \(directory.path)", "-c fsync=off"] + settings
        try run([
            binaries.appendingPathComponent("pg_ctl").path, "start", "--pgdata=\(data)", "--wait", "--timeout=120",
            "--log=\(directory.path)/\(log)", "--options=\(options.joined(separator: " "))",
        ])
    }

    /// Runs `sql` with psql on the server at `port` (this cluster's unless given), as the
    /// superuser on the socket, in `database` (the cluster's own unless given), and returns its
    /// rows, one a line, columns separated by `|`.
    @discardableResult
    public func psql(_ sql: String, port: Int? = nil, database: String? = nil) throws(PostgresUnavailable) -> [String] {
        try run([
            binaries.appendingPathComponent("psql").path, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
            "--host=\(socketDirectory)", "--port=\(port ?? self.port)", "--username=\(user)", "--dbname=\(database ?? self.database)",
            "--command=\(sql)",
        ]).split(separator: "\n").map(String.init)
    }

    /// Creates an empty database with a fresh random name and returns the name: one per test,
    /// so tests never see each other's rows (`CREATE DATABASE` copies a template, a moment's work).
    public func createDatabase() throws(PostgresUnavailable) -> String {
        let name = "smsgw_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
        try run([
            binaries.appendingPathComponent("createdb").path, "--host=\(socketDirectory)", "--port=\(port)",
            "--username=\(user)", name,
        ])
        return name
    }

    /// Stops the server at once and removes its directory.
    public func stop() {
        _ = try? run([binaries.appendingPathComponent("pg_ctl").path, "stop", "--pgdata=\(directory.path)/data", "--mode=immediate"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// A bash script that runs its arguments as a command with every descriptor above 2 closed,
    /// keeping its own open until it exits.
    static let closingDescriptors =
        #"c=; for f in /proc/$$/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && c="$c $n>&-"; done; eval "\"\$@\"$c"; exit $?"#

    /// Runs a command as the cluster's owner, waits for it and returns its output. Its output
    /// goes to a file, not a pipe, and the command starts with every other descriptor closed: the
    /// server that `pg_ctl start` leaves running would otherwise hold this process's descriptors
    /// (Foundation watches its children through one) and never let go of them. The shell that
    /// starts it keeps its own until it exits: a child that closes Foundation's socket while it
    /// runs holds Foundation's one monitor thread in `waitpid` until it ends (``Process/exit()``).
    @discardableResult
    func run(_ arguments: [String]) throws(PostgresUnavailable) -> String {
        // One output file per command: tests run commands at the same time.
        let outputPath = directory.appendingPathComponent("command-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        guard FileManager.default.createFile(atPath: outputPath, contents: nil, attributes: [.posixPermissions: 0o600]),
            let output = FileHandle(forWritingAtPath: outputPath)
        else { throw PostgresUnavailable("cannot write \(outputPath)") }
        defer { try? output.close() }
        let process = Process()
        let command = runAs + ["/bin/bash", "-c", Self.closingDescriptors, "bash"] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch {
            throw PostgresUnavailable("cannot run \(arguments[0]): \(error)")
        }
        let ended = process.waitForExit()
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard ended.succeeded else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            throw PostgresUnavailable(
                "\(URL(fileURLWithPath: arguments[0]).lastPathComponent) failed (\(ended)): \(text)\(log)")
        }
        return text
    }

    private static func findBinaries() throws(PostgresUnavailable) -> URL {
        if let given = ProcessInfo.processInfo.environment["SMSGW_POSTGRES_BIN"] {
            return URL(fileURLWithPath: given, isDirectory: true)
        }
        let root = URL(fileURLWithPath: "/usr/lib/postgresql", isDirectory: true)
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .compactMap(Int.init).sorted(by: >)
        for version in versions {
            let binaries = root.appendingPathComponent("\(version)/bin", isDirectory: true)
            if FileManager.default.isExecutableFile(atPath: binaries.appendingPathComponent("postgres").path) {
                return binaries
            }
        }
        throw PostgresUnavailable("no PostgreSQL server is installed (no /usr/lib/postgresql/N/bin/postgres); install Debian's postgresql")
    }

    /// A loopback port nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws(PostgresUnavailable) -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw PostgresUnavailable("cannot open a socket to find a free port") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw PostgresUnavailable("cannot find a free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why no PostgreSQL server could be started for the tests, in a sentence.
public struct PostgresUnavailable: Error, CustomStringConvertible {
    public let description: String

    init(_ reason: String) {
        description = reason
    }
}
