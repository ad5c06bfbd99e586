import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The simulator's directory and files, private to the user who runs it.
///
/// Whoever can write to the directory can swap a modem's device link for a device of their own;
/// whoever can connect to the control socket can inject SMS into `smsgw serve --sim` and unplug
/// its modems; the traffic log holds every PDU. So the directory is 0700, owned by this user, and
/// the socket, log and gammurc files in it are 0600.
enum PrivateDirectory {
    /// Creates `url` with mode 0700, or tightens an existing directory of this user to 0700.
    /// - Throws: ``SimulatorError`` when it is not a directory or belongs to another user.
    static func prepare(_ url: URL) throws {
        let path = url.path
        var found = try status(of: path)
        if found == nil {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            found = try status(of: path)
        }
        guard let info = found, info.st_mode & S_IFMT == S_IFDIR else {
            throw SimulatorError("The simulator directory \(path) is not a directory; choose a new or empty directory for the simulator.")
        }
        guard info.st_uid == geteuid() else {
            throw SimulatorError(
                "The simulator directory \(path) belongs to another user, who could swap its modems; choose a directory of your own for the simulator."
            )
        }
        if info.st_mode & 0o077 != 0 { try restrict(path, to: 0o700) }
    }

    /// Makes `path` readable and writable by this user only.
    static func restrict(_ path: String) throws {
        try restrict(path, to: 0o600)
    }

    private static func restrict(_ path: String, to mode: mode_t) throws {
        do throws(SystemCallError) {
            try FileSystem.setMode(mode, of: path)
        } catch {
            throw SimulatorError(error.description)
        }
    }

    /// The status of `path`; nil when nothing is there.
    private static func status(of path: String) throws -> stat? {
        do throws(SystemCallError) {
            return try FileSystem.status(of: path)
        } catch {
            throw SimulatorError(error.description)
        }
    }
}
