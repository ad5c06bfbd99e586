import Foundation

/// A file named in the configuration that holds a secret (a SIM PIN, webhook secrets): read at
/// start-up, and refused when every user of the machine may read it, as ssh refuses an open key.
enum SecretFile {
    /// The file's contents.
    ///
    /// - Parameters:
    ///   - path: The file, as the configuration names it.
    ///   - key: The configuration key, such as `modem[1].pin_file`, for the error.
    ///   - unreadable: The sentence for a missing or unreadable file.
    /// - Throws: ``ConfigurationError`` for a file that cannot be read or that others may read.
    static func read(_ path: String, key: String, unreadable: String) throws(ConfigurationError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(key: key, unreadable)
        }
        try refuseOpen(path, key: key)
        return data
    }

    /// Refuses a file that every user may read; one that does not exist (yet) is left to whoever
    /// opens it.
    ///
    /// - Throws: ``ConfigurationError`` naming `key`, the mode and the chmod that fixes it.
    static func refuseOpen(_ path: String, key: String) throws(ConfigurationError) {
        guard let permissions = try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int else { return }
        // Group access is how root:smsgw 0440 lets the service read it; "others" is anybody.
        guard permissions & 0o007 == 0 else {
            throw ConfigurationError(
                key: key,
                "\(key): every user on this machine may read \(path) (mode \(String(format: "%04o", permissions & 0o7777))); make it 0400 or 0440 (chmod o= \(path))."
            )
        }
    }
}
