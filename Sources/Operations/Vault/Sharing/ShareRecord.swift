public import Foundation

/// The records the vault's messages carry (docs/PROTOCOL.md §13.3), as bytes: numbers big-endian,
/// strings as a 16-bit length then UTF-8. Each begins with its version (1); a receiver refuses
/// another version, trailing bytes, and strings that are not UTF-8.
public enum ShareRecord: Sendable, Hashable {
    /// An item shared (kind 3): permission, level (1 from the owner, 2 from a level-1 holder),
    /// when it was shared, when it expires (nil: never), and the item's fields.
    case share(Share)
    /// A new password (kind 4 from the owner, kind 5 from a holder that may change it).
    case password(changedAt: Date, password: String)
    /// A level-1 holder shared onward (kind 7): the new share, its permission and expiry, and the
    /// name the holder gave the new holder.
    case reshared(share: UInt32, permission: SharePermission, expiresAt: Date?, holder: String)

    /// The fields of a shared item.
    public struct Share: Sendable, Hashable {
        public var permission: SharePermission
        public var level: Int
        public var sharedAt: Date
        public var expiresAt: Date?
        public var title: String
        public var username: String
        public var url: String
        public var notes: String
        public var password: String
        public var totp: String

        public init(
            permission: SharePermission, level: Int, sharedAt: Date, expiresAt: Date?, title: String, username: String = "",
            url: String = "", notes: String = "", password: String, totp: String = ""
        ) {
            self.permission = permission
            self.level = level
            self.sharedAt = sharedAt
            self.expiresAt = expiresAt
            self.title = title
            self.username = username
            self.url = url
            self.notes = notes
            self.password = password
            self.totp = totp
        }
    }

    static let version: UInt8 = 1

    /// The record's bytes.
    public var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.u8(Self.version)
        switch self {
        case .share(let share):
            writer.u8(share.permission.rawValue)
            writer.u8(UInt8(share.level))
            writer.time(share.sharedAt)
            writer.time(share.expiresAt)
            for field in [share.title, share.username, share.url, share.notes, share.password, share.totp] { writer.string(field) }
        case .password(let changedAt, let password):
            writer.time(changedAt)
            writer.string(password)
        case .reshared(let share, let permission, let expiresAt, let holder):
            writer.u32(share)
            writer.u8(permission.rawValue)
            writer.time(expiresAt)
            writer.string(holder)
        }
        return writer.bytes
    }

    /// The record of a message of `kind` (3, 4, 5 or 7), or nil when the bytes break §13.3.
    public init?(kind: UInt8, bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        guard reader.u8() == Self.version else { return nil }
        switch kind {
        case 3:
            guard let permission = reader.u8().flatMap(SharePermission.init(rawValue:)), let level = reader.u8(), (1...2).contains(level),
                let sharedAt = reader.time(), let expiresAt = reader.time(), let title = reader.string(),
                let username = reader.string(), let url = reader.string(), let notes = reader.string(),
                let password = reader.string(), let totp = reader.string()
            else { return nil }
            self = .share(
                Share(
                    permission: permission, level: Int(level), sharedAt: sharedAt,
                    expiresAt: expiresAt.timeIntervalSince1970 == 0 ? nil : expiresAt,
                    title: title, username: username, url: url, notes: notes, password: password, totp: totp))
        case 4, 5:
            guard let changedAt = reader.time(), let password = reader.string() else { return nil }
            self = .password(changedAt: changedAt, password: password)
        case 7:
            guard let share = reader.u32(), let permission = reader.u8().flatMap(SharePermission.init(rawValue:)),
                let expiresAt = reader.time(), let holder = reader.string()
            else { return nil }
            self = .reshared(
                share: share, permission: permission, expiresAt: expiresAt.timeIntervalSince1970 == 0 ? nil : expiresAt, holder: holder)
        default:
            return nil
        }
        guard reader.atEnd else { return nil }
    }
}

/// Big-endian numbers and length-prefixed UTF-8 strings into bytes.
private struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
    mutating func u64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
    /// Whole seconds since 1970; nil (never) as 0.
    mutating func time(_ date: Date?) { u64(UInt64(max(0, (date?.timeIntervalSince1970 ?? 0).rounded(.down)))) }
    mutating func string(_ text: String) {
        let utf8 = Array(text.utf8.prefix(Int(UInt16.max)))
        bytes.append(UInt8(utf8.count >> 8))
        bytes.append(UInt8(utf8.count & 0xFF))
        bytes += utf8
    }
}

/// The reading side of ``ByteWriter``: each read is nil when the bytes run short.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { offset == bytes.count }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func u8() -> UInt8? { take(1)?.first }
    mutating func u32() -> UInt32? { take(4)?.reduce(0) { $0 << 8 | UInt32($1) } }
    mutating func time() -> Date? {
        guard let seconds = take(8)?.reduce(UInt64(0), { $0 << 8 | UInt64($1) }) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds))
    }
    mutating func string() -> String? {
        guard let length = take(2)?.reduce(0, { $0 << 8 | Int($1) }), let utf8 = take(length) else { return nil }
        return String(validating: utf8, as: UTF8.self)
    }
}
