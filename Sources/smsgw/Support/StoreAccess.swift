import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Store

/// Opening the gateway database and unlocking its account, shared by every command.
enum StoreAccess {
    /// Opens the database in the data directory (creating it if needed).
    static func open(_ options: GlobalOptions) throws -> GatewayStore {
        try GatewayStore.open(directory: options.dataDirectory, logger: options.makeLogger())
    }

    /// Opens the database and unlocks the account with the passphrase from ``PassphraseSource/account``.
    ///
    /// - Throws: ``CLIError`` 66 when no account exists yet; ``StoreError`` 77 for a wrong
    ///   passphrase or a locked account.
    static func unlock(_ options: GlobalOptions) throws -> UnlockedStore {
        let gateway = try open(options)
        guard try gateway.accountExists else {
            throw CLIError(
                "No account exists in \(gateway.directory.path); create one with `smsgw init --username NAME`.",
                status: .notFound)
        }
        // Checked before prompting: a locked account should not ask for a passphrase it will refuse.
        if let until = try gateway.lockedUntil() { throw StoreError.lockedOut(until: until) }
        let passphrase = try PassphraseSource.account.read(prompt: "Passphrase for smsgw: ")
        // The store counts each attempt as a failure until Argon2 finishes, so several processes
        // unlocking at once with the right passphrase could trip the lockout. One at a time:
        let lock = try UnlockLock(directory: gateway.directory)
        defer { lock.release() }
        return try gateway.unlock(passphrase: passphrase)
    }
}

/// An exclusive `flock` on DATA_DIR/smsgw.unlock.lock held around one unlock.
///
/// The kernel drops it when the process dies, so a `kill -9` during Argon2 never leaves it held.
struct UnlockLock {
    static let fileName = "smsgw.unlock.lock"
    private let fd: Int32

    init(directory: URL) throws {
        let path = directory.appendingPathComponent(Self.fileName).path
        fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw CLIError("Cannot create \(path); check the data directory's permissions.", status: .configuration)
        }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                _ = Glibc.close(fd)
                throw CLIError("Cannot lock \(path); check the data directory's file system.", status: .configuration)
            }
        }
    }

    func release() {
        _ = flock(fd, LOCK_UN)
        _ = Glibc.close(fd)
    }
}
