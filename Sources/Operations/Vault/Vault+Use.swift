public import Foundation
import OTP
public import Store

/// How a front end uses a password without showing it.
public enum VaultUse: Sendable, Hashable {
    /// Put on the clipboard (for a limited time).
    case copy
    /// Given to a command in its environment or on its stdin.
    case exec(command: String)
}

extension Vault {
    /// The item, for a front end to copy its password or pass it to a command; the use is logged
    /// (with the command's name, never its arguments) in the same transaction.
    public static func use(titled title: String, for use: VaultUse, in store: UnlockedStore, now: Date) throws -> VaultItem {
        try store.write { tx in
            try VaultSharing.expire(in: tx, now: now)
            let item = try find(title, in: items(in: tx))
            switch use {
            case .copy: try record(.copied, item, in: tx, now: now)
            case .exec(let command): try record(.executed, item, detail: command, in: tx, now: now)
            }
            return item
        }
    }

    /// The current TOTP code of an item with a TOTP URI, and the seconds it stays valid.
    ///
    /// - Throws: ``VaultError/noTOTP(_:)`` for an item without one.
    public static func code(titled title: String, in store: UnlockedStore, now: Date) throws -> (code: String, validFor: Int64) {
        try store.write { tx in
            try VaultSharing.expire(in: tx, now: now)
            let item = try find(title, in: items(in: tx))
            guard let text = item.totp, let totp = try? OTPAuthURI(parsing: text).totp else { throw VaultError.noTOTP(item.title) }
            let time = TOTP.unixTime(now)
            let code = try OTPEntryError.mapping { try totp.code(at: time) }
            try record(.code, item, in: tx, now: now)
            return (code, totp.period - (time - totp.startTime) % totp.period)
        }
    }

    /// The vault's events, oldest first; with a title, only that item's (by its identifier while
    /// it exists, else by the title the events recorded).
    public static func log(titled title: String? = nil, in store: UnlockedStore) throws -> [VaultEvent] {
        try store.read { reader in
            let events = try reader.vaultEvents().map { entry in try VaultEvent.decoding(sequence: entry.sequence, entry.record.body) }
            guard let title else { return events }
            if let item = try? find(title, in: items(in: reader)) { return events.filter { $0.itemID == item.id } }
            let key = VaultTitle.key(for: title)
            return events.filter { VaultTitle.key(for: $0.title) == key }
        }
    }
}
