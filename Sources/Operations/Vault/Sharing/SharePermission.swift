/// What a holder of a shared item may do (docs/VAULT.md, the permission table).
public enum SharePermission: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Copy, exec and code; never reveal or export.
    case use = 1
    /// Also share onward, with `use` or `useAndShare`, from the first level only.
    case useAndShare = 2
    /// Also change the password, which goes back to the owner.
    case useChangeAndShare = 3

    /// `use`, `use+share`, `use+change+share`.
    public var description: String {
        switch self {
        case .use: "use"
        case .useAndShare: "use+share"
        case .useChangeAndShare: "use+change+share"
        }
    }

    /// The permission a name on the command line or in a file spells.
    public init?(name: String) {
        guard let value = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = value
    }
}
