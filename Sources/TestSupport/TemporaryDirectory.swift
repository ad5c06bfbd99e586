public import Foundation

/// A directory of its own for one test, removed with everything in it when the object goes away.
///
/// Swift may release an object right after its last use, not at the end of the scope that holds
/// it: a store keeps its lock files in its data directory, so keep the directory alive while a
/// store uses it (hold it in the test's own object, use ``withTemporaryDirectory(prefix:_:)``,
/// or `withExtendedLifetime`). Removing the directory under an open store makes the next lock fail
/// in ways that look like a bug in the store.
public final class TemporaryDirectory: Sendable {
    /// The directory itself, created (0700) by the initialiser.
    public let root: URL
    /// `root/data`, not created: for code that makes its own directory with its own permissions,
    /// as the store does with its data directory.
    public let url: URL

    /// Creates an empty directory under the system's temporary directory.
    ///
    /// - Parameter prefix: The start of the directory's name, saying which tests made it (seen
    ///   when a test is killed before it cleans up).
    public init(prefix: String = "smsgw-tests") {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        url = root.appendingPathComponent("data", isDirectory: true)
        // A test that cannot make its directory fails on its first use of it, with the path.
        try? FileManager.default.createDirectory(
            at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String {
        root.appendingPathComponent(name).path
    }
}

/// Runs `body` with a fresh directory (``TemporaryDirectory/root``), removed when it returns.
public func withTemporaryDirectory<T>(prefix: String = "smsgw-tests", _ body: (URL) throws -> T) throws -> T {
    let directory = TemporaryDirectory(prefix: prefix)
    return try withExtendedLifetime(directory) { try body(directory.root) }
}

/// Runs `body` with a fresh directory (``TemporaryDirectory/root``), removed when it returns.
public func withTemporaryDirectory<T>(prefix: String = "smsgw-tests", _ body: (URL) async throws -> T) async throws -> T {
    let directory = TemporaryDirectory(prefix: prefix)
    defer { withExtendedLifetime(directory) {} }
    return try await body(directory.root)
}

/// How many of this process's descriptors are open on `path` (Linux's /proc/self/fd).
///
/// Tests run in parallel and open descriptors of their own meanwhile: count the descriptors on a
/// path of the test's own, never all of them.
public func openDescriptors(on path: String) -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }.count
}

/// Writes `text` to `url` readable by its owner only (0600), as a configuration's secret files
/// (pin_file, secret_file) must be: the gateway refuses one that every user may read.
public func writeSecret(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
}
