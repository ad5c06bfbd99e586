import Foundation

/// Where a program named on a command line is, found as a shell finds it: a name with a slash is
/// that file, any other name the first executable file of that name in `PATH`.
enum ExecutableSearch {
    /// The path of `name`'s executable, or nil when there is none (not found, or not executable).
    static func find(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        guard !name.isEmpty else { return nil }
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let directories = (path ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        // An empty entry means the working directory, as in every shell.
        return directories.map { $0.isEmpty ? name : "\($0)/\(name)" }.first { candidate in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: candidate)
        }
    }
}
