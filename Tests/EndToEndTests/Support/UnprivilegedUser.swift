import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Runs programs as a normal user, for the tests that opt in: CI runs as root, and root passes
/// the checks a normal user meets (a terminal's exclusive flag, file modes), so a bug that only a
/// normal user sees would never show there.
///
/// As root it uses the system user `smsgw-test` (created once with `useradd --system`, or
/// `nobody` when that fails) through `runuser`; as any other user it runs the program directly.
enum UnprivilegedUser {
    static let preferred = "smsgw-test"

    /// The user to run as, or nil with the reason when there is none.
    static let account: Result<String?, SkipReason> = {
        guard geteuid() == 0 else { return .success(nil) }  // already unprivileged
        if getpwnam(preferred) == nil {
            _ = try? runDirectly("/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", preferred])
        }
        if getpwnam(preferred) != nil { return .success(preferred) }
        if getpwnam("nobody") != nil { return .success("nobody") }
        return .failure(SkipReason(message: "running as root, and neither \(preferred) could be created nor nobody exists"))
    }()

    struct SkipReason: Error { var message: String }

    /// A process that runs `executable arguments…` as the user (not started).
    static func process(_ executable: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        switch account {
        case .failure(let reason): throw reason
        case .success(nil):
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        case .success(let user?):
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", user, "--", executable] + arguments
        }
        return process
    }

    /// Runs `executable arguments…` as the user and returns its status and combined output.
    static func run(_ executable: String, _ arguments: [String], timeout: Double = 30) throws -> (status: Int32, output: String) {
        try capture(try process(executable, arguments), timeout: timeout)
    }

    /// Runs as a named other user (root only), to check what a second user cannot do.
    static func runAs(_ user: String, _ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        process.arguments = ["-u", user, "--", executable] + arguments
        return try capture(process, timeout: 30)
    }

    /// The smsgw executable's path and a new ``scratchDirectory()`` (removed by the caller), or
    /// nil, with the reason printed, when there is no user to run as (the test is skipped).
    static func prepare() throws -> (binary: String, scratch: URL)? {
        let binary = try SMSGWBinary.require().path
        if case .failure(let reason) = account {
            print("Skipped: \(reason.message).")
            return nil
        }
        return (binary, try scratchDirectory())
    }

    /// A directory the user can create entries in (0733 would do; 0777 keeps the test simple),
    /// removed by the caller.
    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-e2e-user-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        _ = chmod(url.path, 0o777)  // the umask narrowed the attribute
        return url
    }

    private static func runDirectly(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        return try capture(process, timeout: 30)
    }

    private static func capture(_ process: Process, timeout: Double) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-e2e-out-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var ended = process.waitForExit(within: .seconds(timeout))
        if ended == nil {
            process.terminate()
            ended = process.waitForExit()
        }
        return (ended?.status ?? -1, String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self))
    }
}
