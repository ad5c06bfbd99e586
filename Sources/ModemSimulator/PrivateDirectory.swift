import Foundation
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
        var info = stat()
        if stat(path, &info) != 0 {
            guard errno == ENOENT else { throw SimulatorError.posix("stat \(path)") }
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard stat(path, &info) == 0 else { throw SimulatorError.posix("stat \(path)") }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw SimulatorError("The simulator directory \(path) is not a directory; give --dir a new or empty directory.")
        }
        guard info.st_uid == geteuid() else {
            throw SimulatorError("The simulator directory \(path) belongs to another user, who could swap its modems; give --dir a directory of your own.")
        }
        if info.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw SimulatorError.posix("chmod 0700 \(path)")
        }
    }

    /// Makes `path` readable and writable by this user only.
    static func restrict(_ path: String) throws {
        guard chmod(path, 0o600) == 0 else { throw SimulatorError.posix("chmod 0600 \(path)") }
    }
}
