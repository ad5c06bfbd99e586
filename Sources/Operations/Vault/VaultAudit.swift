public import Foundation
public import Store

/// What the audit found about the vault's passwords: each item with a problem, and why.
///
/// JSON: `{"findings": [{"title","problems","reusedWith","strength","passwordChangedAt"}],
/// "items","oldAfterDays"}`.
public struct VaultAudit: Sendable, Hashable, Encodable {
    /// A problem the audit reports.
    public enum Problem: String, Sendable, Hashable, Encodable, CaseIterable {
        /// Another item has the same current password.
        case reused
        /// Below ``PasswordStrength/fairBits`` (the generator's figure, or the estimate).
        case weak
        /// Not changed for longer than the audit's limit.
        case old
        /// Seen by someone who no longer should: marked when a share is revoked or the item rotated,
        /// until the password is changed.
        case exposed
    }

    /// One item with at least one problem.
    public struct Finding: Sendable, Hashable, Encodable {
        public var title: String
        public var problems: [Problem]
        /// The other items with the same password.
        public var reusedWith: [String]
        public var strength: PasswordStrength
        public var passwordChangedAt: Date
    }

    public var findings: [Finding]
    /// How many items were audited.
    public var items: Int
    /// The age in days from which a password is old.
    public var oldAfterDays: Int
}

extension Vault {
    /// The default age from which the audit calls a password old.
    public static let defaultOldAfterDays = 365

    /// Audits every item: reused, weak, old (not changed for `oldAfterDays`), exposed.
    /// Reading only; nothing is logged.
    public static func audit(in store: UnlockedStore, oldAfterDays: Int = defaultOldAfterDays, now: Date) throws -> VaultAudit {
        guard oldAfterDays > 0 else { throw VaultError.invalid("The age of an old password is a number of days above 0.") }
        let items = try store.read { reader in try self.items(in: reader) }
        let limit = now.addingTimeInterval(-Double(oldAfterDays) * 86_400)
        var findings: [VaultAudit.Finding] = []
        for item in items.sorted(by: { VaultTitle.key(for: $0.title) < VaultTitle.key(for: $1.title) }) {
            let reusedWith = items.filter { $0.id != item.id && SecretComparison.equal($0.password, item.password) }.map(\.title)
            let strength = strength(of: item)
            var problems: [VaultAudit.Problem] = []
            if !reusedWith.isEmpty { problems.append(.reused) }
            if strength.rating == .weak { problems.append(.weak) }
            if item.passwordChangedAt < limit { problems.append(.old) }
            if item.exposed { problems.append(.exposed) }
            if !problems.isEmpty {
                findings.append(
                    VaultAudit.Finding(
                        title: item.title, problems: problems, reusedWith: reusedWith, strength: strength,
                        passwordChangedAt: item.passwordChangedAt))
            }
        }
        return VaultAudit(findings: findings, items: items.count, oldAfterDays: oldAfterDays)
    }
}
